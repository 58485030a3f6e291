// Paying an order through the payment provider layer (app/server/pay). The provider holds no
// orders; this module keeps the payments row, checks ownership and amount, and makes an order
// paid only on a verified notification or a verified query (docs/architecture.md "Paid only when verified") — in
// development the simulated provider's query is that verification.
import type { HeadersLike } from "~/server/pay/wechatpay-sign.server";
import { orders as ordersMessages } from "~/lib/messages/orders";
import type { PayParams } from "~/lib/pay-params";
import type { User } from "../auth/session.server";
import { db, now } from "../db/db.server";
import { log } from "../log.server";
import {
  NotificationError,
  PayError,
  paymentProvider,
  type PaymentProvider,
  type RefundNotification,
  type TransactionNotification,
} from "../pay/provider.server";
import { recordEvent, type OrderRow } from "./events.server";
import { findOwnOrder } from "./orders.server";
import { handleRefundNotification, startAutoRefund } from "./refunds.server";
import { markSupplementPaid, supplementByTradeNo } from "./supplements.server";
import { applyPaid } from "./transitions.server";

const msg = { orders: ordersMessages };

/**
 * Why no pay parameters were issued: not the user's order, paid already, closed (or closed while
 * the pay call was on its way), past its 24 hours, no provider configured, a session without the
 * messenger identity, the provider busy (try again), or the provider's or our own failure.
 */
export type PayRefusal = "not_found" | "already_paid" | "closed" | "expired" | "not_configured" | "not_in_messenger" | "busy" | "failed" | "error";
export type CreatePaymentResult = { ok: true; payParams: PayParams; simulated: boolean } | { ok: false; reason: PayRefusal };

/** The payer's openid: the messenger identity of the session (ordering needs it anyway). */
export async function createPayment(user: User, number: string): Promise<CreatePaymentResult> {
  const order = await findOwnOrder(user.id, number);
  if (!order) return { ok: false, reason: "not_found" };
  if (order.payment_status === "paid" || order.status !== "created") {
    return order.payment_status === "paid"
      ? { ok: false, reason: "already_paid" }
      : { ok: false, reason: "closed" };
  }
  if (order.expires_at <= now()) return { ok: false, reason: "expired" };
  const provider = paymentProvider();
  if (!provider) return { ok: false, reason: "not_configured" };
  if (!user.openid) return { ok: false, reason: "not_in_messenger" };

  const at = now();
  await db()
    .insertInto("payments")
    .values({
      order_id: order.id,
      provider: provider.kind,
      out_trade_no: order.order_number,
      amount_fen: order.amount_fen,
      prepay_id: null,
      prepay_at: null,
      state: "created",
      transaction_id: null,
      payer_openid: null,
      success_time: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column("order_id").doNothing())
    .execute();

  try {
    const { prepayId } = await provider.createJsapi({
      outTradeNo: order.order_number,
      description: msg.orders.create.payDescription,
      amountFen: order.amount_fen,
      openid: user.openid,
      expiresAt: new Date(order.expires_at),
    });
    // I4: pay parameters only for an order payable at this instant. A cancel or close that
    // committed while the pay call was on its way (it could not close a trade that did not exist
    // yet) wins: the trade just made is closed and nothing is issued.
    if (!(await stillPayable(order.id))) {
      await provider.close(order.order_number).catch((error: unknown) => log("warn", "pay-close-after-cancel", { order: order.order_number, error: error instanceof PayError ? error.code : String(error) }));
      return { ok: false, reason: "closed" };
    }
    const payParams = provider.payParams(prepayId);
    await db().updateTable("payments").set({ prepay_id: prepayId, prepay_at: at, updated_at: at }).where("order_id", "=", order.id).execute();
    return { ok: true, payParams, simulated: provider.kind === "simulated" };
  } catch (error) {
    if (error instanceof PayError) {
      log("warn", "pay-create", { order: order.order_number, code: error.code });
      if (error.code === "ORDER_PAID") {
        await refreshPayment(order);
        return { ok: false, reason: "already_paid" };
      }
      if (error.code === "ORDER_CLOSED") return { ok: false, reason: "closed" };
      if (error.retryable) return { ok: false, reason: "busy" };
      if (error.code === "NOT_CONFIGURED") return { ok: false, reason: "not_configured" };
      return { ok: false, reason: "failed" };
    }
    log("error", "pay-create", { order: order.order_number, error: String(error) });
    return { ok: false, reason: "error" };
  }
}

/** Unpaid, not closed and inside its 24 hours, read now. */
async function stillPayable(orderId: number) {
  const row = await db().selectFrom("orders").select(["status", "payment_status", "expires_at", "deleted_at"]).where("id", "=", orderId).executeTakeFirst();
  return Boolean(row && row.status === "created" && row.payment_status === "pending" && row.expires_at > now() && row.deleted_at === null);
}

export type PaymentState = { orderNumber: string; status: OrderRow["status"]; paymentStatus: OrderRow["payment_status"]; paid: boolean };

function stateOf(order: OrderRow): PaymentState {
  // I6: paid means the money is with us now; a refunded order is never reported as paid.
  return { orderNumber: order.order_number, status: order.status, paymentStatus: order.payment_status, paid: order.payment_status === "paid" };
}

/**
 * Asks the provider about an unpaid order that has a payment (the page's status poll; the closer
 * when close says it was paid). A verified SUCCESS with our amount marks it paid, once.
 */
export async function refreshPayment(order: OrderRow, provider: PaymentProvider | null = paymentProvider()): Promise<PaymentState> {
  if (order.status !== "created" || order.payment_status !== "pending" || !provider) return stateOf(order);
  const payment = await db().selectFrom("payments").select(["out_trade_no", "prepay_id"]).where("order_id", "=", order.id).executeTakeFirst();
  if (!payment?.prepay_id) return stateOf(order);
  try {
    const result = await provider.query(payment.out_trade_no);
    if (result.state === "SUCCESS" || result.state === "REFUND") {
      if (result.amountFen !== order.amount_fen) {
        log("error", "pay-amount-mismatch", { order: order.order_number, source: "query" });
        return stateOf(order);
      }
      await markPaid(order, { transactionId: result.transactionId, successTime: result.successTime, payerOpenid: result.payerOpenid, source: "query" });
    }
  } catch (error) {
    log("warn", "pay-query", { order: order.order_number, error: error instanceof PayError ? error.code : String(error) });
  }
  const fresh = await db().selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
  return stateOf(fresh);
}

/** The owner's order (null when it is not theirs), its payment checked with the provider while it is unpaid. */
export async function findOwnOrderFresh(userId: number, number: string): Promise<OrderRow | null> {
  const order = await findOwnOrder(userId, number);
  if (!order || order.status !== "created" || order.payment_status !== "pending") return order ?? null;
  await refreshPayment(order);
  return (await findOwnOrder(userId, number)) ?? null;
}

/** The owner's status poll: GET /api/express/orders/:id/payment-status. */
export async function paymentStatus(user: User, number: string): Promise<PaymentState | null> {
  const order = await findOwnOrder(user.id, number);
  if (!order) return null;
  return refreshPayment(order);
}

/**
 * Marks the order paid (once, however often it is told). A payment for an order that was closed
 * meanwhile (it can only happen if the close did not reach the provider) is refunded at once.
 */
async function markPaid(order: OrderRow, details: { transactionId?: string; successTime?: string; payerOpenid?: string; source: "notify" | "query" }) {
  const at = now();
  const paid = await db()
    .transaction()
    .execute((trx) =>
      applyPaid(trx, order.id, {
        transactionId: details.transactionId ?? null,
        successTime: details.successTime ?? null,
        payerOpenid: details.payerOpenid ?? null,
        actor: "provider",
        at,
      }),
    );
  if (paid) {
    log("info", "order-paid", { order: order.order_number, source: details.source });
    return;
  }
  const current = await db().selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
  if (current.status === "cancelled" && current.payment_status === "closed") {
    log("error", "paid-after-close", { order: order.order_number });
    await startAutoRefund(current, { transactionId: details.transactionId ?? null, payerOpenid: details.payerOpenid ?? null, successTime: details.successTime ?? null });
  }
}

// ---------------------------------------------------------------------------------------------
// Notifications: POST /api/pay/wechat/notify (payments and refunds share the notify URL)

/**
 * What a notification came to: taken (or nothing a repeat could fix), or why not: no provider
 * here, an error on our side, an amount that is not the trade's, or the provider layer refused
 * it (`unverified`, with its error: a bad signature, a probe, an event we do not handle…).
 */
export type NotifyVerdict =
  | { ok: true }
  | { ok: false; reason: "not_configured" | "internal" | "amount_mismatch" }
  | { ok: false; reason: "unverified"; error: NotificationError };

const TAKEN: NotifyVerdict = { ok: true };

export async function handlePayNotification(headers: HeadersLike, rawBody: string): Promise<NotifyVerdict> {
  const provider = paymentProvider();
  if (!provider) return { ok: false, reason: "not_configured" };
  let notification;
  try {
    notification = await provider.parseNotification(headers, rawBody);
  } catch (error) {
    if (error instanceof NotificationError) {
      log("warn", "pay-notify-refused", { code: error.code });
      return { ok: false, reason: "unverified", error };
    }
    log("error", "pay-notify", { error: String(error) });
    return { ok: false, reason: "internal" };
  }
  try {
    if (notification.eventType === "TRANSACTION.SUCCESS") return await onPaymentNotification(notification);
    return await handleRefundNotification(notification as RefundNotification);
  } catch (error) {
    log("error", "pay-notify", { event: notification.eventType, error: String(error) });
    return { ok: false, reason: "internal" };
  }
}

async function onPaymentNotification(notification: TransactionNotification): Promise<NotifyVerdict> {
  const row = await db()
    .selectFrom("payments")
    .innerJoin("orders", "orders.id", "payments.order_id")
    .select(["orders.id as orderId"])
    .where("payments.out_trade_no", "=", notification.outTradeNo)
    .executeTakeFirst();
  if (!row) {
    // A supplement's trade (decision 047): its own amount, marked paid once.
    const supplement = await supplementByTradeNo(notification.outTradeNo);
    if (supplement) {
      if (notification.amountFen !== supplement.amount_fen) {
        log("error", "pay-amount-mismatch", { trade: supplement.out_trade_no, source: "notify" });
        return { ok: false, reason: "amount_mismatch" };
      }
      await markSupplementPaid(supplement.out_trade_no, { transactionId: notification.transactionId ?? null, successTime: notification.successTime ?? null, payerOpenid: notification.payerOpenid ?? null });
      return TAKEN;
    }
    // Not ours (or long gone): nothing a repeat could fix.
    log("warn", "pay-notify-unknown", { outTradeNo: notification.outTradeNo });
    return TAKEN;
  }
  const order = await db().selectFrom("orders").selectAll().where("id", "=", row.orderId).executeTakeFirstOrThrow();
  if (notification.amountFen !== order.amount_fen) {
    log("error", "pay-amount-mismatch", { order: order.order_number, source: "notify" });
    await recordEvent(db(), order, { type: "payment_amount_mismatch", actor: "provider", note: `${notification.amountFen}≠${order.amount_fen}`, at: now() });
    return { ok: false, reason: "amount_mismatch" };
  }
  await markPaid(order, { transactionId: notification.transactionId, successTime: notification.successTime, payerOpenid: notification.payerOpenid, source: "notify" });
  return TAKEN;
}
