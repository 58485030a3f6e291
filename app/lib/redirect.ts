/**
 * A redirect target from user input, kept only when it is a path on this site: "/x", never
 * "//evil", "/\evil", "http://…", or anything with control characters. Otherwise the fallback.
 */
export function safeRedirect(target: unknown, fallback = "/schedule"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > 2000) return fallback;
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

export function loginPath(redirectTo?: string, reason?: string) {
  const params = new URLSearchParams();
  if (redirectTo && redirectTo !== "/") params.set("redirectTo", redirectTo);
  if (reason) params.set("reason", reason);
  const query = params.toString();
  return query ? `/crLogin?${query}` : "/crLogin";
}
