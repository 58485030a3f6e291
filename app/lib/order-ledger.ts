// The money invariants (decision 030), the pure part: where every fen an order received is now,
// and what may never be true of an order's money. The server's invariants module
// (app/server/orders/invariants.server.ts) reads the rows and applies these; the property tests
// check them after every step, and the daily ledger and the operators' summary are sums of
// `splitMoney`.
//
// I1  Every fen received is in exactly one state: held for a live order, refunded (fully or in
//     part), or earned by a delivered order — received = held + refunded + earned, each ≥ 0.
//     Money is held only while the order is live or a refund of it is on its way.
// I4  A soft-deleted order holds no money; the refunded status means refunded in full.
// I6  A refunded order is never shown as paid.
// S1  A size found wrong at pickup costs the difference between the real size's price now and the
//     unit price charged for the declared one (supplementFen); a supplement is a trade of its own.
// S2  A paid supplement is received money of its order (held, earned, refunded with it); when the
//     order is refunded in full, the supplement is refunded on its own trade.
// S3  A declined supplement leaves its parcel at the station, refunded as a missing parcel
//     (failedDeliveryRefundFen); it never holds money. The left parcel is no longer one to
//     deliver: a later 配送失败 is judged on the parcels still to deliver (deliveryFailureOf).
// S4  A supplement belongs to its parcel: when a 配送失败 covers that parcel (the whole order, every
//     parcel of its declared size, or the operator names it among the missing), the supplement is
//     refunded in full on its own trade — at once when paid, at once on arrival when paid later.
//     A supplement whose parcel was delivered is earned with it; only S2, S3's refunded order or
//     S4 ever refund one.
import { STATUS_TABLE, type OrderStatus, type PaymentStatus, type RefundState } from "./order-status";

export type LedgerOrder = {
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  refundState: RefundState | null;
  amountFen: number;
  /** When the payment was confirmed (null: never paid). */
  paidAt: string | null;
  deleted: boolean;
  /** A paid supplement (a size found wrong at pickup, its own trade): received on top of the amount. */
  supplementFen?: number;
};

/** `supplement`: a refund against the supplement's trade (it may still be on its way when the order is refunded). */
export type LedgerRefund = { amountFen: number; state: "requested" | "processing" | "succeeded" | "rejected" | "failed"; supplement?: boolean };

export type MoneySplit = {
  /** What the payer paid us (the order's amount once the payment was confirmed). */
  receivedFen: number;
  /** Refunds the provider confirmed. */
  refundedFen: number;
  /** Refunds on their way to the provider (still with us, counted in held). */
  refundingFen: number;
  /** Kept for parcels delivered: a completed order's received amount less its refunds (confirmed or on their way). */
  earnedFen: number;
  /** Still with us: the live order's money, or a refund not confirmed yet. */
  heldFen: number;
};

/** Was the payment confirmed (also a payment that arrived after the order closed, then refunded)? */
export function wasPaid(order: Pick<LedgerOrder, "paymentStatus" | "paidAt">) {
  return order.paidAt !== null && (order.paymentStatus === "paid" || order.paymentStatus === "refunded");
}

/** Where the order's money is now. */
export function splitMoney(order: LedgerOrder, refunds: readonly LedgerRefund[]): MoneySplit {
  const receivedFen = wasPaid(order) ? order.amountFen + (order.supplementFen ?? 0) : 0;
  const refundedFen = sum(refunds.filter((refund) => refund.state === "succeeded"));
  const refundingFen = sum(refunds.filter((refund) => refund.state === "processing"));
  const earnedFen = order.status === "completed" ? receivedFen - refundedFen - refundingFen : 0;
  return { receivedFen, refundedFen, refundingFen, earnedFen, heldFen: receivedFen - refundedFen - earnedFen };
}

/** What may still be refunded: received less the refunds confirmed or on their way. */
export function refundableFen(order: LedgerOrder, refunds: readonly LedgerRefund[]) {
  const split = splitMoney(order, refunds);
  return split.receivedFen - split.refundedFen - split.refundingFen;
}

function sum(refunds: readonly LedgerRefund[]) {
  return refunds.reduce((total, refund) => total + refund.amountFen, 0);
}

/** A live order: paid and the delivery still to come (paid … delivering). */
export function isLive(order: Pick<LedgerOrder, "status">) {
  return STATUS_TABLE[order.status].open && order.status !== "created";
}

/**
 * The invariants an order's money breaks, in words for a test's failure message (empty: none).
 * Checked after every step of the generated sequences.
 */
export function moneyViolations(order: LedgerOrder, refunds: readonly LedgerRefund[]): string[] {
  const split = splitMoney(order, refunds);
  const problems: string[] = [];
  const { receivedFen, refundedFen, refundingFen, earnedFen, heldFen } = split;
  if (refundedFen + refundingFen > receivedFen) problems.push(`I1: refunds ${refundedFen}+${refundingFen} exceed the ${receivedFen} received`);
  if (earnedFen < 0 || heldFen < 0) problems.push(`I1: negative share (earned ${earnedFen}, held ${heldFen})`);
  if (receivedFen !== heldFen + refundedFen + earnedFen) problems.push("I1: received ≠ held + refunded + earned");
  // Held money belongs to a live order, or to a refund on its way (or one that failed and is owed).
  const refundOwed = order.refundState === "processing" || order.refundState === "failed" || refundingFen > 0;
  if (heldFen > 0 && !isLive(order) && !refundOwed) problems.push(`I1: ${heldFen} held by a ${order.status} order that is neither live nor refunding`);
  // The order's own trade is refunded first; its supplement's refund follows and may be on its way.
  const supplementOnItsWay = sum(refunds.filter((refund) => refund.supplement === true && refund.state === "processing"));
  if (order.status === "refunded" && (refundedFen + supplementOnItsWay !== receivedFen || order.paymentStatus !== "refunded")) problems.push("I1: refunded status without a full refund");
  if (order.paymentStatus === "refunded" && refundedFen + supplementOnItsWay !== receivedFen) problems.push("I1: payment refunded but not in full");
  if (!wasPaid(order) && (refundedFen > 0 || refundingFen > 0)) problems.push("I1: a refund of money never received");
  if (order.status === "created" && order.paymentStatus !== "pending") problems.push("I1: an unpaid order whose payment is not pending");
  if (isLive(order) && order.paymentStatus !== "paid") problems.push(`I1: a ${order.status} order whose payment is ${order.paymentStatus}`);
  if (order.deleted && receivedFen - refundedFen !== 0) problems.push("I4: a deleted order holds money");
  if (order.deleted && order.status === "created") problems.push("I4: a deleted order may still be paid");
  return problems;
}

export type SizeCounts = Record<"pocket" | "small" | "medium" | "large", number>;

/**
 * A failed delivery (配送失败) refunds what was not delivered. The student keeps the coupon's
 * benefit on what was delivered: we keep the delivered parcels at the unit prices they were
 * charged, less the whole discount, never below zero; everything else goes back. Without unit
 * prices (orders placed before they were recorded) the amount is split by parcel count, rounded
 * in the student's favour. All parcels missing: the whole amount.
 */
export function failedDeliveryRefundFen(input: {
  amountFen: number;
  discountFen: number;
  counts: SizeCounts;
  missing: SizeCounts;
  unitPrices: Partial<SizeCounts> | null;
}): number {
  const sizes = Object.keys(input.counts) as (keyof SizeCounts)[];
  const delivered = Object.fromEntries(sizes.map((size) => [size, Math.max(0, input.counts[size] - Math.min(input.missing[size] ?? 0, input.counts[size]))])) as SizeCounts;
  const deliveredCount = sizes.reduce((total, size) => total + delivered[size], 0);
  const parcelCount = sizes.reduce((total, size) => total + input.counts[size], 0);
  if (deliveredCount === 0 || parcelCount === 0) return input.amountFen;
  let keptFen: number;
  const prices = input.unitPrices;
  if (prices && sizes.every((size) => input.counts[size] === 0 || typeof prices[size] === "number")) {
    keptFen = sizes.reduce((total, size) => total + delivered[size] * (prices[size] ?? 0), 0) - input.discountFen;
  } else {
    keptFen = Math.floor((input.amountFen * deliveredCount) / parcelCount);
  }
  keptFen = Math.min(input.amountFen, Math.max(0, keptFen));
  return input.amountFen - keptFen;
}

/**
 * S3 then 配送失败: a parcel left at the station (`left`, its declared size) is not deliverable. A
 * failure names its missing parcels among the deliverable ones only (null: all of them); it is
 * partial while some deliverable parcel arrives; its refund is what the missing parcels add to
 * the left one's refund, both by failedDeliveryRefundFen on the order's own counts, so the left
 * parcel is refunded once. Null: more missing than there are to deliver, or none.
 */
export function deliveryFailureOf(input: {
  amountFen: number;
  discountFen: number;
  counts: SizeCounts;
  left: keyof SizeCounts | null;
  missing: SizeCounts | null;
  unitPrices: Partial<SizeCounts> | null;
}): { deliverable: SizeCounts; missing: SizeCounts; partial: boolean; refundFen: number } | null {
  const deliverable = deliverableCounts(input.counts, input.left);
  const missing = input.missing ?? deliverable;
  const sizes = Object.keys(deliverable) as (keyof SizeCounts)[];
  if (sizes.some((size) => !Number.isInteger(missing[size]) || missing[size] < 0 || missing[size] > deliverable[size])) return null;
  const missingCount = sizes.reduce((total, size) => total + missing[size], 0);
  const deliverableCount = sizes.reduce((total, size) => total + deliverable[size], 0);
  if (missingCount === 0) return null;
  const none: SizeCounts = { pocket: 0, small: 0, medium: 0, large: 0 };
  const leftMissing = input.left ? { ...none, [input.left]: input.counts[input.left] - deliverable[input.left] } : none;
  const refundOf = (gone: SizeCounts) => failedDeliveryRefundFen({ amountFen: input.amountFen, discountFen: input.discountFen, counts: input.counts, missing: gone, unitPrices: input.unitPrices });
  const withLeft = Object.fromEntries(sizes.map((size) => [size, missing[size] + leftMissing[size]])) as SizeCounts;
  const leftFen = input.left ? refundOf(leftMissing) : 0;
  return { deliverable, missing, partial: missingCount < deliverableCount, refundFen: Math.max(0, refundOf(withLeft) - leftFen) };
}

/** The parcels still to deliver: the order's counts less the one left at the station (S3), if any. */
export function deliverableCounts(counts: SizeCounts, left: keyof SizeCounts | null): SizeCounts {
  if (!left || !(left in counts)) return { ...counts };
  return { ...counts, [left]: Math.max(0, counts[left] - 1) };
}

/**
 * S4: does a 配送失败 cover the supplemented parcel? `missing` counts parcels by the size they were
 * charged (the supplemented one under its declared size); `named`: the operator says it is among
 * them. Every parcel of its declared size missing (the whole order too) covers it whatever was
 * said; naming it when none of its size is missing is a contradiction (null).
 */
export function failureCoversSupplement(input: { counts: SizeCounts; missing: SizeCounts; declared: keyof SizeCounts; named: boolean }): boolean | null {
  const ofItsSize = input.missing[input.declared] ?? 0;
  if (ofItsSize >= input.counts[input.declared]) return true;
  if (input.named) return ofItsSize >= 1 ? true : null;
  return false;
}

/**
 * I2: the price version the order-confirm sheet carries: everything that makes up the charge —
 * each size's price, the counts, the coupon and its discount, the delivery fee (none today) and
 * the total. The pay intent recomputes it; any difference charges nothing and answers 价格已变化
 * with the new total. A plain string (the server compares it; nothing secret in it).
 */
export function priceVersion(input: {
  prices: readonly { type: string; priceFen: number }[];
  counts: Readonly<Record<string, number>>;
  couponId: number | null;
  discountFen: number;
  deliveryFeeFen?: number;
  amountFen: number;
}): string {
  const prices = [...input.prices].sort((a, b) => a.type.localeCompare(b.type)).map((type) => `${type.type}:${type.priceFen}x${input.counts[type.type] ?? 0}`);
  return [...prices, `c${input.couponId ?? "-"}:${input.discountFen}`, `d${input.deliveryFeeFen ?? 0}`, `t${input.amountFen}`].join("|");
}

/**
 * S1: a parcel found bigger at pickup than declared costs the difference between the campus's
 * price of the real size now and the unit price the order was charged for the declared size
 * (the declared size's price now for orders without stored unit prices). Only a dearer size
 * makes a supplement; null otherwise. The coupon's discount is not applied again: it was given
 * once, on the order.
 */
export function supplementFen(input: { declaredUnitFen: number; realPriceFen: number }): number | null {
  const difference = input.realPriceFen - input.declaredUnitFen;
  return Number.isSafeInteger(difference) && difference > 0 ? difference : null;
}
