import { isCrossSiteMutation } from "~/lib/origin";
import { ownOrigins } from "./public-origin";

/**
 * The one cross-site check (see lib/origin): true when a mutation comes from another site's page.
 * The pipeline runs it for every request before any route; routes do not repeat it.
 */
export function rejectCrossSite(request: Request): boolean {
  const url = new URL(request.url);
  return isCrossSiteMutation({
    method: request.method,
    pathname: url.pathname,
    origin: request.headers.get("Origin"),
    secFetchSite: request.headers.get("Sec-Fetch-Site"),
    expectedOrigins: ownOrigins(request),
  });
}
