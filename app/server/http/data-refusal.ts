import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "@remix-run/router";
import { encode } from "turbo-stream";

// A single-fetch request (/page.data) is decoded by the Remix client as a turbo-stream: a plain
// text refusal there fails to decode and ends on the generic "出了点问题" screen, so the student
// never learns the server was busy. This writes the refusal the way Remix's own server encodes a
// thrown ErrorResponse (its turbo-stream plugin: ["ErrorResponse", data, status, statusText]), so
// the route's error boundary gets the status and the message (the router's own ErrorResponse,
// which isRouteErrorResponse recognises once decoded).

const STATUS_TEXT: Record<number, string> = { 429: "Too Many Requests", 503: "Service Unavailable" };

/** The route ids a single-fetch GET asks for: `_routes` when the client narrowed them, always root. */
function requestedRoutes(search: string) {
  const named = new URLSearchParams(search).get("_routes");
  const ids = new Set(["root"]);
  for (const id of named?.split(",") ?? []) if (id) ids.add(id);
  return [...ids];
}

// Under a flood most answers are refusals: the few distinct bodies are encoded once.
const cache = new Map<string, string>();

/**
 * The body of a refusal to a single-fetch request. An action's answer is one result; a loaders'
 * answer is a result per route, and the root's error is the one the client shows.
 */
export async function singleFetchRefusal(method: string, search: string, status: 429 | 503, message: string) {
  const isAction = method !== "GET" && method !== "HEAD";
  const routes = isAction ? [] : requestedRoutes(search);
  const key = `${status}\n${isAction}\n${routes.join(",")}\n${message}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const error = new ErrorResponse(status, STATUS_TEXT[status], message);
  const value = isAction ? { error } : Object.fromEntries(routes.map((id) => [id, { error }]));
  const stream = encode(value, {
    plugins: [(item) => (item instanceof ErrorResponse ? ["ErrorResponse", item.data, item.status, item.statusText] : undefined)],
  });
  const body = await new Response(stream).text();
  if (cache.size > 256) cache.clear();
  cache.set(key, body);
  return body;
}
