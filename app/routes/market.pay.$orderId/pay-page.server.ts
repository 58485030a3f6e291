// /market/pay/:orderId: paying right after the checkout, with the messenger identity only. Its
// intents: pay (the form without JavaScript) and cancel (the unpaid order, its parcels released).
import { redirect } from "@remix-run/node";
import { pay as payMessages } from "~/lib/messages/pay";
import { isInvalidOrderParam, isOrderNumber, payingParam } from "~/lib/orders";
import { ORDER_REFUSALS, PAY_REFUSALS } from "~/server/http/order-refusals";
import { cancelOrder } from "~/server/orders/cancel.server";
import { findOwnOrder, orderDetail } from "~/server/orders/orders.server";
import { createPayment, findOwnOrderFresh } from "~/server/orders/payment.server";
import { isSimulatedPayment } from "~/server/pay/provider.server";
import { requireMessengerUser } from "~/server/http/guards.server";

const msg = { pay: payMessages };

function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

export type PayActionData = { intent: "pay" | "cancel"; error: string; paid?: boolean };

function refusal(data: PayActionData, status: number) {
  return Response.json(data, { status });
}

export async function payPageLoader(request: Request, orderId: string | undefined) {
  const user = await requireMessengerUser(request);
  if (isInvalidOrderParam(orderId) || !isOrderNumber(orderId)) notFound();
  const order = await findOwnOrderFresh(user.id, orderId);
  if (!order) notFound();
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
    cancelled: url.searchParams.get("notice") === "cancelled" && detail.order_status === "cancelled",
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
  const here = new URL(request.url).pathname;
  // The unpaid order can be cancelled where it is paid (no student login needed): its parcels are released.
  if (intent === "cancel") {
    const result = await cancelOrder(user.id, order.order_number, "");
    if (!result.ok) return refusal({ intent: "cancel", error: ORDER_REFUSALS[result.reason].message, paid: false }, ORDER_REFUSALS[result.reason].status);
    return redirect(`${here}?notice=cancelled`);
  }
  // Only the pay button's form (intent=pay) starts a payment: any other body is refused.
  if (intent !== "pay") return refusal({ intent: "pay", error: msg.pay.badRequest, paid: false }, 400);
  const result = await createPayment(user, order.order_number);
  if (!result.ok) return refusal({ intent: "pay", error: PAY_REFUSALS[result.reason].message, paid: result.reason === "already_paid" }, PAY_REFUSALS[result.reason].status);
  if (result.simulated) return redirect(`${here}?paying=1`);
  return refusal({ intent: "pay", error: msg.pay.bridgeUnavailable }, 400);
}
