// Our origin as others must see it (the messenger provider's callback, a shared link, the calendar
// feed): the configured PUBLIC_URL wins over the request's Host, which is the client's to choose.
import { config } from "../config.server";

/** The configured public origin, else the request's (a Request, or its URL). */
export function publicOrigin(request: Request | URL | string): string {
  const publicUrl = config().publicUrl;
  return new URL(publicUrl || requestUrl(request)).origin;
}

/** The origins that are ours for this request: the one it came to and the configured one. */
export function ownOrigins(request: Request | URL | string): string[] {
  const origins = [new URL(requestUrl(request)).origin, publicOrigin(request)];
  return origins[0] === origins[1] ? [origins[0]!] : origins;
}

function requestUrl(request: Request | URL | string): string | URL {
  return request instanceof Request ? request.url : request;
}
