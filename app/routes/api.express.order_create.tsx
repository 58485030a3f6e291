// POST /api/express/order_create — the product rules' order creation for the page's JavaScript:
// { campus_code, recipient_name, recipient_phone, recipient_campus, recipient_dorm, recipient_room,
//   expressCheckoutList[{pickupCode, trackingNumber, company, stationName}],
//   expressPackageCounts{pocket,small,medium,large}, remark, … } → { success, message, data.order_id }.
// The messenger identity of the session is the customer; prices come from the campus config
// (any total in the body is ignored); the checkout's id and version make it idempotent.
import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { OrderCreateSchema } from "~/lib/schemas/orders";
import { getUser } from "~/server/auth/session.server";
import { orderCreateRefusal } from "~/server/http/order-refusals";
import { readBody } from "~/server/market/json-body.server";
import { createOrderFromRequest } from "~/server/orders/orders.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooManyAnswer } from "~/server/http/too-many";

const msg = { orders: ordersMessages, wechat: wechatMessages };
const NO_STORE = { "Cache-Control": "no-store" };

function fromForm(body: Record<string, unknown>) {
  // A form post carries the list and counts as JSON text.
  const out: Record<string, unknown> = { ...body };
  for (const key of ["expressCheckoutList", "expressPackageCounts"]) {
    if (typeof out[key] === "string") {
      try {
        out[key] = JSON.parse(out[key] as string);
      } catch {
        out[key] = undefined;
      }
    }
  }
  return out;
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const user = await getUser(request);
  if (!user?.openid) return Response.json({ success: false, message: msg.orders.create.needMessenger }, { status: 401, headers: NO_STORE });
  const body = await readBody(request);
  const parsed = z.safeParse(OrderCreateSchema, body ? fromForm(body) : {});
  if (!parsed.success) return Response.json({ success: false, message: msg.orders.create.failed }, { status: 400, headers: NO_STORE });
  const verdict = await consumeRateLimit("order", { userId: user.id, ip: context.clientIp });
  if (!verdict.ok) return tooManyAnswer(verdict);
  const result = await createOrderFromRequest(user, parsed.data);
  if (!result.ok) {
    const refused = orderCreateRefusal(result);
    return Response.json({ success: false, message: refused.message }, { status: refused.status, headers: NO_STORE });
  }
  return Response.json(
    { success: true, message: "ok", data: { order_id: result.orderNumber, amount_fen: result.amountFen, created: result.created } },
    { headers: NO_STORE },
  );
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
