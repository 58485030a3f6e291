// What an operator does to orders: the courier steps (assign, pick up, deliver), complete, cancel,
// delete, and the decisions on refund requests. Each checks the one status table
// (adminActions / canAdvance in app/lib/order-status.ts) and writes the audit log.
//
// The orders issue's functions do the status changes that need the pay provider (cancel: close
// an unpaid order or refund a paid one; approve: refund) and the courier steps. Two things are
// done here instead:
//   - complete, because its DELIVERY_COMPLETED message names the operator as the courier and the
//     orders issue's applyStatus sends the order's messages without a courier label (the message
//     is recorded once per order and status, so it must be sent with the label the first time);
//   - delete, a soft delete this issue adds (0009_admin).
import { orderAddress } from "~/lib/address";
import { COURIER_STEPS, type CourierStep } from "~/lib/admin-orders";
import { adminOrderData } from "~/lib/messages/adminOrderData";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { STATUS_TABLE, adminActions, canAdvance } from "~/lib/order-status";
import { deliveryText } from "~/lib/orders";
import type { Operator } from "../auth/operator.server";
import { db, now } from "../db/db.server";
import { notify } from "../notify/notify.server";
import { advanceOrder, cancelOrderByOperator } from "../orders/cancel.server";
import { recordEvent, type OrderRow } from "../orders/events.server";
import { approveRefund, rejectRefund } from "../orders/refunds.server";
import { recordAudit } from "./audit.server";
import { findLiveOrder, stateOfRow } from "./orders.server";

const m = adminOrderData;
const o = ordersMessages;

/** A refunds row's state in the audit's words. */
function refundStateText(state: string) {
  if (state === "succeeded") return o.refundState.refunded;
  return state in o.refundState ? o.refundState[state as keyof typeof o.refundState] : state;
}

export type DoneNotice = keyof typeof m.done;
export type AdminResult = { ok: true; done: DoneNotice } | { ok: false; message: string; status: number };

type Failure = keyof typeof m.failures;

function fail(action: "complete" | "cancel" | "delete" | "advance" | "approve" | "reject", reason: Failure, status: number): AdminResult {
  return { ok: false, message: `${m.failures[action]}：${m.failures[reason]}`, status };
}

function statusChange(from: OrderRow["status"], to: OrderRow["status"]) {
  return `${STATUS_TABLE[from].label} → ${STATUS_TABLE[to].label}`;
}

export type OrderIntent = "complete" | "cancel" | "delete" | CourierStep;

export async function runOrderAction(operator: Operator, input: { intent: OrderIntent; order: string; reason?: string | null }): Promise<AdminResult> {
  const failureOf = input.intent === "complete" || input.intent === "cancel" || input.intent === "delete" ? input.intent : "advance";
  const order = await findLiveOrder(input.order);
  if (!order) return fail(failureOf, "notFound", 404);
  switch (input.intent) {
    case "complete":
      return completeOrder(operator, order);
    case "cancel":
      return cancelOrder(operator, order, input.reason?.trim() || null);
    case "delete":
      return deleteOrder(operator, order);
    default:
      return advance(operator, order, input.intent);
  }
}

// ---------------------------------------------------------------------------------------------
// Complete

/**
 * Any in-progress status → completed, once: the conditional UPDATE lets one of two racing
 * operators through. The status change, its event, the customer's DELIVERY_COMPLETED message
 * (through notify, with this operator's display name as the courier) and the audit row commit
 * together.
 */
async function completeOrder(operator: Operator, order: OrderRow): Promise<AdminResult> {
  if (!adminActions(stateOfRow(order)).includes("complete")) return fail("complete", "notAllowed", 409);
  const at = now();
  const done = await db()
    .transaction()
    .execute(async (trx) => {
      const updated = await trx
        .updateTable("orders")
        .set({ status: "completed", completed_at: at, updated_at: at })
        .where("id", "=", order.id)
        .where("status", "=", order.status)
        .where("payment_status", "=", "paid")
        .where("deleted_at", "is", null)
        .where((eb) => eb.or([eb("refund_state", "is", null), eb("refund_state", "not in", ["requested", "processing"])]))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      const changed = await trx.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
      await recordEvent(trx, changed, { type: "completed", from: order.status, to: "completed", actor: "operator", operatorId: operator.id, at });
      if (changed.user_id !== null) {
        await notify(
          {
            kind: "order_status",
            recipientUserId: changed.user_id,
            data: {
              status: "completed",
              orderNumber: changed.order_number,
              amountFen: changed.amount_fen,
              parcelCount: changed.parcel_count,
              campusName: changed.campus_name,
              dorm: changed.recipient_dorm ?? "",
              room: changed.recipient_room ?? "",
              address: orderAddress(changed),
              at,
              estimatedDelivery: deliveryText(changed.estimated_delivery_at, new Date(at)),
              courierLabel: operator.display_name,
            },
          },
          { executor: trx, now: new Date(at) },
        );
      }
      await recordAudit(trx, operator, { action: "complete", order: changed, detail: statusChange(order.status, "completed"), at });
      return true;
    });
  return done ? { ok: true, done: "completed" } : fail("complete", "notAllowed", 409);
}

// ---------------------------------------------------------------------------------------------
// Courier steps

async function advance(operator: Operator, order: OrderRow, to: CourierStep): Promise<AdminResult> {
  if (!(COURIER_STEPS as readonly string[]).includes(to) || !canAdvance(stateOfRow(order), to)) return fail("advance", "notAllowed", 409);
  const result = await advanceOrder(order.order_number, to, operator.id);
  if (!result.ok) return fail("advance", result.reason === "not_found" ? "notFound" : "notAllowed", result.reason === "not_found" ? 404 : 409);
  await recordAudit(db(), operator, { action: to, order, detail: statusChange(order.status, to) });
  return { ok: true, done: to };
}

// ---------------------------------------------------------------------------------------------
// Cancel

/**
 * Pending payment → cancelled (closed at the provider first). Paid, assigned or picking → a refund
 * through the provider at once; the order stays in its status while the refund is processing
 * and ends 'refund succeeded' on the provider's confirmation (the simulated provider confirms at
 * once). A paid order is never 'cancelled'.
 */
async function cancelOrder(operator: Operator, order: OrderRow, reason: string | null): Promise<AdminResult> {
  if (!adminActions(stateOfRow(order)).includes("cancel")) return fail("cancel", "notAllowed", 409);
  const result = await cancelOrderByOperator(order.order_number, operator.id, reason);
  if (!result.ok) {
    if (result.reason === "provider") return fail("cancel", "provider", 502);
    return fail("cancel", result.reason === "not_found" ? "notFound" : "notAllowed", result.reason === "not_found" ? 404 : 409);
  }
  const after = result.order;
  const refund = after.status !== "cancelled";
  const detail = [statusChange(order.status, after.status), after.refund_state && after.status !== "refunded" ? refundStateText(after.refund_state) : null, reason]
    .filter(Boolean)
    .join("；");
  await recordAudit(db(), operator, { action: refund ? "cancel_refund" : "cancel", order, detail });
  if (!refund) return { ok: true, done: "cancelled" };
  if (after.status === "refunded") return { ok: true, done: "refunded" };
  if (after.refund_state === "failed") return fail("cancel", "provider", 502);
  return { ok: true, done: "refunding" };
}

// ---------------------------------------------------------------------------------------------
// Delete

/** Any order: hidden from the admin pages and exports, kept (with its payments and events). */
async function deleteOrder(operator: Operator, order: OrderRow): Promise<AdminResult> {
  if (!adminActions(stateOfRow(order)).includes("delete")) return fail("delete", "notAllowed", 409);
  const at = now();
  const done = await db()
    .transaction()
    .execute(async (trx) => {
      const updated = await trx
        .updateTable("orders")
        .set({ deleted_at: at, deleted_by: operator.id })
        .where("id", "=", order.id)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      await recordAudit(trx, operator, { action: "delete", order, detail: STATUS_TABLE[order.status].label, at });
      return true;
    });
  return done ? { ok: true, done: "deleted" } : fail("delete", "notFound", 404);
}

// ---------------------------------------------------------------------------------------------
// Refund requests

export type RefundQueueItem = {
  id: number;
  orderNumber: string;
  amountFen: number;
  reason: string | null;
  createdAt: string;
  statusLabel: string;
  campusName: string;
};

/** Waiting refund requests, oldest first (refunds_state_idx: state, updated_at). */
export async function refundQueue(limit = 50): Promise<RefundQueueItem[]> {
  const rows = await db()
    .selectFrom("refunds")
    .innerJoin("orders", "orders.id", "refunds.order_id")
    .select([
      "refunds.id",
      "refunds.amount_fen",
      "refunds.reason",
      "refunds.created_at",
      "orders.order_number",
      "orders.status",
      "orders.campus_name",
    ])
    .where("refunds.state", "=", "requested")
    .orderBy("refunds.updated_at")
    .orderBy("refunds.id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    orderNumber: row.order_number,
    amountFen: row.amount_fen,
    reason: row.reason,
    createdAt: row.created_at,
    statusLabel: STATUS_TABLE[row.status].label,
    campusName: row.campus_name,
  }));
}

async function refundOrder(refundId: number) {
  return db()
    .selectFrom("refunds")
    .innerJoin("orders", "orders.id", "refunds.order_id")
    .select(["orders.id", "orders.order_number"])
    .where("refunds.id", "=", refundId)
    .executeTakeFirst();
}

/** Approve: the refund goes to the provider now; the order becomes refunded on its confirmation. */
export async function approveRefundRequest(operator: Operator, refundId: number): Promise<AdminResult> {
  const order = await refundOrder(refundId);
  if (!order) return fail("approve", "notFound", 404);
  const result = await approveRefund(refundId, operator.id);
  if (!result.ok) return fail("approve", result.reason === "not_found" ? "notFound" : "refundNotPending", result.reason === "not_found" ? 404 : 409);
  await recordAudit(db(), operator, { action: "refund_approve", order, refundId, detail: refundStateText(result.state) });
  if (result.state === "succeeded") return { ok: true, done: "approved" };
  if (result.state === "failed") return fail("approve", "provider", 502);
  return { ok: true, done: "approving" };
}

/** Reject with a reason the customer reads on the order page; the customer may ask again. */
export async function rejectRefundRequest(operator: Operator, refundId: number, reason: string): Promise<AdminResult> {
  const order = await refundOrder(refundId);
  if (!order) return fail("reject", "notFound", 404);
  const result = await rejectRefund(refundId, operator.id, reason);
  if (!result.ok) return fail("reject", result.reason === "not_found" ? "notFound" : "refundNotPending", result.reason === "not_found" ? 404 : 409);
  await recordAudit(db(), operator, { action: "refund_reject", order, refundId, detail: reason });
  return { ok: true, done: "rejected" };
}
