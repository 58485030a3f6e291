import { config } from "./config.server";

/** Headers for every response. Scripts need the per-request nonce Remix puts on its inline scripts. */
export function securityHeaders(nonce: string): Record<string, string> {
  const csp = [
    "default-src 'self'",
    // The messenger's JS-SDK (share to a chat, loaded by the invite share dialog) comes from its own host.
    `script-src 'self' 'nonce-${nonce}' https://res.wx.qq.com https://res2.wx.qq.com`,
    // Theme variables and a few computed sizes are inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    // Messenger avatars come from the provider's image hosts over https.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
  };
  if (config().isProduction) headers["Strict-Transport-Security"] = "max-age=31536000";
  return headers;
}
