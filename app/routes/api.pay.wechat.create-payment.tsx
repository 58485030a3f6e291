// POST /api/pay/wechat/create-payment { order_id, openid } → { success, message, data.pay_params }
// (docs/product-rules.md, "Call paths"). The order must be the session user's own and unpaid; the payer is the
// session's messenger identity (the body's openid is ignored). data.simulated tells the page
// that the development provider pays by itself 1.5 s later (no pay bridge to invoke).
import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { pay as payMessages } from "~/lib/messages/pay";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { CreatePaymentSchema } from "~/lib/schemas/orders";
import { getUser } from "~/server/auth/session.server";
import { PAY_REFUSALS } from "~/server/http/order-refusals";
import { readBody } from "~/server/market/json-body.server";
import { createPayment } from "~/server/orders/payment.server";

const msg = { orders: ordersMessages, pay: payMessages, wechat: wechatMessages };
const NO_STORE = { "Cache-Control": "no-store" };

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const user = await getUser(request);
  if (!user) return Response.json({ success: false, message: msg.orders.create.needMessenger }, { status: 401, headers: NO_STORE });
  const parsed = z.safeParse(CreatePaymentSchema, (await readBody(request)) ?? {});
  if (!parsed.success) return Response.json({ success: false, message: msg.orders.failures.invalidId }, { status: 400, headers: NO_STORE });
  const result = await createPayment(user, parsed.data.order_id);
  if (!result.ok) {
    const { status, message } = PAY_REFUSALS[result.reason];
    return Response.json({ success: false, message, data: { paid: result.reason === "already_paid" } }, { status, headers: NO_STORE });
  }
  return Response.json(
    { success: true, message: "ok", data: { pay_params: result.payParams, simulated: result.simulated } },
    { headers: NO_STORE },
  );
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
