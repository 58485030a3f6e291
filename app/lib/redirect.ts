import { deleteDataParams, hasDataParams, pagePath } from "./request-kind";

/** The stand-in origin redirect targets are resolved against (only paths of this site survive). */
const SAME_ORIGIN = "http://same.origin";

/**
 * A redirect target from user input, kept only when it is a path on this site. The target is
 * normalised first (dot segments resolved, as a browser would) and checked after: "/.//evil"
 * normalises to "//evil", which would leave the site. Refused: "//…", "/\…", encoded slashes or
 * backslashes that make such a start once decoded ("/%2F%2F…", "/%5C…"), absolute URLs,
 * "javascript:", anything with control characters, tabs, newlines or backslashes. Otherwise the
 * fallback. A data request's parameters (`_routes`, `index`, `_data`) are dropped: a return address
 * names a page. The answer is a fixpoint: safeRedirect(safeRedirect(x)) === safeRedirect(x).
 */
export function safeRedirect(target: unknown, fallback = "/schedule", options: { origins?: string[] } = {}): string {
  if (typeof target !== "string" || target.length === 0 || target.length > MAX_REDIRECT_LENGTH) return fallback;
  // Browsers drop tabs and newlines inside URLs ("/\t/evil" is "//evil"); backslashes are slashes.
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  // A full URL is kept only on one of our own origins, as its path (then checked like any path).
  if (/^https?:\/\//i.test(target)) {
    const path = pathOnOrigins(target, options.origins ?? []);
    return path === null ? fallback : safeRedirect(path, fallback);
  }
  if (!target.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(target, SAME_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== SAME_ORIGIN) return fallback;
  // Only when there is one to drop: rewriting the query would re-encode the rest of it.
  if (hasDataParams(url.searchParams)) deleteDataParams(url.searchParams);
  const path = url.pathname + url.search + url.hash;
  if (!isLocalPath(path)) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  // A proxy or a client that decodes once more must still see a path of ours.
  if (!isLocalPath(decoded) || /[\u0000-\u001f\u007f\\]/.test(decoded) || /\/\.\.?(\/|$)/.test(decoded)) return fallback;
  return path;
}

/**
 * The page a request was for, as the address to come back to after a login or an authorization:
 * its path (a data request's `.data` undone) and query, bounded as boundedReturnPath, then kept
 * as safeRedirect keeps a target ("//evil.example" is a path a request can have). Else the fallback.
 */
export function requestReturnPath(requestUrl: string | URL, fallback = "/schedule"): string {
  const url = new URL(requestUrl, SAME_ORIGIN);
  return safeRedirect(boundedReturnPath(pagePath(url.pathname) + url.search), fallback);
}

function pathOnOrigins(target: string, origins: string[]) {
  try {
    const url = new URL(target);
    return origins.includes(url.origin) ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}

function isLocalPath(path: string) {
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
}

/** The longest return path a redirect carries (safeRedirect refuses longer ones anyway). */
export const MAX_REDIRECT_LENGTH = 2000;

/**
 * A return path short enough to travel in a Location header: a huge query string would make a
 * header no client accepts, so it is dropped (then the path too, when that alone is too long).
 */
export function boundedReturnPath(target: string): string | undefined {
  if (target.length <= MAX_REDIRECT_LENGTH) return target;
  const pathname = target.split(/[?#]/)[0]!;
  return pathname.length <= MAX_REDIRECT_LENGTH ? pathname : undefined;
}

/**
 * Query parameters that open a dialog (a confirmation, a sheet): a return path never carries them,
 * so logging in again never lands on "确定要退出登录吗？" or a half-finished sheet.
 */
export const DIALOG_PARAMS = ["confirm", "dialog", "sheet"] as const;

export function withoutDialogQuery(target: string): string {
  const queryAt = target.indexOf("?");
  if (queryAt < 0) return target;
  const hashAt = target.indexOf("#", queryAt);
  const query = new URLSearchParams(target.slice(queryAt + 1, hashAt < 0 ? undefined : hashAt));
  for (const name of DIALOG_PARAMS) query.delete(name);
  const rest = query.toString();
  return target.slice(0, queryAt) + (rest ? `?${rest}` : "") + (hashAt < 0 ? "" : target.slice(hashAt));
}

export function loginPath(redirectTo?: string, reason?: string) {
  const params = new URLSearchParams();
  const target = redirectTo && boundedReturnPath(withoutDialogQuery(redirectTo));
  if (target && target !== "/") params.set("redirectTo", target);
  if (reason) params.set("reason", reason);
  const query = params.toString();
  return query ? `/crLogin?${query}` : "/crLogin";
}
