/**
 * A redirect target from user input, kept only when it is a path on this site: "/x", never
 * "//evil", "/\evil", "http://…", or anything with control characters. Otherwise the fallback.
 */
export function safeRedirect(target: unknown, fallback = "/schedule"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > MAX_REDIRECT_LENGTH) return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  try {
    const url = new URL(target, "http://same.origin");
    if (url.origin !== "http://same.origin") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
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
