// The input rules both providers apply before anything is sent (the pay API's own limits), so a
// mistake of ours fails as INVALID_INPUT here instead of as a provider error later.
import { PayError } from "./errors.server";
import type { CreateJsapiInput, RefundInput } from "./provider.server";

const OUT_TRADE_NO = /^[A-Za-z0-9_\-|*]{6,32}$/;
const OUT_REFUND_NO = /^[A-Za-z0-9_\-|*@]{1,64}$/;

export function checkCreateInput(input: CreateJsapiInput) {
  if (!OUT_TRADE_NO.test(input.outTradeNo)) throw new PayError("INVALID_INPUT", "outTradeNo must be 6–32 of [A-Za-z0-9_-|*]");
  if (!Number.isSafeInteger(input.amountFen) || input.amountFen < 1) throw new PayError("INVALID_INPUT", "amountFen must be a positive integer");
  if (!input.description.trim() || Buffer.byteLength(input.description, "utf8") > 127) throw new PayError("INVALID_INPUT", "description must be 1–127 bytes");
  if (!input.openid.trim()) throw new PayError("INVALID_INPUT", "openid is required");
  if (input.expiresAt && Number.isNaN(input.expiresAt.getTime())) throw new PayError("INVALID_INPUT", "expiresAt is not a date");
}

export function checkOutTradeNo(outTradeNo: string) {
  if (!OUT_TRADE_NO.test(outTradeNo)) throw new PayError("INVALID_INPUT", "outTradeNo must be 6–32 of [A-Za-z0-9_-|*]");
}

export function checkOutRefundNo(outRefundNo: string) {
  if (!OUT_REFUND_NO.test(outRefundNo)) throw new PayError("INVALID_INPUT", "outRefundNo must be 1–64 of [A-Za-z0-9_-|*@]");
}

export function checkRefundInput(input: RefundInput) {
  checkOutTradeNo(input.outTradeNo);
  checkOutRefundNo(input.outRefundNo);
  if (!Number.isSafeInteger(input.totalFen) || input.totalFen < 1) throw new PayError("INVALID_INPUT", "totalFen must be a positive integer");
  if (!Number.isSafeInteger(input.refundFen) || input.refundFen < 1 || input.refundFen > input.totalFen) {
    throw new PayError("INVALID_INPUT", "refundFen must be a positive integer not above totalFen");
  }
}

/** time_expire as the API wants it: RFC 3339 in Beijing time, "2025-01-02T03:04:05+08:00" (lib/time). */
export { rfc3339Shanghai } from "~/lib/time";

/** At most `bytes` bytes of UTF-8, cut at a character boundary (a customer's refund reason may be long). */
export function truncateUtf8(text: string, bytes: number): string {
  let out = "";
  let used = 0;
  for (const char of text) {
    used += Buffer.byteLength(char, "utf8");
    if (used > bytes) break;
    out += char;
  }
  return out;
}

export const REFUND_REASON_MAX_BYTES = 80;
