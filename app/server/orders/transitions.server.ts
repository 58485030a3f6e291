// The order state machine: every change of an order's status, payment or refund — by the
// customer (cancel, refund request, review), an operator (courier steps, complete, cancel,
// refund decisions), a pay notification or poll, a refund's result, the 24-hour closer — is one
// of the functions here. Each runs inside the caller's transaction and is a conditional UPDATE
// whose WHERE is the transition's guard from the status table (transitionGuard in
// app/lib/order-status.ts) plus the status the caller read: when two callers race — five
// deliveries of the same pay notification, a notification after a cancel, a customer and an
// operator — exactly one changes the row and records the event and the messages (the
// notifications are queued from here only); the others change nothing and get null/false.
// Calls to the pay provider happen outside, before or after (cancel.server, refunds.server).
import type { ExpressionBuilder } from "kysely";
import { transitionGuard, type OrderStatus, type RefundState, type Transition } from "~/lib/order-status";
import { orders as ordersMessages } from "~/lib/messages/orders";
import type { Database } from "../db/schema";
import type { Executor } from "../db/db.server";
import { notifyOrder, recordEvent, type Actor, type OrderRow } from "./events.server";
import { consumeOrderCoupon, releaseOrderCoupon } from "../coupons/order-hook.server";
import { reserveDelivery } from "./slots.server";

/** The transition's guard as a WHERE on the orders row. */
function guardOf(transition: Transition) {
  const guard = transitionGuard(transition);
  return (eb: ExpressionBuilder<Database, "orders">) => {
    const parts = [eb("status", "in", [...guard.statuses]), eb("payment_status", "=", guard.paymentStatus)];
    if (guard.refundStates) {
      const states = guard.refundStates.filter((state): state is RefundState => state !== null);
      const refund = [...(guard.refundStates.includes(null) ? [eb("refund_state", "is", null)] : []), ...(states.length > 0 ? [eb("refund_state", "in", states)] : [])];
      parts.push(eb.or(refund));
    }
    return eb.and(parts);
  };
}

/**
 * The provider's time ("2026-11-28T20:00:00+08:00") as our ISO instant, so the daily ledger reads
 * payments and refunds by day with the provider's own clock (its trade bill's days); `fallback`
 * when it gave none or an unreadable one.
 */
export function instantOf(providerTime: string | null | undefined, fallback: string) {
  const parsed = providerTime ? Date.parse(providerTime) : Number.NaN;
  return Number.isNaN(parsed) ? fallback : new Date(parsed).toISOString();
}

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
    .where(guardOf({ kind: "pay" }))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  // I5: the delivery promise is made when the payment is confirmed, from the schedule as it is
  // then, in the first slot of the order's campus with room (a full slot moves it to the next).
  const { campus_code: campusCode } = await executor.selectFrom("orders").select("campus_code").where("id", "=", orderId).executeTakeFirstOrThrow();
  const estimate = await reserveDelivery(executor, campusCode, new Date(details.at));
  await executor.updateTable("orders").set({ estimated_delivery_at: estimate.at }).where("id", "=", orderId).execute();
  const order = await reload(executor, orderId);
  await executor
    .updateTable("payments")
    .set({
      state: "paid",
      transaction_id: details.transactionId ?? null,
      success_time: instantOf(details.successTime, details.at),
      payer_openid: details.payerOpenid ?? null,
      updated_at: details.at,
    })
    .where("order_id", "=", orderId)
    .execute();
  await recordEvent(executor, order, { type: "paid", from: "created", to: "paid", actor: details.actor, note: details.transactionId ?? null, at: details.at });
  await consumeOrderCoupon(executor, { id: order.id, couponId: order.coupon_id });
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
  const by = details.type === "closed" ? "system" : details.actor === "operator" ? "operator" : "customer";
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
    .where(guardOf({ kind: "close", by }))
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
  await releaseOrderCoupon(executor, { id: order.id, couponId: order.coupon_id });
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
  const refund = await executor.selectFrom("refunds").select(["order_id", "out_refund_no", "out_trade_no", "kind", "reason"]).where("id", "=", refundId).executeTakeFirst();
  if (!refund) return null;
  const updated = await executor
    .updateTable("refunds")
    .set({ state: "succeeded", refund_id: details.refundId ?? null, succeeded_at: instantOf(details.successTime, details.at), updated_at: details.at })
    .where("id", "=", refundId)
    .where("state", "=", "processing")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  const before = await reload(executor, refund.order_id);
  // A supplement's refund follows its order's: the order's status was settled by its own trade.
  if (refund.out_trade_no !== null) {
    // The last refund on its way (a failure that refunded only the supplement): settled.
    const pending = await executor.selectFrom("refunds").select("id").where("order_id", "=", refund.order_id).where("state", "=", "processing").executeTakeFirst();
    if (!pending && before.refund_state === "processing") await executor.updateTable("orders").set({ refund_state: "refunded", updated_at: details.at }).where("id", "=", refund.order_id).execute();
    await recordEvent(executor, before, { type: "refunded", from: before.status, to: before.status, actor: details.actor, note: refund.out_refund_no, at: details.at });
    return before;
  }
  if ((await refundableOf(executor, before)) > 0) {
    // A part (the missing parcels of a failed delivery): the order keeps its status and the rest.
    await executor.updateTable("orders").set({ refund_state: "refunded", updated_at: details.at }).where("id", "=", refund.order_id).execute();
    const order = await reload(executor, refund.order_id);
    await recordEvent(executor, order, { type: "refunded", from: before.status, to: before.status, actor: details.actor, note: refund.out_refund_no, at: details.at });
    await notifyOrder(executor, order, "refunded", details.at);
    return order;
  }
  await executor
    .updateTable("orders")
    .set({ status: "refunded", payment_status: "refunded", refund_state: "refunded", refunded_at: details.at, idempotency_key: null, updated_at: details.at })
    .where("id", "=", refund.order_id)
    .execute();
  await executor.updateTable("payments").set({ state: "refunded", updated_at: details.at }).where("order_id", "=", refund.order_id).execute();
  // S2: an order refunded in full gives back its paid supplement too, on the supplement's trade.
  await insertSupplementRefund(executor, before, { kind: refund.kind, reason: refund.reason, at: details.at });
  const order = await reload(executor, refund.order_id);
  await recordEvent(executor, order, { type: "refunded", from: before.status, to: "refunded", actor: details.actor, note: refund.out_refund_no, at: details.at });
  await releaseOrderCoupon(executor, { id: order.id, couponId: order.coupon_id });
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

/**
 * An operator moves a paid order on (assigned, picking, delivering, completed) from the status
 * it was read in, unless it was deleted or a refund got under way meanwhile. The customer's
 * message names the operator as the courier (DELIVERY_COMPLETED); it is recorded once per order
 * and status, so this is the only place that sends it.
 */
export async function applyStatus(
  executor: Executor,
  order: OrderRow,
  to: OrderStatus,
  details: { actor: Actor; operatorId?: number | null; courierLabel?: string | null; at: string },
): Promise<OrderRow | null> {
  const updated = await executor
    .updateTable("orders")
    .set({ status: to, ...(to === "completed" ? { completed_at: details.at } : {}), updated_at: details.at })
    .where("id", "=", order.id)
    .where("status", "=", order.status)
    .where("deleted_at", "is", null)
    .where(guardOf({ kind: "advance", to }))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  const changed = await reload(executor, order.id);
  await recordEvent(executor, changed, { type: to as "assigned" | "picking" | "delivering" | "completed", from: order.status, to, actor: details.actor, operatorId: details.operatorId, at: details.at });
  const notified = NOTIFIED[to];
  if (notified) await notifyOrder(executor, changed, notified, details.at, { courierLabel: details.courierLabel ?? undefined });
  return changed;
}

// ---------------------------------------------------------------------------------------------
// Refunds: each has its own row (out_refund_no 'E…R1', 'E…R2'); the order keeps its status while
// the refund is requested or processing, and becomes refunded on the provider's confirmation.

export type RefundKind = "cancel" | "request" | "auto" | "delivery_failed" | "parcel_left";

async function nextRefundNumber(executor: Executor, order: Pick<OrderRow, "id" | "order_number">) {
  const { count } = await executor
    .selectFrom("refunds")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("order_id", "=", order.id)
    .executeTakeFirstOrThrow();
  return `${order.order_number}R${Number(count) + 1}`;
}

/** What may still be refunded (I1): the paid amount less the refunds confirmed or on their way. */
export async function refundableOf(executor: Executor, order: Pick<OrderRow, "id" | "amount_fen">) {
  const { committed } = await executor
    .selectFrom("refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount_fen"), eb.val(0)).as("committed"))
    .where("order_id", "=", order.id)
    .where("state", "in", ["processing", "succeeded"])
    // The supplement's trade is refunded on its own (decision 047).
    .where("out_trade_no", "is", null)
    .executeTakeFirstOrThrow();
  return Math.max(0, order.amount_fen - Number(committed));
}

/**
 * The one insert of a refunds row: what is left of the paid amount (or `amountFen`, a part of it),
 * waiting (requested) or at once (processing).
 */
async function insertRefund(
  executor: Executor,
  order: Pick<OrderRow, "id" | "order_number" | "amount_fen">,
  refund: { kind: RefundKind; state: "requested" | "processing"; reason: string | null; operatorId?: number | null; at: string; amountFen?: number },
): Promise<number> {
  const amountFen = Math.min(refund.amountFen ?? Number.POSITIVE_INFINITY, await refundableOf(executor, order));
  const row = await executor
    .insertInto("refunds")
    .values({
      order_id: order.id,
      out_refund_no: await nextRefundNumber(executor, order),
      kind: refund.kind,
      amount_fen: amountFen,
      state: refund.state,
      reason: refund.reason,
      refund_id: null,
      operator_id: refund.operatorId ?? null,
      error: null,
      decided_at: refund.state === "processing" ? refund.at : null,
      succeeded_at: null,
      created_at: refund.at,
      updated_at: refund.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The refund of a paid supplement's whole remainder against its own trade (processing; the
 * caller sends it after the commit, or the refund sweep does). Null when there is none to give.
 */
export async function insertSupplementRefund(
  executor: Executor,
  order: Pick<OrderRow, "id" | "order_number">,
  details: { kind: RefundKind; reason: string | null; operatorId?: number | null; at: string },
): Promise<number | null> {
  const supplement = await executor.selectFrom("order_supplements").select(["out_trade_no", "amount_fen", "state"]).where("order_id", "=", order.id).executeTakeFirst();
  if (!supplement || supplement.state !== "paid") return null;
  const { committed } = await executor
    .selectFrom("refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount_fen"), eb.val(0)).as("committed"))
    .where("order_id", "=", order.id)
    .where("state", "in", ["processing", "succeeded"])
    .where("out_trade_no", "=", supplement.out_trade_no)
    .executeTakeFirstOrThrow();
  const amountFen = supplement.amount_fen - Number(committed);
  if (amountFen <= 0) return null;
  const row = await executor
    .insertInto("refunds")
    .values({
      order_id: order.id,
      out_refund_no: await nextRefundNumber(executor, order),
      out_trade_no: supplement.out_trade_no,
      kind: details.kind,
      amount_fen: amountFen,
      state: "processing",
      reason: details.reason,
      refund_id: null,
      operator_id: details.operatorId ?? null,
      error: null,
      decided_at: details.at,
      succeeded_at: null,
      created_at: details.at,
      updated_at: details.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The student declines a supplement (S3): the parcel stays at the station and is refunded at the
 * unit price it was charged, the coupon's benefit staying with the student (the rule of a missing
 * parcel, failedDeliveryRefundFen); the order goes on with its other parcels, or ends refunded
 * when it had only this one. Returns the refund's id to send after the commit (0: nothing to
 * refund), or null when the supplement or the order moved on meanwhile.
 */
export async function applySupplementDeclined(
  executor: Executor,
  order: OrderRow,
  details: { supplementId: number; refundFen: number; reason: string; at: string },
): Promise<number | null> {
  const declined = await executor
    .updateTable("order_supplements")
    .set({ state: "declined", decided_at: details.at, updated_at: details.at })
    .where("id", "=", details.supplementId)
    .where("state", "=", "offered")
    .executeTakeFirst();
  if (Number(declined.numUpdatedRows) !== 1) return null;
  const claimed = await executor
    .updateTable("orders")
    .set({ refund_state: details.refundFen > 0 ? "processing" : order.refund_state, refund_reason: details.reason, updated_at: details.at })
    .where("id", "=", order.id)
    .where("status", "=", order.status)
    .where("deleted_at", "is", null)
    .where("payment_status", "=", "paid")
    .where((eb) => eb.or([eb("refund_state", "is", null), eb("refund_state", "not in", ["processing", "requested"])]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new SupplementRace();
  await recordEvent(executor, order, { type: "supplement_declined", actor: "customer", note: details.reason, at: details.at });
  if (details.refundFen <= 0) return 0;
  return insertRefund(executor, order, { kind: "parcel_left", state: "processing", reason: details.reason, at: details.at, amountFen: details.refundFen });
}

/** The order moved on while its supplement was declined: the transaction rolls back. */
export class SupplementRace extends Error {}

/**
 * A paid order is cancelled (customer: paid, assigned; operator: also picking): a refund starts
 * at once. Returns the refund's id (to send to the provider after the commit), or null when the
 * order moved on or a refund is already under way (a double tap, the other side's cancel).
 */
export async function applyRefundStarted(
  executor: Executor,
  order: OrderRow,
  details: { by: "customer" | "operator"; reason: string | null; operatorId?: number | null; at: string },
): Promise<number | null> {
  const claimed = await executor
    .updateTable("orders")
    .set({ refund_state: "processing", refund_reason: details.reason, updated_at: details.at })
    .where("id", "=", order.id)
    .where("status", "=", order.status)
    .where(guardOf({ kind: "cancel_refund", by: details.by }))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  const refundId = await insertRefund(executor, order, { kind: "cancel", state: "processing", reason: details.reason, operatorId: details.operatorId, at: details.at });
  await recordEvent(executor, order, { type: "refund_started", actor: details.by, operatorId: details.operatorId, note: details.reason, at: details.at });
  return refundId;
}

/**
 * 配送失败 (I4): the delivery of an order in 配送中 failed, with the operator's reason. All parcels
 * missing: the whole amount is refunded at once (the order ends refunded on the provider's
 * confirmation). Some missing: the delivered ones complete the order and the missing ones are
 * refunded at once (failedDeliveryRefundFen). `supplementMissing` (S4, failureCoversSupplement):
 * the supplemented parcel is among the missing: marked so, and its paid supplement is refunded in
 * full on its own trade. Returns the refunds' ids to send after the commit (the order's first;
 * empty when nothing is left to refund), or null when the order moved on or a refund is under way.
 */
export async function applyDeliveryFailed(
  executor: Executor,
  order: OrderRow,
  details: { reason: string; refundFen: number; partial: boolean; supplementMissing: boolean; operatorId: number; courierLabel?: string | null; at: string },
): Promise<number[] | null> {
  const supplement = details.supplementMissing
    ? await executor.selectFrom("order_supplements").select(["id", "state", "amount_fen"]).where("order_id", "=", order.id).where("state", "in", ["offered", "paid"]).executeTakeFirst()
    : undefined;
  const refundsSupplement = supplement?.state === "paid";
  const claimed = await executor
    .updateTable("orders")
    .set({
      ...(details.partial ? { status: "completed" as const, completed_at: details.at } : {}),
      refund_state: details.refundFen > 0 || refundsSupplement ? "processing" : order.refund_state,
      refund_reason: details.reason,
      updated_at: details.at,
    })
    .where("id", "=", order.id)
    .where("status", "=", order.status)
    .where("deleted_at", "is", null)
    .where(guardOf({ kind: "fail_delivery" }))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  const changed = await reload(executor, order.id);
  await recordEvent(executor, changed, {
    type: "delivery_failed",
    from: order.status,
    to: changed.status,
    actor: "operator",
    operatorId: details.operatorId,
    note: details.reason,
    at: details.at,
  });
  if (details.partial) await notifyOrder(executor, changed, "completed", details.at, { courierLabel: details.courierLabel ?? undefined });
  const ids: number[] = [];
  if (details.refundFen > 0) {
    ids.push(
      await insertRefund(executor, order, {
        kind: "delivery_failed",
        state: "processing",
        reason: details.reason,
        operatorId: details.operatorId,
        at: details.at,
        amountFen: details.refundFen,
      }),
    );
  }
  if (supplement) {
    // S4: the parcel was not delivered, so neither was what its supplement paid for. An offered
    // one is only marked: a payment that still arrives is refunded at once (markSupplementPaid).
    await executor.updateTable("order_supplements").set({ missing_at: details.at, updated_at: details.at }).where("id", "=", supplement.id).execute();
    const supplementRefund = await insertSupplementRefund(executor, order, { kind: "delivery_failed", reason: details.reason, operatorId: details.operatorId, at: details.at });
    if (supplementRefund !== null) ids.push(supplementRefund);
  }
  return ids;
}

/** The customer's refund request (picking, delivering, completed; reason required): it waits for an operator. */
export async function applyRefundRequested(executor: Executor, order: OrderRow, details: { reason: string; at: string }): Promise<boolean> {
  const claimed = await executor
    .updateTable("orders")
    .set({ refund_state: "requested", refund_reason: details.reason, updated_at: details.at })
    .where("id", "=", order.id)
    .where("status", "=", order.status)
    .where(guardOf({ kind: "refund_request" }))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  await insertRefund(executor, order, { kind: "request", state: "requested", reason: details.reason, at: details.at });
  await recordEvent(executor, order, { type: "refund_requested", actor: "customer", note: details.reason, at: details.at });
  return true;
}

export type RefundDecisionOutcome = "ok" | "not_found" | "not_requested";

/** An operator approves a waiting request: it is processing now (the caller sends it to the provider). */
export async function applyRefundApproved(executor: Executor, refundId: number, details: { operatorId: number; at: string }): Promise<RefundDecisionOutcome> {
  const refund = await executor.selectFrom("refunds").select(["id", "order_id"]).where("id", "=", refundId).executeTakeFirst();
  if (!refund) return "not_found";
  const claimed = await executor
    .updateTable("refunds")
    .set({ state: "processing", operator_id: details.operatorId, decided_at: details.at, updated_at: details.at })
    .where("id", "=", refundId)
    .where("state", "=", "requested")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return "not_requested";
  await executor.updateTable("orders").set({ refund_state: "processing", updated_at: details.at }).where("id", "=", refund.order_id).execute();
  await recordEvent(executor, { id: refund.order_id }, { type: "refund_approved", actor: "operator", operatorId: details.operatorId, at: details.at });
  return "ok";
}

/** An operator turns a waiting request down, with a note the customer reads; the customer may ask again. */
export async function applyRefundRejected(
  executor: Executor,
  refundId: number,
  details: { operatorId: number; note: string | null; at: string },
): Promise<RefundDecisionOutcome> {
  const refund = await executor.selectFrom("refunds").select(["id", "order_id"]).where("id", "=", refundId).executeTakeFirst();
  if (!refund) return "not_found";
  const claimed = await executor
    .updateTable("refunds")
    .set({ state: "rejected", operator_id: details.operatorId, decided_at: details.at, error: details.note, updated_at: details.at })
    .where("id", "=", refundId)
    .where("state", "=", "requested")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return "not_requested";
  await executor.updateTable("orders").set({ refund_state: "rejected", updated_at: details.at }).where("id", "=", refund.order_id).execute();
  await recordEvent(executor, { id: refund.order_id }, { type: "refund_rejected", actor: "operator", operatorId: details.operatorId, note: details.note, at: details.at });
  return "ok";
}

/**
 * A payment arrived for an order that was closed meanwhile (the close never reached the
 * provider): the money is recorded and a refund starts at once; the order stays cancelled and
 * ends refunded. Returns the refund's id, or null when this call did not make the change.
 */
export async function applyLatePayment(
  executor: Executor,
  order: OrderRow,
  details: { transactionId: string | null; payerOpenid: string | null; successTime?: string | null; at: string },
): Promise<number | null> {
  const reason = ordersMessages.autoRefund;
  const claimed = await executor
    .updateTable("orders")
    .set({ payment_status: "paid", paid_at: details.at, refund_state: "processing", refund_reason: reason, updated_at: details.at })
    .where("id", "=", order.id)
    .where(guardOf({ kind: "late_pay" }))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  await executor
    .updateTable("payments")
    .set({ state: "paid", transaction_id: details.transactionId, payer_openid: details.payerOpenid, success_time: instantOf(details.successTime, details.at), updated_at: details.at })
    .where("order_id", "=", order.id)
    .execute();
  const refundId = await insertRefund(executor, order, { kind: "auto", state: "processing", reason, at: details.at });
  await recordEvent(executor, order, { type: "paid", from: "cancelled", to: "cancelled", actor: "provider", note: details.transactionId, at: details.at });
  await recordEvent(executor, order, { type: "refund_started", actor: "system", note: reason, at: details.at });
  return refundId;
}

// ---------------------------------------------------------------------------------------------
// Reviews

/** The customer reviews a completed order, once (the reviews row's unique order id decides a race). */
export async function applyReviewed(
  executor: Executor,
  order: OrderRow,
  details: { userId: number; rating: number; comment: string; at: string },
): Promise<boolean> {
  const guard = transitionGuard({ kind: "review" });
  if (!guard.statuses.includes(order.status) || order.payment_status !== guard.paymentStatus) return false;
  const row = await executor
    .insertInto("reviews")
    .values({ order_id: order.id, user_id: details.userId, rating: details.rating, comment: details.comment || null, created_at: details.at })
    .onConflict((oc) => oc.column("order_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (row) await recordEvent(executor, order, { type: "reviewed", actor: "customer", note: String(details.rating), at: details.at });
  return Boolean(row);
}
