// The price of an order: computed here, once, from the campus config on the server — never from
// a total the client sent. Order creation is the only caller; the market sheet shows the same
// numbers through priceOf (app/lib/package-counts).
//
// THE COUPON HOOK. The coupon issue plugs its discount in at `orderDiscount` below (and nowhere
// else): given the user, the counts and the priced types it answers the discount in fen and the
// coupon it used; `reserveCoupon`, `consumeCoupon` and `releaseCoupon` are called by the order
// layer at creation (same transaction as the order row), payment, and cancel/close/refund.
// The coupon issue's side lives in app/server/coupons/order-hook.server.ts.
import { priceOf, type PackageCounts, type PricedType } from "~/lib/package-counts";
import { consumeOrderCoupon, orderCouponDiscount, releaseOrderCoupon, reserveOrderCoupon } from "../coupons/order-hook.server";
import type { Executor } from "../db/db.server";

export type PriceInput = {
  userId: number;
  counts: PackageCounts;
  /** The campus's package types with their prices in fen (campusConfig / loadExpressConfig). */
  types: PricedType[];
  /** The coupon the customer chose on the sheet; undefined: the best one; null: none. */
  couponId?: number | null;
};

export type OrderDiscount = {
  discountFen: number;
  couponId: number | null;
};

export type OrderPrice = {
  /** Σ count × price. */
  originalFen: number;
  discountFen: number;
  /** max(0, original − discount): what the customer pays. */
  amountFen: number;
  couponId: number | null;
};

export const NO_DISCOUNT: OrderDiscount = { discountFen: 0, couponId: null };

/**
 * The discount of this order (the coupon issue replaces the body). Rules it must follow
 * (docs/architecture.md "Coupon maths"): one coupon per order, on one parcel of the most expensive type
 * in the order, min_amount compared with `originalFen`, integer fen rounded in the student's favour.
 */
async function orderDiscount(executor: Executor, input: PriceInput & { originalFen: number }): Promise<OrderDiscount> {
  // The coupon issue (app/server/coupons/order-hook.server.ts): the sheet's choice when the caller names none.
  return orderCouponDiscount(executor, { userId: input.userId, counts: input.counts, types: input.types, couponId: input.couponId });
}

/** The order's prices, in fen. */
export async function priceOrder(executor: Executor, input: PriceInput): Promise<OrderPrice> {
  const originalFen = priceOf(input.counts, input.types);
  const discount = input.couponId === null ? NO_DISCOUNT : await orderDiscount(executor, { ...input, originalFen });
  const discountFen = Math.min(originalFen, Math.max(0, Math.floor(discount.discountFen)));
  return { originalFen, discountFen, amountFen: Math.max(0, originalFen - discountFen), couponId: discount.couponId };
}

/** The order row exists (same transaction): mark its coupon reserved by it. Throw to abort creation. */
export async function reserveCoupon(executor: Executor, order: { id: number; couponId: number | null; userId: number }): Promise<void> {
  await reserveOrderCoupon(executor, order);
}

/** The order was paid: its reserved coupon is used. */
export async function consumeCoupon(executor: Executor, order: { id: number; couponId: number | null }): Promise<void> {
  await consumeOrderCoupon(executor, order);
}

/** The order was cancelled, closed or refunded: its coupon comes back if still valid. */
export async function releaseCoupon(executor: Executor, order: { id: number; couponId: number | null }): Promise<void> {
  await releaseOrderCoupon(executor, order);
}
