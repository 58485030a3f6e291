import { config } from "./config.server";

// Everything but the nonce is the same for every response: built once per configuration.
let fixed: { settings: ReturnType<typeof config>; cspBefore: string; cspAfter: string; headers: Record<string, string> } | undefined;

/** Headers for every response. Scripts need the per-request nonce Remix puts on its inline scripts. */
export function securityHeaders(nonce: string): Record<string, string> {
  const settings = config();
  if (fixed?.settings !== settings) {
    const NONCE = "\u0000nonce\u0000";
    const csp = [
      "default-src 'self'",
      // The messenger's JS-SDK (share to a chat, loaded by the invite share dialog) comes from its own host.
      `script-src 'self' 'nonce-${NONCE}' https://res.wx.qq.com https://res2.wx.qq.com`,
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
    const [cspBefore, cspAfter] = csp.split(NONCE);
    const headers: Record<string, string> = {
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "X-Frame-Options": "DENY",
      "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    };
    if (settings.isProduction) headers["Strict-Transport-Security"] = "max-age=31536000";
    fixed = { settings, cspBefore, cspAfter, headers };
  }
  return { "Content-Security-Policy": fixed.cspBefore + nonce + fixed.cspAfter, ...fixed.headers };
}
