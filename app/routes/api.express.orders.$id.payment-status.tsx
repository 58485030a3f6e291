// GET /api/express/orders/:id/payment-status — the page's poll after the pay call (up to 10
// tries, 1 s apart). It asks the provider (a verified query), so an order is paid here even when
// the notification has not arrived — and with the simulated provider, which sends none.
// Only the owner may ask; another user's order is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { isInvalidOrderParam } from "~/lib/orders";
import { getUser } from "~/server/auth/session.server";
import { paymentStatus } from "~/server/orders/payment.server";

const msg = { orders: ordersMessages };
const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return Response.json({ success: false, message: msg.orders.create.needMessenger }, { status: 401, headers: NO_STORE });
  if (isInvalidOrderParam(params.id)) return Response.json({ success: false, message: msg.orders.failures.invalidId }, { status: 400, headers: NO_STORE });
  const state = await paymentStatus(user, params.id!);
  if (!state) return Response.json({ success: false, message: msg.orders.failures.notFound }, { status: 404, headers: NO_STORE });
  return Response.json(
    {
      success: state.paid,
      message: state.paid ? msg.orders.paymentStatus.paid : msg.orders.paymentStatus[state.paymentStatus],
      data: { order_id: state.orderNumber, order_status: state.status, payment_status: state.paymentStatus, paid: state.paid },
    },
    { headers: NO_STORE },
  );
}
