// /express/orders/:orderId: the order with its progress, the subscribe card and the contact
// details, and the pay intent (the dialogs' intents are on their own routes).
import { redirect } from "@remix-run/node";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { pay as payMessages } from "~/lib/messages/pay";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { orderPage as orderPageMessages } from "~/lib/messages/order-page";
import { cancelNotice } from "~/lib/order-status";
import { isInvalidOrderParam, isOrderNumber, orderShareCard, payingParam } from "~/lib/orders";
import { PayIntentSchema } from "~/lib/schemas/orders";
import { CONTACT_DIALOG_HOURS, SERVICE_PHONE, SERVICE_PHONE_HREF, formatHours } from "~/lib/service-hours";
import { PAY_REFUSALS } from "~/server/http/order-refusals";
import { log } from "~/server/log.server";
import { subscribeWidgetState } from "~/server/notify/subscribe.server";
import type { OrderRow } from "~/server/orders/events.server";
import { orderDetail } from "~/server/orders/orders.server";
import { createPayment, findOwnOrderFresh } from "~/server/orders/payment.server";
import { refreshSupplement, supplementOf } from "~/server/orders/supplements.server";
import { failure, notFound, orderPath, readIntentForm, unexpected } from "./order-action.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { orders: ordersMessages, pay: payMessages, titles: titlesMessages };

/** The detail page's titles, sent with its data. */
const DETAIL_TITLES = { page: msg.titles.orderDetail, orders: msg.titles.orders };

const DONE_NOTICES = ["cancelled", "cancelRefund", "refundRequested", "reviewed", "paid"] as const;
type DoneNotice = (typeof DONE_NOTICES)[number];

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

const SUPPLEMENT_REFUSALS: Record<string, string> = {
  gone: orderPageMessages.supplement.gone,
  unavailable: msg.pay.notConfigured,
  messenger: msg.pay.openInMessenger,
  busy: msg.pay.busy,
  failed: msg.pay.createFailed,
  bridge: msg.pay.bridgeUnavailable,
};

function supplementRefusal(key: string | null) {
  return key ? (SUPPLEMENT_REFUSALS[key] ?? null) : null;
}

function supplementReload(url: URL, offered: boolean) {
  const count = Number.parseInt(url.searchParams.get("r") ?? "0", 10) || 0;
  return offered && url.searchParams.get("supplement") === "paying" && count < 5 ? count + 1 : 0;
}

export async function orderPageLoader(request: Request, orderId: string | undefined) {
  const user = await requireStudent(request);
  if (isInvalidOrderParam(orderId)) return Response.json({ kind: "invalid" as const, message: msg.orders.failures.invalidId, titles: DETAIL_TITLES }, { status: 400 });
  if (!isOrderNumber(orderId)) notFound();
  const url = new URL(request.url);
  try {
    const order = await findOwnOrderFresh(user.id, orderId);
    if (!order) notFound();
    // A supplement being paid: the provider is asked on every load until it is confirmed.
    const supplement = await supplementOf(order.id);
    if (supplement) await refreshSupplement(supplement);
    const [detail, widget] = await Promise.all([orderDetail(order), subscribeWidgetState(user, "ORDER_STATUS", request)]);
    return {
      kind: "ok" as const,
      titles: DETAIL_TITLES,
      order: detail,
      subscribe: widget,
      path: orderPath(detail),
      done: doneNotice(url.searchParams.get("notice"), order),
      paying: payingParam(url, detail.payment_status === "pending"),
      /** The next of a few reloads (no JavaScript needed) while the supplement's payment is confirmed; 0: none. */
      supplementReload: supplementReload(url, detail.supplement?.state === "offered"),
      /** Why the last answer to the supplement was refused (the action sends the page a key, never text). */
      supplementRefusal: supplementRefusal(url.searchParams.get("supplement")),
      contact: contactInfo(),
      share: orderShareCard({ ...detail, statusLabel: detail.view.label }, orderPath(detail)),
    };
  } catch (error) {
    if (error instanceof Response) throw error;
    log("error", "order-page", { error: String(error) });
    return Response.json({ kind: "error" as const, message: msg.orders.failures.detail, titles: DETAIL_TITLES }, { status: 500 });
  }
}

/** The pay intent (the pay form's post without JavaScript). */
export async function payIntentAction(request: Request, orderId: string | undefined) {
  const form = await readIntentForm(request, orderId, "pay", PayIntentSchema);
  if (form instanceof Response) return form;
  const { user, order } = form;
  try {
    const result = await createPayment(user, order.order_number);
    if (!result.ok) {
      const { status, message } = PAY_REFUSALS[result.reason];
      return failure("pay", result.reason === "already_paid" ? message : `${msg.orders.failures.pay}：${message}`, status);
    }
    // Without JavaScript only the simulated provider can pay (it pays by itself); the page
    // reloads after 2 s and its loader asks the provider.
    if (result.simulated) return redirect(`${orderPath(order)}?paying=1`);
    return failure("pay", msg.pay.bridgeUnavailable, 400);
  } catch (error) {
    return unexpected("pay", error, msg.orders.failures.pay);
  }
}
