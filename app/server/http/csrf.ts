import { isCrossSiteMutation } from "~/lib/origin";
import { config } from "../config.server";

/**
 * The one cross-site check (see lib/origin): true when a mutation comes from another site's page.
 * The pipeline runs it for every request before any route; routes do not repeat it.
 */
export function rejectCrossSite(request: Request): boolean {
  const url = new URL(request.url);
  const expected = [url.origin];
  const publicUrl = config().publicUrl;
  if (publicUrl) expected.push(new URL(publicUrl).origin);
  return isCrossSiteMutation({
    method: request.method,
    pathname: url.pathname,
    origin: request.headers.get("Origin"),
    secFetchSite: request.headers.get("Sec-Fetch-Site"),
    expectedOrigins: expected,
  });
}
