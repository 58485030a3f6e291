// Ending and moving orders: the customer's cancel, the 24-hour closer of unpaid orders, and the
// operator's complete / cancel / progress (the admin issue's buttons call these).
//
// An unpaid order is closed at the provider first (so it can no longer be paid), then cancelled
// here; when the provider says it was paid meanwhile, it is marked paid instead (and a cancel
// goes on as the cancel of a paid order: a refund at once).
import { orders as ordersMessages } from "~/lib/messages/orders";
import { STATUS_TABLE, adminActions, canAdvance, canCustomer, type OrderStatus } from "~/lib/order-status";
import { db, now } from "../db/db.server";
import { log } from "../log.server";
import { PayError, paymentProvider } from "../pay/provider.server";
import type { Actor, OrderRow } from "./events.server";
import { findOrder, findOwnOrder, reviewOf, stateOf, type ActionResult } from "./orders.server";
import { refreshPayment } from "./payment.server";
import { executeRefund, startRefund } from "./refunds.server";
import { applyClosed, applyDeliveryFailed, applyStatus } from "./transitions.server";
import { deliveryFailureOf, failureCoversSupplement, type SizeCounts } from "~/lib/order-ledger";
import { unitPricesOf } from "./order-prices.server";

const msg = { orders: ordersMessages };

type CloseOutcome = "closed" | "paid" | "failed" | "unchanged";

/** Closes an unpaid order at the provider, then here. */
export async function closeUnpaid(
  order: OrderRow,
  details: { type: "cancelled" | "closed"; actor: Actor; operatorId?: number | null; reason?: string | null },
): Promise<CloseOutcome> {
  const payment = await db().selectFrom("payments").select(["out_trade_no"]).where("order_id", "=", order.id).executeTakeFirst();
  if (payment) {
    const provider = paymentProvider();
    if (!provider) return "failed";
    try {
      await provider.close(payment.out_trade_no);
    } catch (error) {
      const code = error instanceof PayError ? error.code : null;
      if (code === "ORDER_PAID") {
        const state = await refreshPayment(order, provider);
        return state.paid ? "paid" : "failed";
      }
      if (code !== "NOT_FOUND" && code !== "ORDER_CLOSED") {
        log("warn", "order-close", { order: order.order_number, error: code ?? String(error) });
        return "failed";
      }
    }
  }
  const closed = await db()
    .transaction()
    .execute((trx) => applyClosed(trx, order.id, { ...details, at: now() }));
  if (closed) await closeLateTrade(order);
  return closed ? "closed" : "unchanged";
}

/**
 * A pay call that was on its way while this order closed may have made a trade after our close
 * reached the provider (or before we saw its payments row): closed once more, so nothing can be
 * paid for a cancelled order. A payment that still slips through is refunded (applyLatePayment).
 */
async function closeLateTrade(order: OrderRow) {
  const payment = await db().selectFrom("payments").select(["out_trade_no"]).where("order_id", "=", order.id).executeTakeFirst();
  if (!payment) return;
  const provider = paymentProvider();
  await provider?.close(payment.out_trade_no).catch((error: unknown) => {
    const code = error instanceof PayError ? error.code : String(error);
    if (code !== "NOT_FOUND" && code !== "ORDER_CLOSED") log("warn", "order-close-again", { order: order.order_number, error: code });
  });
}

/** The customer's cancel (reason optional): unpaid → cancelled; paid or assigned → a refund at once. */
export async function cancelOrder(userId: number, number: string, reason: string): Promise<ActionResult> {
  let order = await findOwnOrder(userId, number);
  if (!order) return { ok: false, reason: "not_found" };
  const reviewed = Boolean(await reviewOf(order.id));
  if (!canCustomer("cancel", stateOf(order, { reviewed }))) return { ok: false, reason: "not_allowed" };
  const cleanReason = reason.trim() || null;

  if (STATUS_TABLE[order.status].cancel === "close") {
    const outcome = await closeUnpaid(order, { type: "cancelled", actor: "customer", reason: cleanReason });
    if (outcome === "closed") return { ok: true, done: "cancelled" };
    if (outcome !== "paid") return { ok: false, reason: outcome === "failed" ? "provider_failed" : "conflict" };
    // Paid meanwhile: the customer still wants out, so it is the cancel of a paid order.
    order = (await findOwnOrder(userId, number))!;
  }
  const refundId = await startRefund(order, { reason: cleanReason, actor: "customer" });
  if (refundId === null) return { ok: false, reason: "conflict" };
  return { ok: true, done: "cancelRefund" };
}

// ---------------------------------------------------------------------------------------------
// The closer

/** Every unpaid order older than its 24 hours is closed (at the provider, then here). */
export async function closeExpiredOrders(at = new Date()) {
  const due = await db()
    .selectFrom("orders")
    .selectAll()
    .where("status", "=", "created")
    .where("payment_status", "=", "pending")
    .where("expires_at", "<=", at.toISOString())
    .orderBy("id")
    .limit(100)
    .execute();
  let closed = 0;
  for (const order of due) {
    const outcome = await closeUnpaid(order, { type: "closed", actor: "system", reason: msg.orders.closedAuto });
    if (outcome === "closed") closed += 1;
  }
  if (closed > 0) log("info", "orders-closed", { count: closed });
  return closed;
}

// ---------------------------------------------------------------------------------------------
// Operators (the admin issue builds the pages; these are the rules)

export type OperatorResult = { ok: true; order: OrderRow } | { ok: false; reason: "not_found" | "not_allowed" | "provider" };

async function orderForOperator(number: string) {
  return findOrder(number);
}

/** Assign, pick up, deliver or complete a paid order (the table's `next`). */
export async function advanceOrder(number: string, to: OrderStatus, operatorId: number): Promise<OperatorResult> {
  const order = await orderForOperator(number);
  if (!order) return { ok: false, reason: "not_found" };
  if (!canAdvance(stateOf(order), to)) return { ok: false, reason: "not_allowed" };
  const changed = await db()
    .transaction()
    .execute((trx) => applyStatus(trx, order, to, { actor: "operator", operatorId, at: now() }));
  return changed ? { ok: true, order: changed } : { ok: false, reason: "not_allowed" };
}

export type DeliveryFailure = {
  reason: string;
  /** The parcels not delivered, by the size each was charged (a supplemented one under its declared size); null: none of them was. */
  missing: Partial<SizeCounts> | null;
  /** The supplemented parcel is among the missing (S4; implied when every parcel of its declared size is). */
  supplementMissing?: boolean;
};

/**
 * 配送失败 (I4): an order in 配送中 whose delivery failed, with the operator's reason. Nothing
 * delivered: the whole amount is refunded and the order ends refunded. Some parcels missing: the
 * rest completes the order and the missing ones are refunded at once; a parcel left at the
 * station counts neither as missing nor as delivered (deliveryFailureOf).
 */
export async function failDelivery(number: string, operator: { id: number; label?: string | null }, failure: DeliveryFailure): Promise<OperatorResult> {
  const order = await orderForOperator(number);
  if (!order) return { ok: false, reason: "not_found" };
  if (!adminActions(stateOf(order)).includes("fail")) return { ok: false, reason: "not_allowed" };
  const counts = sizeCounts(order.package_counts);
  // The order's supplement: a declined one left its parcel at the station (S3), an offered or paid
  // one follows its parcel (S4).
  const supplement = await db().selectFrom("order_supplements").select(["declared_size", "state"]).where("order_id", "=", order.id).where("state", "!=", "void").executeTakeFirst();
  const declared = supplement && (SIZE_KEYS as readonly string[]).includes(supplement.declared_size) ? (supplement.declared_size as keyof SizeCounts) : null;
  const judged = deliveryFailureOf({
    amountFen: order.amount_fen,
    discountFen: order.discount_fen,
    counts,
    left: supplement?.state === "declined" ? declared : null,
    missing: failure.missing ? { ...emptySizeCounts(), ...failure.missing } : null,
    unitPrices: unitPricesOf(order),
  });
  if (!judged) return { ok: false, reason: "not_allowed" };
  const { partial, refundFen } = judged;
  // S4: the supplemented parcel, when there is one still to be delivered, is covered or not.
  const follows = declared !== null && (supplement?.state === "offered" || supplement?.state === "paid");
  const covers = follows ? failureCoversSupplement({ counts: judged.deliverable, missing: judged.missing, declared, named: failure.supplementMissing === true }) : false;
  if (covers === null) return { ok: false, reason: "not_allowed" };
  const refundIds = await db()
    .transaction()
    .execute((trx) =>
      applyDeliveryFailed(trx, order, { reason: failure.reason, refundFen, partial, supplementMissing: covers, operatorId: operator.id, courierLabel: operator.label, at: now() }),
    );
  if (refundIds === null) return { ok: false, reason: "not_allowed" };
  for (const refundId of refundIds) await executeRefund(refundId);
  return { ok: true, order: (await findOrder(number))! };
}

const SIZE_KEYS = ["pocket", "small", "medium", "large"] as const;

function emptySizeCounts(): SizeCounts {
  return { pocket: 0, small: 0, medium: 0, large: 0 };
}

function sizeCounts(text: string): SizeCounts {
  const counts = emptySizeCounts();
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    for (const size of SIZE_KEYS) counts[size] = Math.max(0, Math.trunc(Number(value?.[size] ?? 0)) || 0);
  } catch {
    // An unreadable row counts nothing: the refund is then the whole amount.
  }
  return counts;
}

/** Admin cancel: an unpaid order is cancelled; paid, assigned or picking starts a refund at once. */
export async function cancelOrderByOperator(number: string, operatorId: number, reason: string | null = null): Promise<OperatorResult> {
  const order = await orderForOperator(number);
  if (!order) return { ok: false, reason: "not_found" };
  if (!adminActions(stateOf(order)).includes("cancel")) return { ok: false, reason: "not_allowed" };
  if (order.status === "created") {
    const outcome = await closeUnpaid(order, { type: "cancelled", actor: "operator", operatorId, reason });
    if (outcome === "failed") return { ok: false, reason: "provider" };
    if (outcome !== "closed") return { ok: false, reason: "not_allowed" };
  } else {
    const refundId = await startRefund(order, { reason, actor: "operator", operatorId });
    if (refundId === null) return { ok: false, reason: "not_allowed" };
  }
  return { ok: true, order: (await findOrder(number))! };
}
