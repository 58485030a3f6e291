// Refunds (docs/architecture.md "Orders"): a paid order never becomes 'cancelled'. Cancelling a paid or
// assigned order starts a refund at once; a refund request (picking, delivering, completed;
// reason required) waits for an operator's approval (approveRefund / rejectRefund — the admin
// issue builds the queue on top of these). While the refund is processing the order keeps its
// status; the provider's confirmation (notification or query) makes it refunded.
//
// Each refund has its own out_refund_no ('E…R1', 'E…R2'): repeating a call with the same number
// can never refund twice. Provider calls happen after the transaction that recorded the intent.
import { canCustomer } from "~/lib/order-status";
import { db, now } from "../db/db.server";
import { log } from "../log.server";
import { PayError, paymentProvider, type RefundNotification, type RefundResult } from "../pay/provider.server";
import type { OrderRow } from "./events.server";
import type { NotifyVerdict } from "./payment.server";
import { findOwnOrder, reviewOf, stateOf, type ActionResult } from "./orders.server";
import {
  applyLatePayment,
  applyRefundApproved,
  applyRefundFailed,
  applyRefundRejected,
  applyRefundRequested,
  applyRefundStarted,
  applyRefunded,
} from "./transitions.server";


export type RefundRow = { id: number; order_id: number; out_refund_no: string; amount_fen: number; state: string; kind: string };

/**
 * A refund of the whole paid amount, at once: a customer or operator cancel of a paid order.
 * Returns the refund's id, or null when the order cannot start one now (not paid, a refund
 * already under way — a double tap).
 */
export async function startRefund(
  order: OrderRow,
  details: { reason: string | null; actor: "customer" | "operator"; operatorId?: number | null },
): Promise<number | null> {
  const at = now();
  const refundId = await db()
    .transaction()
    .execute((trx) => applyRefundStarted(trx, order, { by: details.actor, reason: details.reason, operatorId: details.operatorId, at }));
  if (refundId !== null) await executeRefund(refundId);
  return refundId;
}

/** The customer's refund request (reason required): waits for an operator. */
export async function requestRefund(userId: number, number: string, reason: string): Promise<ActionResult> {
  const order = await findOwnOrder(userId, number);
  if (!order) return { ok: false, reason: "not_found" };
  const reviewed = Boolean(await reviewOf(order.id));
  if (!canCustomer("refund", stateOf(order, { reviewed }))) return { ok: false, reason: "not_allowed" };
  const done = await db()
    .transaction()
    .execute((trx) => applyRefundRequested(trx, order, { reason, at: now() }));
  return done ? { ok: true, done: "refundRequested" } : { ok: false, reason: "not_allowed" };
}

export type RefundDecision = { ok: true; refundId: number; state: string } | { ok: false; reason: "not_found" | "not_requested" };

/**
 * An operator approves a waiting refund request: the refund starts through the provider now.
 * For the admin issue's queue: pending requests are `refunds` rows with state 'requested'.
 */
export async function approveRefund(refundId: number, operatorId: number): Promise<RefundDecision> {
  const outcome = await db()
    .transaction()
    .execute((trx) => applyRefundApproved(trx, refundId, { operatorId, at: now() }));
  if (outcome !== "ok") return { ok: false, reason: outcome };
  await executeRefund(refundId);
  const state = await db().selectFrom("refunds").select("state").where("id", "=", refundId).executeTakeFirstOrThrow();
  return { ok: true, refundId, state: state.state };
}

/** An operator turns a refund request down; the customer may ask again. */
export async function rejectRefund(refundId: number, operatorId: number, note: string | null = null): Promise<RefundDecision> {
  const outcome = await db()
    .transaction()
    .execute((trx) => applyRefundRejected(trx, refundId, { operatorId, note, at: now() }));
  return outcome === "ok" ? { ok: true, refundId, state: "rejected" } : { ok: false, reason: outcome };
}

/** Waiting refund requests, oldest first (the admin issue's queue reads this). */
export async function pendingRefundRequests(limit = 50) {
  return db()
    .selectFrom("refunds")
    .innerJoin("orders", "orders.id", "refunds.order_id")
    .select(["refunds.id", "refunds.reason", "refunds.amount_fen", "refunds.created_at", "orders.order_number", "orders.status", "orders.campus_code"])
    .where("refunds.state", "=", "requested")
    .orderBy("refunds.id")
    .limit(limit)
    .execute();
}

/** Sends a processing refund to the provider (again: the same out_refund_no is safe to repeat). */
export async function executeRefund(refundId: number) {
  const row = await db()
    .selectFrom("refunds")
    .innerJoin("orders", "orders.id", "refunds.order_id")
    .leftJoin("order_supplements", "order_supplements.out_trade_no", "refunds.out_trade_no")
    .select([
      "refunds.id",
      "refunds.out_refund_no",
      "refunds.amount_fen",
      "refunds.reason",
      "refunds.state",
      "orders.order_number",
      "orders.amount_fen as total_fen",
      "refunds.out_trade_no",
      "order_supplements.amount_fen as supplement_fen",
    ])
    .where("refunds.id", "=", refundId)
    .executeTakeFirst();
  if (!row || row.state !== "processing") return;
  // The trade refunded: the order's own, or its supplement's (decision 047).
  const trade = row.out_trade_no !== null ? { outTradeNo: row.out_trade_no, totalFen: row.supplement_fen ?? 0 } : { outTradeNo: row.order_number, totalFen: row.total_fen };
  const at = now();
  if (row.amount_fen === 0) {
    // A free order: nothing went through the provider.
    await db().transaction().execute((trx) => applyRefunded(trx, refundId, { actor: "system", at }));
    return;
  }
  const provider = paymentProvider();
  if (!provider) {
    log("error", "refund-no-provider", { refund: row.out_refund_no });
    return;
  }
  let result: RefundResult;
  try {
    result = await provider.refund({
      outTradeNo: trade.outTradeNo,
      outRefundNo: row.out_refund_no,
      refundFen: row.amount_fen,
      totalFen: trade.totalFen,
      reason: row.reason ?? undefined,
    });
  } catch (error) {
    if (error instanceof PayError && error.retryable) {
      log("warn", "refund-retry-later", { refund: row.out_refund_no, code: error.code });
      return;
    }
    const code = error instanceof PayError ? error.code : "INTERNAL";
    log("error", "refund-failed", { refund: row.out_refund_no, code, error: String(error) });
    await db().transaction().execute((trx) => applyRefundFailed(trx, refundId, { error: code, actor: "provider", at }));
    return;
  }
  await applyRefundResult(refundId, result);
}

async function applyRefundResult(refundId: number, result: RefundResult) {
  const at = now();
  if (result.status === "SUCCESS") {
    const order = await db()
      .transaction()
      .execute((trx) => applyRefunded(trx, refundId, { refundId: result.refundId, successTime: result.successTime, actor: "provider", at }));
    // An order refunded in full gives back its supplement too (queued by applyRefunded): sent now.
    if (order?.status === "refunded") {
      const queued = await db().selectFrom("refunds").select("id").where("order_id", "=", order.id).where("state", "=", "processing").where("out_trade_no", "is not", null).where("refund_id", "is", null).execute();
      for (const next of queued) await executeRefund(next.id);
    }
  } else if (result.status === "PROCESSING") {
    await db().updateTable("refunds").set({ refund_id: result.refundId ?? null, updated_at: at }).where("id", "=", refundId).execute();
  } else {
    await db().transaction().execute((trx) => applyRefundFailed(trx, refundId, { error: result.status, actor: "provider", at }));
  }
}

/** REFUND.SUCCESS / ABNORMAL / CLOSED from the pay API (verified by the provider layer). */
export async function handleRefundNotification(notification: RefundNotification): Promise<NotifyVerdict> {
  const refund = await db()
    .selectFrom("refunds")
    .innerJoin("orders", "orders.id", "refunds.order_id")
    .select(["refunds.id", "refunds.amount_fen", "orders.order_number", "refunds.out_trade_no"])
    .where("refunds.out_refund_no", "=", notification.outRefundNo)
    .executeTakeFirst();
  if (!refund) {
    log("warn", "refund-notify-unknown", { outRefundNo: notification.outRefundNo });
    return { ok: true };
  }
  if (notification.outTradeNo !== (refund.out_trade_no ?? refund.order_number) || notification.refundFen !== refund.amount_fen) {
    log("error", "refund-notify-mismatch", { refund: notification.outRefundNo });
    return { ok: false, reason: "amount_mismatch" };
  }
  await applyRefundResult(refund.id, {
    status: notification.refundStatus,
    refundId: notification.refundId,
    outRefundNo: notification.outRefundNo,
    successTime: notification.successTime,
  });
  return { ok: true };
}

/**
 * A payment arrived for an order that was closed meanwhile (the close never reached the
 * provider): the money is recorded and refunded at once; the order ends refunded.
 */
export async function startAutoRefund(order: OrderRow, details: { transactionId: string | null; payerOpenid: string | null; successTime?: string | null }) {
  const refundId = await db()
    .transaction()
    .execute((trx) => applyLatePayment(trx, order, { ...details, at: now() }));
  if (refundId !== null) await executeRefund(refundId);
}

/**
 * Refunds still processing a while after they started: ask the provider (the simulated one
 * sends no notifications; a lost notification is found here). An unknown refund is sent again
 * with the same number.
 */
export async function sweepRefunds(at = new Date(), olderThanMs = 2 * 60_000) {
  const provider = paymentProvider();
  if (!provider) return 0;
  const due = await db()
    .selectFrom("refunds")
    .select(["id", "out_refund_no", "amount_fen"])
    .where("state", "=", "processing")
    .where("updated_at", "<", new Date(at.getTime() - olderThanMs).toISOString())
    .orderBy("id")
    .limit(50)
    .execute();
  for (const refund of due) {
    try {
      const result = await provider.queryRefund(refund.out_refund_no);
      if (result.status === "PROCESSING") {
        await db().updateTable("refunds").set({ updated_at: now() }).where("id", "=", refund.id).execute();
      } else {
        await applyRefundResult(refund.id, result);
      }
    } catch (error) {
      if (error instanceof PayError && error.code === "NOT_FOUND") await executeRefund(refund.id);
      else log("warn", "refund-sweep", { refund: refund.out_refund_no, error: error instanceof PayError ? error.code : String(error) });
    }
  }
  return due.length;
}
