// The operators' exceptions on a delivery, the pure part: why a delivery failed (配送失败) and
// what the student reads as its reason. The money of a failure is `failedDeliveryRefundFen` in
// ./order-ledger; this module only names the cause.
import { REASON_MAX } from "./order-limits";

/** The causes an operator picks from; `other` needs the operator's own words. */
export const FAILURE_REASONS = ["station_closed", "parcel_not_found", "recipient_unreachable", "parcel_missing", "other"] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export function isFailureReason(value: unknown): value is FailureReason {
  return typeof value === "string" && (FAILURE_REASONS as readonly string[]).includes(value);
}

/**
 * The reason the student reads: the cause's label, then the operator's note after a colon.
 * Null when there is nothing to say (no cause and no note, or `other` without a note): the form
 * then asks for the reason.
 */
export function failureReasonText(code: FailureReason | null, note: string, labels: Record<FailureReason, string>): string | null {
  const words = note.trim().replace(/\s+/g, " ");
  if (!code || code === "other") return words ? words.slice(0, REASON_MAX) : null;
  return (words ? `${labels[code]}：${words}` : labels[code]).slice(0, REASON_MAX);
}
