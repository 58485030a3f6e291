import { data } from "@remix-run/node";
import { normalizeSearchQuery, SEARCH_MAX_QUERY_LENGTH } from "~/lib/circle-search";
import * as msg from "~/lib/messages";
import { searchCircle, type SearchPage } from "~/server/forum/search.server";
import { log } from "~/server/log.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { requireStudent } from "~/server/http/guards.server";

const EMPTY: SearchPage = { hits: [], page: 1, hasMore: false };

/**
 * /circle/search?q=: a page of results, best first. No query yet: the empty form. A query
 * without a term of two characters: the message next to the field. Rate-limited per student and
 * client network (429 with the message).
 */
export async function searchPage(request: Request, clientIp: string | undefined) {
  const user = await requireStudent(request);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, SEARCH_MAX_QUERY_LENGTH);
  const requestedPage = Number(params.get("page") ?? "1");
  const pageNumber = Number.isInteger(requestedPage) && requestedPage >= 1 && requestedPage <= 20 ? requestedPage : 1;
  const base = { q, results: EMPTY, terms: [] as string[], fieldError: null as string | null, error: null as string | null };
  if (!params.has("q")) return data(base);
  const query = normalizeSearchQuery(q);
  if (!query.ok) return data({ ...base, fieldError: query.reason === "empty" ? msg.circle.searchEmpty : msg.circle.searchTooShort }, { status: 400 });
  const verdict = await consumeRateLimit("search", { userId: user.id, ip: clientIp });
  if (!verdict.ok) {
    const refused = tooMany(verdict);
    return data({ ...base, error: refused.message }, { status: refused.status, headers: refused.headers });
  }
  try {
    const results = await searchCircle({ terms: query.terms, viewerId: user.id, page: pageNumber });
    return data({ ...base, results, terms: query.terms });
  } catch (cause) {
    log("error", "circle-search", { error: String(cause) });
    return data({ ...base, error: msg.circle.searchFailed }, { status: 500 });
  }
}
