import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { refusalKind, type Refusal } from "~/lib/request-limits";

// The answers of bounded requests: what the pipeline (app.ts) sends, or an action throws (remix.ts),
// when a body, a URL or a JSON nesting is over its limit. JSON endpoints get their JSON shape
// ({ success: false, message }; the pay notification: { code: "FAIL", message }), pages get the
// message on the error screen (a thrown Response renders the root ErrorBoundary).

export function refusalMessage(refusal: Refusal) {
  switch (refusal.reason) {
    case "too_large":
      return refusalMessages.bodyTooLarge;
    case "too_many_parts":
      return refusalMessages.tooManyParts;
    case "too_deep":
      return refusalMessages.badBody;
    case "url_too_long":
      return refusalMessages.urlTooLong;
    case "bad_url":
      return refusalMessages.badUrl;
  }
}

/** The parts of the answer, for the pipeline (app.ts) to send without Remix (a URL that no route may see). */
export function refusalAnswer(pathname: string, refusal: Refusal): { status: number; contentType: string; body: string } {
  const message = refusalMessage(refusal);
  const kind = refusal.reason === "bad_url" || refusal.reason === "url_too_long" ? safeKind(pathname) : refusalKind(pathname);
  if (kind === "pay") return { status: refusal.status, contentType: "application/json; charset=utf-8", body: JSON.stringify({ code: "FAIL", message }) };
  if (kind === "json") return { status: refusal.status, contentType: "application/json; charset=utf-8", body: JSON.stringify({ success: false, message }) };
  return { status: refusal.status, contentType: "text/plain; charset=utf-8", body: message };
}

/** The answer as a Response, thrown by an action (guardedBuild in remix.ts). */
export function refusalResponse(pathname: string, refusal: Refusal) {
  const answer = refusalAnswer(pathname, refusal);
  return new Response(answer.body, { status: answer.status, headers: { "Content-Type": answer.contentType, "Cache-Control": "no-store" } });
}

function safeKind(pathname: string) {
  try {
    return refusalKind(pathname);
  } catch {
    return "page" as const;
  }
}
