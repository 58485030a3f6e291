// What an operator does to orders: the courier steps (assign, pick up, deliver), complete, cancel,
// delete, and the decisions on refund requests. Every status change goes through the order
// state machine (app/server/orders/transitions.server.ts, guards from the status table); this
// module adds the operator's side: the audit row (in the same transaction where the change is
// local), the refusal reasons, and the soft delete (0009_admin), which is not a status change.
import { COURIER_STEPS, type CourierStep } from "~/lib/admin-orders";
import { adminOrderData } from "~/lib/messages/adminOrderData";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { isAdminRole } from "~/lib/operator-roles";
import { STATUS_TABLE, adminActions, canAdvance, holdsNoMoney } from "~/lib/order-status";
import type { Operator } from "../auth/operator.server";
import { db, now } from "../db/db.server";
import type { SizeCounts } from "~/lib/order-ledger";
import { cancelOrderByOperator, failDelivery } from "../orders/cancel.server";
import type { OrderRow } from "../orders/events.server";
import { approveRefund, rejectRefund } from "../orders/refunds.server";
import { applyStatus } from "../orders/transitions.server";
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
/** Which operator step was refused: the route names it in the message ("取消订单失败：…"). */
export type AdminAction = "complete" | "cancel" | "fail" | "delete" | "advance" | "approve" | "reject";
export type AdminRefusal = "not_found" | "not_allowed" | "provider_failed" | "reason_required" | "admin_only" | "holds_money" | "refund_not_pending";
export type AdminResult = { ok: true; done: DoneNotice } | { ok: false; action: AdminAction; reason: AdminRefusal };

function fail(action: AdminAction, reason: AdminRefusal): AdminResult {
  return { ok: false, action, reason };
}

function statusChange(from: OrderRow["status"], to: OrderRow["status"]) {
  return `${STATUS_TABLE[from].label} → ${STATUS_TABLE[to].label}`;
}

export type OrderIntent = "complete" | "cancel" | "fail" | "delete" | CourierStep;

export async function runOrderAction(
  operator: Operator,
  input: { intent: OrderIntent; order: string; reason?: string | null; missing?: Partial<SizeCounts> | null; supplementMissing?: boolean },
): Promise<AdminResult> {
  const failureOf = input.intent === "complete" || input.intent === "cancel" || input.intent === "delete" || input.intent === "fail" ? input.intent : "advance";
  const order = await findLiveOrder(input.order);
  if (!order) return fail(failureOf, "not_found");
  switch (input.intent) {
    case "complete":
      return completeOrder(operator, order);
    case "cancel":
      return cancelOrder(operator, order, input.reason?.trim() || null);
    case "delete":
      return deleteOrder(operator, order);
    case "fail":
      return failedDelivery(operator, order, input.reason?.trim() ?? "", input.missing ?? null, input.supplementMissing === true);
    default:
      return advance(operator, order, input.intent);
  }
}

// ---------------------------------------------------------------------------------------------
// Complete and the courier steps

/**
 * Any in-progress status → completed, or a courier step, once: the state machine's conditional
 * UPDATE lets one of two racing operators through. The status change, its event, the customer's
 * message (DELIVERY_COMPLETED names this operator as the courier) and the audit row commit together.
 */
async function completeOrder(operator: Operator, order: OrderRow): Promise<AdminResult> {
  return move(operator, order, "completed");
}

async function advance(operator: Operator, order: OrderRow, to: CourierStep): Promise<AdminResult> {
  if (!(COURIER_STEPS as readonly string[]).includes(to)) return fail("advance", "not_allowed");
  return move(operator, order, to);
}

async function move(operator: Operator, order: OrderRow, to: CourierStep | "completed"): Promise<AdminResult> {
  const failure = to === "completed" ? "complete" : "advance";
  if (!canAdvance(stateOfRow(order), to)) return fail(failure, "not_allowed");
  const at = now();
  const changed = await db()
    .transaction()
    .execute(async (trx) => {
      const changed = await applyStatus(trx, order, to, { actor: "operator", operatorId: operator.id, courierLabel: operator.display_name, at });
      if (changed) await recordAudit(trx, operator, { action: to === "completed" ? "complete" : to, order: changed, detail: statusChange(order.status, to), at });
      return changed;
    });
  if (!changed) return fail(failure, "not_allowed");
  return { ok: true, done: to === "completed" ? "completed" : to };
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
  if (!adminActions(stateOfRow(order)).includes("cancel")) return fail("cancel", "not_allowed");
  const result = await cancelOrderByOperator(order.order_number, operator.id, reason);
  if (!result.ok) {
    if (result.reason === "provider") return fail("cancel", "provider_failed");
    return fail("cancel", result.reason === "not_found" ? "not_found" : "not_allowed");
  }
  const after = result.order;
  const refund = after.status !== "cancelled";
  const detail = [statusChange(order.status, after.status), after.refund_state && after.status !== "refunded" ? refundStateText(after.refund_state) : null, reason]
    .filter(Boolean)
    .join("；");
  await recordAudit(db(), operator, { action: refund ? "cancel_refund" : "cancel", order, detail });
  if (!refund) return { ok: true, done: "cancelled" };
  if (after.status === "refunded") return { ok: true, done: "refunded" };
  if (after.refund_state === "failed") return fail("cancel", "provider_failed");
  return { ok: true, done: "refunding" };
}

// ---------------------------------------------------------------------------------------------
// 配送失败

/** A delivery that failed in 配送中: the missing parcels (all, when none is named) are refunded at once. */
async function failedDelivery(operator: Operator, order: OrderRow, reason: string, missing: Partial<SizeCounts> | null, supplementMissing: boolean): Promise<AdminResult> {
  if (!reason) return fail("fail", "reason_required");
  if (!adminActions(stateOfRow(order)).includes("fail")) return fail("fail", "not_allowed");
  const result = await failDelivery(order.order_number, { id: operator.id, label: operator.display_name }, { reason, missing, supplementMissing });
  if (!result.ok) return fail("fail", result.reason === "not_found" ? "not_found" : "not_allowed");
  const after = result.order;
  await recordAudit(db(), operator, { action: "delivery_failed", order, detail: [statusChange(order.status, after.status), reason].join("；") });
  if (after.refund_state === "failed") return fail("fail", "provider_failed");
  return { ok: true, done: after.refund_state === "processing" ? "failing" : "failed" };
}

// ---------------------------------------------------------------------------------------------
// Delete

/**
 * I4: only an admin, and only an order holding no money (cancelled unpaid, or refunded in full):
 * hidden from the admin pages and exports, kept (with its payments and events). The UPDATE
 * repeats the rule, so a payment or refund that lands meanwhile keeps the order visible.
 */
async function deleteOrder(operator: Operator, order: OrderRow): Promise<AdminResult> {
  if (!isAdminRole(operator.role)) return fail("delete", "admin_only");
  if (!holdsNoMoney(stateOfRow(order))) return fail("delete", "holds_money");
  const at = now();
  const done = await db()
    .transaction()
    .execute(async (trx) => {
      const updated = await trx
        .updateTable("orders")
        .set({ deleted_at: at, deleted_by: operator.id })
        .where("id", "=", order.id)
        .where("deleted_at", "is", null)
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "cancelled"), eb("payment_status", "=", "closed"), eb.or([eb("refund_state", "is", null), eb("refund_state", "not in", ["requested", "processing"])])]),
            eb.and([eb("status", "=", "refunded"), eb("payment_status", "=", "refunded")]),
          ]),
        )
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      await recordAudit(trx, operator, { action: "delete", order, detail: STATUS_TABLE[order.status].label, at });
      return true;
    });
  return done ? { ok: true, done: "deleted" } : fail("delete", "holds_money");
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
  if (!order) return fail("approve", "not_found");
  const result = await approveRefund(refundId, operator.id);
  if (!result.ok) return fail("approve", result.reason === "not_found" ? "not_found" : "refund_not_pending");
  await recordAudit(db(), operator, { action: "refund_approve", order, refundId, detail: refundStateText(result.state) });
  if (result.state === "succeeded") return { ok: true, done: "approved" };
  if (result.state === "failed") return fail("approve", "provider_failed");
  return { ok: true, done: "approving" };
}

/** Reject with a reason the customer reads on the order page; the customer may ask again. */
export async function rejectRefundRequest(operator: Operator, refundId: number, reason: string): Promise<AdminResult> {
  const order = await refundOrder(refundId);
  if (!order) return fail("reject", "not_found");
  const result = await rejectRefund(refundId, operator.id, reason);
  if (!result.ok) return fail("reject", result.reason === "not_found" ? "not_found" : "refund_not_pending");
  await recordAudit(db(), operator, { action: "refund_reject", order, refundId, detail: reason });
  return { ok: true, done: "rejected" };
}
