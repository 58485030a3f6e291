// What a route answers when app/server/rate-limits refuses an action: 429, the catalogue's
// "操作太频繁" with the wait in words, and a Retry-After the client may honour.
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { tooManyMessage } from "~/lib/login-throttle";
import type { RateLimitVerdict } from "~/server/rate-limits.server";

type Refused = Extract<RateLimitVerdict, { ok: false }>;

/** The status, message and headers of a rate-limit refusal, for a route to put in its own answer. */
export function tooMany(verdict: Refused): { status: 429; message: string; headers: Record<string, string> } {
  return {
    status: 429,
    message: tooManyMessage(refusalMessages.rateLimited, verdict.retryAfter * 1000),
    headers: { "Retry-After": String(verdict.retryAfter), "Cache-Control": "no-store" },
  };
}

/** The answer of a JSON endpoint whose shape is { success, message } (plus its own extra fields). */
export function tooManyAnswer(verdict: Refused, extra: Record<string, unknown> = {}) {
  const { status, message, headers } = tooMany(verdict);
  return Response.json({ success: false, message, ...extra }, { status, headers });
}
