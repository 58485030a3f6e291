// The price of an order: computed here, once, from the campus config on the server — never from
// a total the client sent. Order creation is the only caller; the market sheet shows the same
// numbers through priceOf (app/lib/package-counts). The discount is the coupon side's
// (app/server/coupons/order-hook.server.ts), which the order layer also calls to reserve, use and
// release the coupon at creation, payment, and cancel/close/refund.
import { priceOf, type PackageCounts, type PricedType } from "~/lib/package-counts";
import { orderCouponDiscount } from "../coupons/order-hook.server";
import type { Executor } from "../db/db.server";

export type PriceInput = {
  userId: number;
  counts: PackageCounts;
  /** The campus's package types with their prices in fen (campusConfig / loadExpressConfig). */
  types: PricedType[];
  /** The coupon the customer chose on the sheet; undefined: the sheet's choice (else the best); null: none. */
  couponId?: number | null;
};

export type OrderPrice = {
  /** Σ count × price. */
  originalFen: number;
  discountFen: number;
  /** max(0, original − discount): what the customer pays. */
  amountFen: number;
  couponId: number | null;
};

/**
 * The order's prices, in fen. The discount follows docs/architecture.md "Coupon maths": one coupon
 * per order, on one parcel of the most expensive type, never more than the original price.
 */
export async function priceOrder(executor: Executor, input: PriceInput): Promise<OrderPrice> {
  const originalFen = priceOf(input.counts, input.types);
  const discount = input.couponId === null ? { discountFen: 0, couponId: null } : await orderCouponDiscount(executor, input);
  const discountFen = Math.min(originalFen, Math.max(0, Math.floor(discount.discountFen)));
  return { originalFen, discountFen, amountFen: Math.max(0, originalFen - discountFen), couponId: discount.couponId };
}
