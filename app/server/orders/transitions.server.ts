// The state changes of an order, each inside the caller's transaction and each guarded by a
// conditional UPDATE (… WHERE status = <expected>): when two callers race — five deliveries of
// the same pay notification, a notification and a status poll, a cancel and the closer — exactly
// one of them changes the row and records the event and the messages; the others change nothing.
import type { OrderStatus } from "~/lib/order-status";
import type { Executor } from "../notify/outbox.server";
import { notifyOrder, recordEvent, type Actor, type OrderRow } from "./events.server";
import { consumeCoupon, releaseCoupon } from "./pricing.server";

async function reload(executor: Executor, id: number): Promise<OrderRow> {
  return executor.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** "u12:c3:v7" — the user, the checkout and its version (the idempotency key of creation). */
export function checkoutIdempotencyKey(userId: number, checkoutId: number, version: number) {
  return `u${userId}:c${checkoutId}:v${version}`;
}

function parseCheckoutKey(key: string | null) {
  const match = key ? /^u(\d+):c(\d+):v(\d+)$/.exec(key) : null;
  return match ? { checkoutId: Number(match[2]), version: Number(match[3]) } : null;
}

export type PaidDetails = { transactionId?: string | null; successTime?: string | null; payerOpenid?: string | null; actor: Actor; at: string };

/**
 * created + pending → paid. Returns the paid order, or null when this call did not make the
 * change (already paid, cancelled…). The checkout it was made from is emptied if unchanged since.
 */
export async function applyPaid(executor: Executor, orderId: number, details: PaidDetails): Promise<OrderRow | null> {
  const updated = await executor
    .updateTable("orders")
    .set({ status: "paid", payment_status: "paid", paid_at: details.at, updated_at: details.at })
    .where("id", "=", orderId)
    .where("status", "=", "created")
    .where("payment_status", "=", "pending")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  const order = await reload(executor, orderId);
  await executor
    .updateTable("payments")
    .set({
      state: "paid",
      transaction_id: details.transactionId ?? null,
      success_time: details.successTime ?? null,
      payer_openid: details.payerOpenid ?? null,
      updated_at: details.at,
    })
    .where("order_id", "=", orderId)
    .execute();
  await recordEvent(executor, order, { type: "paid", from: "created", to: "paid", actor: details.actor, note: details.transactionId ?? null, at: details.at });
  await consumeCoupon(executor, { id: order.id, couponId: order.coupon_id });
  await notifyOrder(executor, order, "paid", details.at);
  const checkout = parseCheckoutKey(order.checkout_key);
  if (checkout) {
    await executor
      .updateTable("checkouts")
      .set({ sms_text: "", entries: "[]", counts: "{}", remark: "", version: checkout.version + 1, updated_at: details.at })
      .where("id", "=", checkout.checkoutId)
      .where("version", "=", checkout.version)
      .execute();
  }
  return order;
}

/**
 * An unpaid order ends: 'cancelled' (the customer or an operator) or 'closed' (24 hours without
 * payment). Its status becomes cancelled, payment closed, its coupon comes back and its checkout
 * may order again. Null when this call did not make the change.
 */
export async function applyClosed(
  executor: Executor,
  orderId: number,
  details: { type: "cancelled" | "closed"; actor: Actor; operatorId?: number | null; reason?: string | null; at: string },
): Promise<OrderRow | null> {
  const updated = await executor
    .updateTable("orders")
    .set({
      status: "cancelled",
      payment_status: "closed",
      cancel_reason: details.reason ?? null,
      cancelled_at: details.at,
      idempotency_key: null,
      updated_at: details.at,
    })
    .where("id", "=", orderId)
    .where("status", "=", "created")
    .where("payment_status", "=", "pending")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  const order = await reload(executor, orderId);
  await executor.updateTable("payments").set({ state: "closed", updated_at: details.at }).where("order_id", "=", orderId).where("state", "=", "created").execute();
  await recordEvent(executor, order, {
    type: details.type,
    from: "created",
    to: "cancelled",
    actor: details.actor,
    operatorId: details.operatorId,
    note: details.reason,
    at: details.at,
  });
  await releaseCoupon(executor, { id: order.id, couponId: order.coupon_id });
  await notifyOrder(executor, order, "cancelled", details.at);
  return order;
}

/**
 * The refund succeeded: the order becomes refunded with payment refunded; its coupon comes back
 * if still valid. Null when the refund was not processing (a repeated notification).
 */
export async function applyRefunded(
  executor: Executor,
  refundId: number,
  details: { refundId?: string | null; successTime?: string | null; actor: Actor; at: string },
): Promise<OrderRow | null> {
  const refund = await executor.selectFrom("refunds").select(["order_id", "out_refund_no"]).where("id", "=", refundId).executeTakeFirst();
  if (!refund) return null;
  const updated = await executor
    .updateTable("refunds")
    .set({ state: "succeeded", refund_id: details.refundId ?? null, succeeded_at: details.successTime ?? details.at, updated_at: details.at })
    .where("id", "=", refundId)
    .where("state", "=", "processing")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  const before = await reload(executor, refund.order_id);
  await executor
    .updateTable("orders")
    .set({ status: "refunded", payment_status: "refunded", refund_state: "refunded", refunded_at: details.at, idempotency_key: null, updated_at: details.at })
    .where("id", "=", refund.order_id)
    .execute();
  await executor.updateTable("payments").set({ state: "refunded", updated_at: details.at }).where("order_id", "=", refund.order_id).execute();
  const order = await reload(executor, refund.order_id);
  await recordEvent(executor, order, { type: "refunded", from: before.status, to: "refunded", actor: details.actor, note: refund.out_refund_no, at: details.at });
  await releaseCoupon(executor, { id: order.id, couponId: order.coupon_id });
  await notifyOrder(executor, order, "refunded", details.at);
  return order;
}

/** The refund did not go through (the provider refused it, ABNORMAL, CLOSED): the order may try again. */
export async function applyRefundFailed(executor: Executor, refundId: number, details: { error: string; actor: Actor; at: string }) {
  const refund = await executor.selectFrom("refunds").select(["order_id"]).where("id", "=", refundId).executeTakeFirst();
  if (!refund) return false;
  const updated = await executor
    .updateTable("refunds")
    .set({ state: "failed", error: details.error.slice(0, 200), updated_at: details.at })
    .where("id", "=", refundId)
    .where("state", "=", "processing")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return false;
  await executor
    .updateTable("orders")
    .set({ refund_state: "failed", updated_at: details.at })
    .where("id", "=", refund.order_id)
    .where("refund_state", "=", "processing")
    .execute();
  await recordEvent(executor, { id: refund.order_id }, { type: "refund_failed", actor: details.actor, note: details.error.slice(0, 200), at: details.at });
  return true;
}

const NOTIFIED: Partial<Record<OrderStatus, "assigned" | "delivering" | "completed">> = {
  assigned: "assigned",
  delivering: "delivering",
  completed: "completed",
};

/** An operator moves a paid order on (assigned, picking, delivering, completed). */
export async function applyStatus(
  executor: Executor,
  order: OrderRow,
  to: OrderStatus,
  details: { actor: Actor; operatorId?: number | null; at: string },
): Promise<OrderRow | null> {
  const updated = await executor
    .updateTable("orders")
    .set({ status: to, ...(to === "completed" ? { completed_at: details.at } : {}), updated_at: details.at })
    .where("id", "=", order.id)
    .where("status", "=", order.status)
    .where("payment_status", "=", "paid")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  const changed = await reload(executor, order.id);
  await recordEvent(executor, changed, { type: to as "assigned" | "picking" | "delivering" | "completed", from: order.status, to, actor: details.actor, operatorId: details.operatorId, at: details.at });
  const notified = NOTIFIED[to];
  if (notified) await notifyOrder(executor, changed, notified, details.at);
  return changed;
}
