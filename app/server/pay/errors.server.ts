// The two typed failures of the payment provider layer.
//   PayError           a call to the pay API failed (network, the provider's {code, message}, a bad answer)
//   NotificationError  a notification (or an API answer) could not be trusted or read
// Messages carry codes and HTTP statuses only: never keys, signatures, openids or bodies.

export type PayErrorCode =
  /** No merchant configured (production without one), or the simulated provider in production. */
  | "NOT_CONFIGURED"
  /** Our own input was refused before sending (bad out_trade_no, amount, description…). */
  | "INVALID_INPUT"
  | "TIMEOUT"
  | "NETWORK"
  /** The answer was not JSON, or not the documented shape. */
  | "BAD_RESPONSE"
  /** The answer's platform signature did not verify (or was missing, or stale). */
  | "BAD_RESPONSE_SIGNATURE"
  /** The provider refused our request signature (401 SIGN_ERROR): wrong key or serial. */
  | "SIGN_ERROR"
  /** ORDER_NOT_EXIST / RESOURCE_NOT_EXISTS / 404. */
  | "NOT_FOUND"
  | "ORDER_PAID"
  | "ORDER_CLOSED"
  /** The same out_trade_no was used with other parameters. */
  | "DUPLICATE"
  | "USER_PAYING"
  /** NOT_ENOUGH: the merchant's balance cannot cover a refund. */
  | "INSUFFICIENT_BALANCE"
  /** NOAUTH, APPID_MCHID_NOT_MATCH, MCH_NOT_EXISTS: the merchant setup is wrong. */
  | "NO_AUTH"
  | "RATE_LIMITED"
  /** PARAM_ERROR, INVALID_REQUEST and any other 4xx. */
  | "REJECTED"
  /** SYSTEM_ERROR, BANK_ERROR, 5xx: try again later (same out_trade_no / out_refund_no). */
  | "PROVIDER_UNAVAILABLE";

const RETRYABLE: ReadonlySet<PayErrorCode> = new Set([
  "TIMEOUT",
  "NETWORK",
  "RATE_LIMITED",
  "PROVIDER_UNAVAILABLE",
  "USER_PAYING",
]);

export class PayError extends Error {
  readonly code: PayErrorCode;
  /** The provider's own code ({code} of its error answer), when it sent one. */
  readonly providerCode?: string;
  /** The HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** Repeating the same call later (same numbers) may succeed. */
  readonly retryable: boolean;

  constructor(code: PayErrorCode, detail?: string, extra: { providerCode?: string; status?: number } = {}) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = "PayError";
    this.code = code;
    this.providerCode = extra.providerCode;
    this.status = extra.status;
    this.retryable = RETRYABLE.has(code);
  }
}

/** The provider's error codes (both spellings seen across API versions) → ours. */
const PROVIDER_CODES: Record<string, PayErrorCode> = {
  SIGN_ERROR: "SIGN_ERROR",
  ORDER_NOT_EXIST: "NOT_FOUND",
  ORDERNOTEXIST: "NOT_FOUND",
  RESOURCE_NOT_EXISTS: "NOT_FOUND",
  ORDERPAID: "ORDER_PAID",
  ORDER_PAID: "ORDER_PAID",
  ORDERCLOSED: "ORDER_CLOSED",
  ORDER_CLOSED: "ORDER_CLOSED",
  OUT_TRADE_NO_USED: "DUPLICATE",
  USERPAYING: "USER_PAYING",
  NOT_ENOUGH: "INSUFFICIENT_BALANCE",
  NOTENOUGH: "INSUFFICIENT_BALANCE",
  NOAUTH: "NO_AUTH",
  APPID_MCHID_NOT_MATCH: "NO_AUTH",
  MCH_NOT_EXISTS: "NO_AUTH",
  FREQUENCY_LIMITED: "RATE_LIMITED",
  RATELIMIT_EXCEEDED: "RATE_LIMITED",
  SYSTEM_ERROR: "PROVIDER_UNAVAILABLE",
  SYSTEMERROR: "PROVIDER_UNAVAILABLE",
  BANK_ERROR: "PROVIDER_UNAVAILABLE",
  BANKERROR: "PROVIDER_UNAVAILABLE",
  PARAM_ERROR: "REJECTED",
  INVALID_REQUEST: "REJECTED",
};

/** A PayError for an error answer: the provider's code first, else the HTTP status. */
export function payErrorFor(status: number, providerCode: string | undefined): PayError {
  const mapped = providerCode ? PROVIDER_CODES[providerCode.toUpperCase()] : undefined;
  const code: PayErrorCode =
    mapped ??
    (status === 401 ? "SIGN_ERROR" : status === 404 ? "NOT_FOUND" : status === 429 ? "RATE_LIMITED" : status >= 500 ? "PROVIDER_UNAVAILABLE" : "REJECTED");
  return new PayError(code, `HTTP ${status}${providerCode ? ` ${providerCode}` : ""}`, { providerCode, status });
}

export type NotificationErrorCode =
  /** One of the Wechatpay-Timestamp/-Nonce/-Signature/-Serial headers is missing. */
  | "MISSING_HEADERS"
  /** The provider's deliberate bad signature (`WECHATPAY/SIGNTEST/…`): must be refused. */
  | "SIGNTEST_PROBE"
  /** Wechatpay-Serial is not the platform key we are configured with. */
  | "UNKNOWN_SERIAL"
  /** Wechatpay-Timestamp more than 5 minutes away from our clock. */
  | "STALE_TIMESTAMP"
  | "BAD_SIGNATURE"
  /** Verified, but not the documented JSON (or not an encrypted resource). */
  | "MALFORMED"
  /** AEAD_AES_256_GCM failed: wrong API v3 key or tampered ciphertext. */
  | "UNDECRYPTABLE"
  | "WRONG_MERCHANT"
  | "WRONG_APP"
  /** Verified and decrypted, but an event type this layer does not handle. */
  | "UNSUPPORTED_EVENT";

export class NotificationError extends Error {
  readonly code: NotificationErrorCode;
  /** The event type, when the body was read that far (for UNSUPPORTED_EVENT). */
  readonly eventType?: string;

  constructor(code: NotificationErrorCode, detail?: string, extra: { eventType?: string } = {}) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = "NotificationError";
    this.code = code;
    this.eventType = extra.eventType;
  }
}
