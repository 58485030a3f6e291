// The coupon side of an order (docs/architecture.md "Coupon maths"), called by the order layer
// (app/server/orders/pricing.server.ts, orders.server.ts, transitions.server.ts) inside the order's
// own transactions:
// - at creation: the discount of the best coupon (or the student's choice, or none), then the
//   coupon reserved by the new order — a conditional UPDATE (… WHERE status = 'unused'), so of two
//   orders racing for one coupon exactly one gets it (PostgreSQL also locks the user's usable
//   coupons while quoting, so the other quotes without it instead of failing);
// - when paid: the reserved coupon is used (and the sheet's choice forgotten);
// - when cancelled, closed or refunded: the coupon comes back if it is still valid.
import type { PackageCounts, PricedType } from "~/lib/package-counts";
import { log } from "../log.server";
import type { Executor } from "../db/db.server";
import { quoteFor } from "./wallet.server";

export class CouponUnavailableError extends Error {
  constructor(couponId: number) {
    super(`coupon ${couponId} is no longer available`);
    this.name = "CouponUnavailableError";
  }
}

/** The discount of an order being created. `couponId`: undefined → the sheet's choice (else the best); null → none. */
export async function orderCouponDiscount(
  executor: Executor,
  input: { userId: number; counts: PackageCounts; types: PricedType[]; couponId?: number | null },
): Promise<{ discountFen: number; couponId: number | null }> {
  const quote = await quoteFor(input.userId, input.counts, input.types, {
    executor,
    choice: input.couponId === undefined ? "stored" : input.couponId,
    lock: true,
  });
  return { discountFen: quote.discountFen, couponId: quote.coupon?.id ?? null };
}

/** The order row exists: its coupon becomes reserved by it, or the creation fails (throws). */
export async function reserveOrderCoupon(executor: Executor, order: { id: number; couponId: number | null; userId: number }) {
  if (order.couponId === null) return;
  const at = new Date().toISOString();
  const result = await executor
    .updateTable("user_coupons")
    .set({ status: "reserved", order_id: order.id, updated_at: at })
    .where("id", "=", order.couponId)
    .where("user_id", "=", order.userId)
    .where("status", "=", "unused")
    .where("expires_at", ">", at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new CouponUnavailableError(order.couponId);
}

/** The order was paid: its coupon is used. The sheet's coupon choice was for this order: forgotten. */
export async function consumeOrderCoupon(executor: Executor, order: { id: number; couponId: number | null }) {
  const at = new Date().toISOString();
  if (order.couponId !== null) {
    const result = await executor
      .updateTable("user_coupons")
      .set({ status: "used", used_at: at, updated_at: at })
      .where("order_id", "=", order.id)
      .where("status", "=", "reserved")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) log("warn", "coupon-consume-missing", { orderId: order.id, couponId: order.couponId });
  }
  const owner = await executor.selectFrom("orders").select("user_id").where("id", "=", order.id).executeTakeFirst();
  if (owner?.user_id) await executor.deleteFrom("coupon_choices").where("user_id", "=", owner.user_id).execute();
}

/** The order was cancelled, closed or refunded: its coupon comes back when still valid (an expired one stays spent). */
export async function releaseOrderCoupon(executor: Executor, order: { id: number; couponId: number | null }) {
  if (order.couponId === null) return;
  const at = new Date().toISOString();
  await executor
    .updateTable("user_coupons")
    .set({ status: "unused", order_id: null, used_at: null, updated_at: at })
    .where("order_id", "=", order.id)
    .where("status", "in", ["reserved", "used"])
    .where("expires_at", ">", at)
    .execute();
}
