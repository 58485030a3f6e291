// The rules of the messenger authorization that need no I/O: how long it lasts, the redirect
// lock, the error codes that reach /wx/callback and their messages, the legacy payload decoder.
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { boundedReturnPath, requestReturnPath } from "~/lib/redirect";

const msg = { wechat: wechatMessages };

/** An authorization is valid 7 days; after that the next page load in the messenger renews it. */
export const AUTHORIZATION_VALID_MS = 7 * 24 * 60 * 60 * 1000;
/** A second authorization redirect within 10 s is refused (it would be a loop). */
export const REDIRECT_LOCK_MS = 10_000;
/** The random `state` key lives 10 minutes (the provider's code itself lives 5). */
export const STATE_LIFETIME_MS = 10 * 60 * 1000;

export const MESSENGER_AUTH_PATH = "/api/wechat/auth";
export const MESSENGER_CALLBACK_PATH = "/api/wechat/callback";
export const MESSENGER_RESULT_PAGE = "/wx/callback";
export const MESSENGER_DEFAULT_RETURN = "/market";

export const MESSENGER_ERROR_CODES = [
  "AUTH_DENIED",
  "INVALID_STATE",
  "INVALID_CODE",
  "CODE_USED",
  "SCOPE_UNAUTHORIZED",
  "PARSE_ERROR",
  "NO_USER_INFO",
  "WECHAT_ALREADY_BOUND",
  "REDIRECT_LOCKED",
  "NOT_CONFIGURED",
  "TIMEOUT",
  "NETWORK_ERROR",
  "WECHAT_ERROR",
  "AUTH_FAILED",
] as const;

export type MessengerErrorCode = (typeof MESSENGER_ERROR_CODES)[number];

export function isMessengerErrorCode(value: unknown): value is MessengerErrorCode {
  return typeof value === "string" && (MESSENGER_ERROR_CODES as readonly string[]).includes(value);
}

/** The Chinese message of a code; an unknown code gets the generic one (never echoed text). */
export function messengerErrorMessage(code: string | null | undefined): string {
  return isMessengerErrorCode(code) ? msg.wechat.errors[code] : msg.wechat.errors.AUTH_FAILED;
}

/** True when the messenger identity is unknown or its authorization is 7 days old or more. */
export function needsReauthorization(
  user: { openid: string | null; wechat_authorized_at: string | null },
  now: Date,
): boolean {
  if (!user.openid || !user.wechat_authorized_at) return true;
  const authorizedAt = Date.parse(user.wechat_authorized_at);
  if (Number.isNaN(authorizedAt)) return true;
  return now.getTime() - authorizedAt >= AUTHORIZATION_VALID_MS;
}

/** Where to send a browser to (re)authorize, coming back to `returnPath` afterwards. */
export function messengerAuthPath(returnPath: string) {
  return `${MESSENGER_AUTH_PATH}?redirect_url=${encodeURIComponent(boundedReturnPath(returnPath) ?? MESSENGER_DEFAULT_RETURN)}`;
}

/** The authorization that comes back to the page a request was for (requestReturnPath). */
export function messengerAuthPathFor(requestUrl: string | URL) {
  return messengerAuthPath(requestReturnPath(requestUrl, MESSENGER_DEFAULT_RETURN));
}

/**
 * Where to send a messenger-bound student whose session expired: the silent authorization
 * (snsapi_base), which signs them in again and comes back to `returnPath`.
 */
export function messengerResumePath(returnPath: string) {
  return `${MESSENGER_AUTH_PATH}?resume=1&redirect_url=${encodeURIComponent(boundedReturnPath(returnPath) ?? MESSENGER_DEFAULT_RETURN)}`;
}

/** The result page for a failed authorization, in the product rules' shape (?error=CODE&message=…). */
export function messengerErrorPath(code: MessengerErrorCode, returnPath?: string) {
  const params = new URLSearchParams({ error: code, message: messengerErrorMessage(code) });
  if (returnPath && returnPath !== MESSENGER_DEFAULT_RETURN) params.set("redirect_url", returnPath);
  return `${MESSENGER_RESULT_PAGE}?${params.toString()}`;
}

/**
 * The product rules' legacy `userInfo` parameter: base64 (or base64url) JSON, possibly without padding,
 * with '+' turned into spaces by URL decoding, or with percent-encoded JSON inside. Returns the
 * object, or null when nothing decodes. The result is untrusted input and signs no one in.
 */
export function decodeUserInfoPayload(raw: string | null | undefined): Record<string, unknown> | null {
  if (!raw) return null;
  const inputs = new Set<string>([raw.trim()]);
  try {
    inputs.add(decodeURIComponent(raw.trim()));
  } catch {
    // not percent-encoded
  }
  for (const input of inputs) {
    const base = input.replace(/ /g, "+").replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    if (!/^[A-Za-z0-9+/]*$/.test(base) || base.length % 4 === 1) continue;
    const padded = base + "=".repeat((4 - (base.length % 4)) % 4);
    const text = decodeBase64Utf8(padded);
    if (text === null) continue;
    for (const candidate of [text, safeDecodeUri(text)]) {
      if (candidate === null) continue;
      try {
        const value: unknown = JSON.parse(candidate);
        if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {
        // try the next form
      }
    }
  }
  return null;
}

function decodeBase64Utf8(padded: string): string | null {
  try {
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function safeDecodeUri(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
