import { PAY_NOTIFY_PATH } from "./pay-params";

/** Paths an outside system posts to (they prove themselves with a signature instead). */
export const CROSS_SITE_POST_PATHS = [PAY_NOTIFY_PATH];

/**
 * A state-changing request must come from our own pages. Browsers send Origin on every POST
 * (and Sec-Fetch-Site where supported); a request carrying neither is not from a browser form
 * and passes (curl, the provider), since cookies are SameSite=Lax anyway.
 */
export function isCrossSiteMutation(input: {
  method: string;
  pathname: string;
  origin: string | null;
  secFetchSite: string | null;
  expectedOrigins: string[];
}) {
  if (["GET", "HEAD", "OPTIONS"].includes(input.method.toUpperCase())) return false;
  if (CROSS_SITE_POST_PATHS.includes(input.pathname)) return false;
  if (input.secFetchSite && !["same-origin", "none"].includes(input.secFetchSite)) return true;
  if (input.origin && input.origin !== "null") return !input.expectedOrigins.includes(input.origin);
  return input.origin === "null";
}
