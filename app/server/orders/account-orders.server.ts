// A student's orders when the account is to be deleted (decision 030, I1): no deletion leaves
// money on an order that loses its recipient. Before the account is marked, each open order is
// settled through the state table: an unpaid one is cancelled, a paid one that may still be
// cancelled (paid, assigned) is refunded at once, and one being picked up or delivered is
// delivered first — the deletion job waits until no order of the person holds money.
import { STATUS_TABLE, canTransition } from "~/lib/order-status";
import { db } from "../db/db.server";
import { cancelOrder } from "./cancel.server";
import { LIVE_ORDER_STATUSES, stateOf } from "./orders.server";

export type OpenOrder = { orderNumber: string; status: string; label: string; settle: "cancel" | "refund" | "wait" };

/** What account deletion does with each open order of the person (the dialog names them). */
export async function openOrdersOf(userId: number): Promise<OpenOrder[]> {
  const rows = await db()
    .selectFrom("orders")
    .selectAll()
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("status", "in", LIVE_ORDER_STATUSES), eb("refund_state", "in", ["requested", "processing"])]))
    .orderBy("id", "desc")
    .execute();
  return rows.map((order) => {
    const state = stateOf(order);
    const settle = canTransition({ kind: "close", by: "customer" }, state) ? "cancel" : canTransition({ kind: "cancel_refund", by: "customer" }, state) ? "refund" : "wait";
    return { orderNumber: order.order_number, status: order.status, label: STATUS_TABLE[order.status].label, settle };
  });
}

/** Settles what can be settled now (cancel the unpaid, refund the cancellable); answers what is left waiting. */
export async function settleOrdersForDeletion(userId: number): Promise<{ settled: OpenOrder[]; waiting: OpenOrder[] }> {
  const open = await openOrdersOf(userId);
  const settled: OpenOrder[] = [];
  for (const order of open.filter((item) => item.settle !== "wait")) {
    const result = await cancelOrder(userId, order.orderNumber, "");
    if (result.ok) settled.push(order);
  }
  return { settled, waiting: await openOrdersOf(userId) };
}

/**
 * Does an order of the person still hold money (paid and not delivered, or a refund on its way)?
 * The deletion job leaves such an account for a later run.
 */
export async function ordersHoldingMoney(userId: number): Promise<boolean> {
  const row = await db()
    .selectFrom("orders")
    .select("id")
    .where("user_id", "=", userId)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "in", LIVE_ORDER_STATUSES), eb("status", "!=", "created")]),
        eb("refund_state", "in", ["requested", "processing"]),
        eb.and([eb("status", "=", "created"), eb("payment_status", "=", "pending")]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}
