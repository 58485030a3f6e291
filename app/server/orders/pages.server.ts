// The loaders and actions of the customer's order pages, so the routes stay thin:
//   /orders                     the list (student login)
//   /express/orders/:orderId    the detail with its action forms (student login); its dialogs
//                               are child routes (…/cancel, …/refund, …/review, …/contact)
//   /market/pay/:orderId        paying right after the checkout (messenger identity only)
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { CONTACT_DIALOG_HOURS, SERVICE_PHONE, SERVICE_PHONE_HREF, formatHours } from "~/lib/service-hours";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { pay as payMessages } from "~/lib/messages/pay";
import { cancelNotice } from "~/lib/order-status";
import { PAY_RELOADS, isInvalidOrderParam, isOrderNumber } from "~/lib/orders";
import { OrderActionSchema } from "~/lib/schemas/orders";
import { requireMessengerUser, requireStudent, type User } from "../auth/session.server";
import { log } from "../log.server";
import { subscribeWidgetState } from "../notify/subscribe.server";
import { isSimulatedPayment } from "../pay/provider.server";
import { cancelOrder } from "./cancel.server";
import { findOwnOrder, listOrders, orderDetail, reviewOrder, ORDERS_PAGE_SIZE, type OrderRow } from "./orders.server";
import { createPayment, refreshPayment } from "./payment.server";
import { requestRefund } from "./refunds.server";

const msg = { orders: ordersMessages, pay: payMessages, titles: titlesMessages };

/** The detail page's titles, sent with its data. */
const DETAIL_TITLES = { page: msg.titles.orderDetail, orders: msg.titles.orders };

export const DONE_NOTICES = ["cancelled", "cancelRefund", "refundRequested", "reviewed", "paid"] as const;
export type DoneNotice = (typeof DONE_NOTICES)[number];

const MAX_PAGES = 20;


function payingParam(url: URL, pending: boolean) {
  const value = Number.parseInt(url.searchParams.get("paying") ?? "", 10);
  return pending && value >= 1 && value <= PAY_RELOADS ? value : 0;
}

export async function ordersListLoader(request: Request) {
  const user = await requireStudent(request);
  const page = Math.min(MAX_PAGES, Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1));
  const { items, next } = await listOrders(user.id, { limit: page * ORDERS_PAGE_SIZE });
  return { items, page, more: next !== null };
}

function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

/** The owner's order, its payment checked with the provider while it is unpaid. */
async function ownOrderFresh(user: User, orderId: string): Promise<OrderRow> {
  let order = await findOwnOrder(user.id, orderId);
  if (!order) notFound();
  if (order.status === "created" && order.payment_status === "pending") {
    await refreshPayment(order);
    order = (await findOwnOrder(user.id, orderId))!;
  }
  return order;
}

function contactInfo() {
  return { hours: formatHours(CONTACT_DIALOG_HOURS), phone: SERVICE_PHONE.display, phoneHref: SERVICE_PHONE_HREF };
}

/**
 * The banner after an action, from the order as it is now: a cancel says what the status table
 * says (cancelled, refund processing, refunded), never a word the header contradicts.
 */
function doneNotice(done: string | null, order: OrderRow): string | null {
  if (!(DONE_NOTICES as readonly string[]).includes(done ?? "")) return null;
  if (done === "cancelled" || done === "cancelRefund") return cancelNotice({ status: order.status, refundState: order.refund_state });
  return msg.orders.done[done as DoneNotice];
}

export async function orderPageLoader(request: Request, orderId: string | undefined) {
  const user = await requireStudent(request);
  if (isInvalidOrderParam(orderId)) return Response.json({ kind: "invalid" as const, message: msg.orders.failures.invalidId, titles: DETAIL_TITLES }, { status: 400 });
  if (!isOrderNumber(orderId)) notFound();
  const url = new URL(request.url);
  try {
    const order = await ownOrderFresh(user, orderId);
    const [detail, widget] = await Promise.all([orderDetail(order), subscribeWidgetState(user, "ORDER_STATUS", request)]);
    const done = url.searchParams.get("done");
    return {
      kind: "ok" as const,
      titles: DETAIL_TITLES,
      order: detail,
      subscribe: widget,
      path: `/express/orders/${detail.order_number}`,
      done: doneNotice(done, order),
      paying: payingParam(url, detail.payment_status === "pending"),
      contact: contactInfo(),
    };
  } catch (error) {
    if (error instanceof Response) throw error;
    log("error", "order-page", { error: String(error) });
    return Response.json({ kind: "error" as const, message: msg.orders.failures.detail, titles: DETAIL_TITLES }, { status: 500 });
  }
}

export type OrderActionData = { intent: string; error?: string; field?: string };

function failure(intent: string, error: string, status: number, field?: string) {
  return Response.json({ intent, error, field } satisfies OrderActionData, { status });
}

export async function orderPageAction(request: Request, orderId: string | undefined) {
  const user = await requireStudent(request);
  if (isInvalidOrderParam(orderId)) return failure("", msg.orders.failures.invalidId, 400);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const submission = parseWithZod(formData, { schema: OrderActionSchema });
  if (submission.status !== "success") {
    const [field, messages] = Object.entries(submission.error ?? {}).find(([, list]) => list && list.length > 0) ?? ["", null];
    return failure(intent, messages?.[0] ?? msg.orders.failures.notAllowed, 400, field);
  }
  const order = await findOwnOrder(user.id, orderId!);
  if (!order) notFound();
  // The dialogs post from their child routes; every answer lands on the order itself.
  const base = `/express/orders/${order.order_number}`;
  const value = submission.value;
  try {
    switch (value.intent) {
      case "pay": {
        const result = await createPayment(user, order.order_number);
        if (!result.ok) return failure(intent, result.paid ? result.message : `${msg.orders.failures.pay}：${result.message}`, result.status);
        // Without JavaScript only the simulated provider can pay (it pays by itself); the page
        // reloads after 2 s and its loader asks the provider.
        if (result.simulated) throw redirect(`${base}?paying=1`);
        return failure(intent, msg.pay.bridgeUnavailable, 400);
      }
      case "cancel": {
        const result = await cancelOrder(user.id, order.order_number, value.reason);
        if (!result.ok) return failure(intent, result.status >= 500 ? msg.orders.failures.cancel : `${msg.orders.failures.cancel}：${result.message}`, result.status);
        throw redirect(`${base}?done=${result.done ?? "cancelled"}`);
      }
      case "refund": {
        const result = await requestRefund(user.id, order.order_number, value.reason);
        if (!result.ok) return failure(intent, `${msg.orders.failures.refund}：${result.message}`, result.status);
        throw redirect(`${base}?done=refundRequested`);
      }
      case "review": {
        const result = await reviewOrder(user.id, order.order_number, { rating: value.rating, comment: value.comment });
        if (!result.ok) return failure(intent, `${msg.orders.failures.review}：${result.message}`, result.status);
        throw redirect(`${base}?done=reviewed`);
      }
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    log("error", "order-action", { intent, error: String(error) });
    const failed = { pay: msg.orders.failures.pay, cancel: msg.orders.failures.cancel, refund: msg.orders.failures.refund, review: msg.orders.failures.review }[value.intent];
    return failure(intent, failed, 500);
  }
}

// ---------------------------------------------------------------------------------------------
// /market/pay/:orderId — right after the checkout, with the messenger identity only

export async function payPageLoader(request: Request, orderId: string | undefined) {
  const user = await requireMessengerUser(request);
  if (isInvalidOrderParam(orderId) || !isOrderNumber(orderId)) notFound();
  const order = await ownOrderFresh(user, orderId);
  const detail = await orderDetail(order);
  const url = new URL(request.url);
  return {
    order: {
      number: detail.order_number,
      amountFen: detail.amount_fen,
      originalFen: detail.original_fen,
      parcelCount: detail.parcel_count,
      address: detail.delivery_address,
      recipient: detail.recipient_name,
      estimated: detail.estimated_text,
      showEstimate: detail.view.showEstimate,
      status: detail.order_status,
      paymentStatus: detail.payment_status,
      canPay: detail.view.actions.includes("pay"),
      canCancel: detail.view.actions.includes("cancel") && detail.payment_status === "pending",
      label: detail.view.label,
    },
    start: url.searchParams.get("start") === "1",
    cancelled: url.searchParams.get("cancelled") === "1" && detail.order_status === "cancelled",
    paying: payingParam(url, detail.payment_status === "pending"),
    simulated: isSimulatedPayment(),
  };
}

export async function payPageAction(request: Request, orderId: string | undefined) {
  const user = await requireMessengerUser(request);
  if (isInvalidOrderParam(orderId) || !isOrderNumber(orderId)) notFound();
  const order = await findOwnOrder(user.id, orderId);
  if (!order) notFound();
  const intent = (await request.formData()).get("intent");
  // The unpaid order can be cancelled where it is paid (no student login needed): its parcels are released.
  if (intent === "cancel") {
    const result = await cancelOrder(user.id, order.order_number, "");
    if (!result.ok) return Response.json({ intent: "cancel", error: result.message, paid: false }, { status: result.status });
    throw redirect(`${new URL(request.url).pathname}?cancelled=1`);
  }
  // Only the pay button's form (intent=pay) starts a payment: any other body is refused.
  if (intent !== "pay") return Response.json({ intent: "pay", error: msg.pay.badRequest, paid: false }, { status: 400 });
  const result = await createPayment(user, order.order_number);
  if (!result.ok) return Response.json({ intent: "pay", error: result.message, paid: result.paid ?? false }, { status: result.status });
  if (result.simulated) throw redirect(`${new URL(request.url).pathname}?paying=1`);
  return Response.json({ intent: "pay", error: msg.pay.bridgeUnavailable }, { status: 400 });
}
