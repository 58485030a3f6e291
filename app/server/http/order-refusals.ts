// What the routes answer when app/server/orders refuses a customer's step, a new order or a
// payment: the status and the catalogue's message for each reason. Several routes answer the
// same refusals (the order page and its dialogs, the pay page, the pay call path, the market
// sheet's pay button and POST /api/express/order_create), so the tables are here once.
import { orders as ordersMessages } from "~/lib/messages/orders";
import { pay as payMessages } from "~/lib/messages/pay";
import { formatYuan } from "~/lib/money";
import { fillTemplate } from "~/lib/template";
import type { CreateOrderResult, CreateOrderRefusal, OrderRefusal } from "~/server/orders/orders.server";
import type { PayRefusal } from "~/server/orders/payment.server";
import { EXPRESS_CONFIG_REFUSALS } from "./market-refusals";

const msg = { orders: ordersMessages, pay: payMessages };

type Answer = { status: number; message: string };

export const ORDER_REFUSALS: Record<OrderRefusal, Answer> = {
  not_found: { status: 404, message: msg.orders.failures.notFound },
  not_allowed: { status: 409, message: msg.orders.failures.notAllowed },
  provider_failed: { status: 502, message: msg.orders.failures.cancel },
  conflict: { status: 409, message: msg.orders.failures.cancel },
  already_reviewed: { status: 409, message: msg.orders.failures.alreadyReviewed },
};

export const ORDER_CREATE_REFUSALS: Record<CreateOrderRefusal, Answer> = {
  need_messenger: { status: 401, message: msg.orders.create.needMessenger },
  stale: { status: 409, message: msg.orders.create.stale },
  empty_list: { status: 400, message: msg.orders.create.emptyList },
  need_address: { status: 400, message: msg.orders.create.needAddress },
  address_campus: { status: 400, message: msg.orders.create.addressCampus },
  address_not_served: { status: 400, message: msg.orders.create.addressNotServed },
  too_many_parcels: { status: 400, message: msg.orders.create.tooManyParcels },
  one_code: { status: 400, message: msg.orders.create.oneCode },
  duplicate_parcel: { status: 400, message: msg.orders.create.duplicateParcel },
  counts_mismatch: { status: 400, message: msg.orders.create.countsMismatch },
  parcel_in_live_order: { status: 409, message: msg.orders.create.parcelInLiveOrder },
  price_changed: { status: 409, message: msg.orders.create.priceChanged },
  unpriced: { status: 400, message: msg.orders.create.failed },
  failed: { status: 500, message: msg.orders.create.failed },
  not_opened: { status: 400, message: EXPRESS_CONFIG_REFUSALS.not_opened },
  config_broken: { status: 400, message: EXPRESS_CONFIG_REFUSALS.config_broken },
};

/** A refused new order: the table's answer, naming the live order that holds a parcel or the new total to confirm. */
export function orderCreateRefusal(refused: Extract<CreateOrderResult, { ok: false }>): Answer {
  const answer = ORDER_CREATE_REFUSALS[refused.reason];
  const amount = refused.priceChanged ? formatYuan(refused.priceChanged.amountFen, { style: "amount", symbol: true }) : "";
  return { status: answer.status, message: fillTemplate(answer.message, { orderNumber: refused.liveOrder ?? "", amount }) };
}

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
