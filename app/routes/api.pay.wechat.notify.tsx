// POST /api/pay/wechat/notify — the pay API's notifications, payments and refunds alike. The
// provider layer verifies the platform signature over the raw body (refusing the deliberate
// SIGNTEST probes and stale timestamps) and decrypts the resource; the order layer checks the
// amount against our order and marks it paid (or refunded) once, however often it is told.
// Acknowledged with 204; a refusal is 4xx {code: "FAIL"} so the provider retries.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handlePayNotification } from "~/server/orders/payment.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const answer = await handlePayNotification(request.headers, await request.text());
  return answer.body ? Response.json(answer.body, { status: answer.status }) : new Response(null, { status: answer.status });
}

export const loader = () => new Response(null, { status: 405 });
