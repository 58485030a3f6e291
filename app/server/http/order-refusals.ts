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
import type { RefusalAnswer, RefusalTable } from "./refusal-table";

const msg = { orders: ordersMessages, pay: payMessages };

export const ORDER_REFUSALS: RefusalTable<OrderRefusal> = {
  not_found: { status: 404, message: msg.orders.failures.notFound },
  not_allowed: { status: 409, message: msg.orders.failures.notAllowed },
  provider_failed: { status: 502, message: msg.orders.failures.cancel },
  conflict: { status: 409, message: msg.orders.failures.cancel },
  already_reviewed: { status: 409, message: msg.orders.failures.alreadyReviewed },
};

/** Each reason of `messages` answered with `status` and its message. */
function answering<R extends string>(status: number, messages: Record<R, string>): RefusalTable<R> {
  return Object.fromEntries(Object.entries<string>(messages).map(([reason, message]) => [reason, { status, message }])) as RefusalTable<R>;
}

const create = msg.orders.create;

export const ORDER_CREATE_REFUSALS: RefusalTable<CreateOrderRefusal> = {
  need_messenger: { status: 401, message: create.needMessenger },
  failed: { status: 500, message: create.failed },
  // The sheet showed an older checkout, or the order would clash with what is there now.
  ...answering(409, { stale: create.stale, parcel_in_live_order: create.parcelInLiveOrder, price_changed: create.priceChanged }),
  ...answering(400, {
    empty_list: create.emptyList,
    need_address: create.needAddress,
    address_campus: create.addressCampus,
    address_not_served: create.addressNotServed,
    too_many_parcels: create.tooManyParcels,
    one_code: create.oneCode,
    duplicate_parcel: create.duplicateParcel,
    counts_mismatch: create.countsMismatch,
    // No live config to price with: the order is not made at the fallback defaults.
    unpriced: create.failed,
    ...EXPRESS_CONFIG_REFUSALS,
  }),
};

/** A refused new order: the table's answer, naming the live order that holds a parcel or the new total to confirm. */
export function orderCreateRefusal(refused: Extract<CreateOrderResult, { ok: false }>): RefusalAnswer {
  const answer = ORDER_CREATE_REFUSALS[refused.reason];
  const amount = refused.priceChanged ? formatYuan(refused.priceChanged.amountFen, { style: "amount", symbol: true }) : "";
  return { status: answer.status, message: fillTemplate(answer.message, { orderNumber: refused.liveOrder ?? "", amount }) };
}

export const PAY_REFUSALS: RefusalTable<PayRefusal> = {
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
export function orderStepRefusal(failed: string, reason: OrderRefusal): RefusalAnswer {
  const answer = ORDER_REFUSALS[reason];
  return { status: answer.status, message: answer.message === failed ? failed : `${failed}：${answer.message}` };
}
