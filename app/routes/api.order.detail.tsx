// POST /api/order/detail { order_number } → { success, data } (docs/product-rules.md, "Call paths"): the order with its
// pickup codes, for its owner only. A missing or 'undefined' number is 'invalid order ID';
// another user's order is a 404 like a missing one.
import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { isInvalidOrderParam } from "~/lib/orders";
import { OrderDetailSchema } from "~/lib/schemas/orders";
import { getUser } from "~/server/auth/session.server";
import { readBody } from "~/server/market/json-body.server";
import { log } from "~/server/log.server";
import { findOwnOrder, orderDetail } from "~/server/orders/orders.server";

const msg = { orders: ordersMessages, wechat: wechatMessages };
const NO_STORE = { "Cache-Control": "no-store" };

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const user = await getUser(request);
  if (!user) return Response.json({ success: false, message: msg.wechat.authRequired }, { status: 401, headers: NO_STORE });
  const parsed = z.safeParse(OrderDetailSchema, (await readBody(request)) ?? {});
  const number = parsed.success ? (parsed.data.order_number ?? parsed.data.order_id) : undefined;
  if (isInvalidOrderParam(number)) return Response.json({ success: false, message: msg.orders.failures.invalidId }, { status: 400, headers: NO_STORE });
  try {
    const order = await findOwnOrder(user.id, number!);
    if (!order) return Response.json({ success: false, message: msg.orders.failures.notFound }, { status: 404, headers: NO_STORE });
    const { view: _view, ...data } = await orderDetail(order);
    return Response.json({ success: true, message: "ok", data }, { headers: NO_STORE });
  } catch (error) {
    log("error", "order-detail", { error: String(error) });
    return Response.json({ success: false, message: msg.orders.failures.detail }, { status: 500, headers: NO_STORE });
  }
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
