// What the routes answer when app/server/orders refuses a customer's step or a payment: the
// status and the catalogue's message for each reason. Several routes answer the same refusals
// (the order page and its dialogs, the pay page, the pay call path), so the table is here once.
import { orders as ordersMessages } from "~/lib/messages/orders";
import { pay as payMessages } from "~/lib/messages/pay";
import type { OrderRefusal } from "~/server/orders/orders.server";
import type { PayRefusal } from "~/server/orders/payment.server";

const msg = { orders: ordersMessages, pay: payMessages };

type Answer = { status: number; message: string };

export const ORDER_REFUSALS: Record<OrderRefusal, Answer> = {
  not_found: { status: 404, message: msg.orders.failures.notFound },
  not_allowed: { status: 409, message: msg.orders.failures.notAllowed },
  provider_failed: { status: 502, message: msg.orders.failures.cancel },
  conflict: { status: 409, message: msg.orders.failures.cancel },
  already_reviewed: { status: 409, message: msg.orders.failures.alreadyReviewed },
};

export const PAY_REFUSALS: Record<PayRefusal, Answer> = {
  not_found: { status: 404, message: msg.orders.failures.notFound },
  already_paid: { status: 409, message: msg.pay.alreadyPaid },
  closed: { status: 409, message: msg.pay.closed },
  expired: { status: 409, message: msg.orders.failures.expired },
  not_configured: { status: 503, message: msg.pay.notConfigured },
  not_in_messenger: { status: 400, message: msg.pay.openInMessenger },
  busy: { status: 503, message: msg.pay.busy },
  failed: { status: 502, message: msg.pay.createFailed },
  error: { status: 500, message: msg.pay.createFailed },
};

/**
 * A refused customer step on the order page: the step's own failure, with the reason after it
 * when there is one to tell ("取消失败：订单不存在"); a provider or lost-race failure is the step's
 * failure alone.
 */
export function orderStepRefusal(failed: string, reason: OrderRefusal): Answer {
  const answer = ORDER_REFUSALS[reason];
  return { status: answer.status, message: answer.message === failed ? failed : `${failed}：${answer.message}` };
}
