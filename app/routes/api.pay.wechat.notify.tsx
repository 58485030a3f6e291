// POST /api/pay/wechat/notify — the pay API's notifications, payments and refunds alike. The
// provider layer verifies the platform signature over the raw body (refusing the deliberate
// SIGNTEST probes and stale timestamps) and decrypts the resource; the order layer checks the
// amount against our order and marks it paid (or refunded) once, however often it is told.
// Acknowledged with 204; a refusal is 4xx {code: "FAIL"} so the provider retries
// (app/server/http/pay-notify-answer.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { handlePayNotification } from "~/server/orders/payment.server";
import { payNotifyAnswer } from "~/server/http/pay-notify-answer";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  return payNotifyAnswer(await handlePayNotification(request.headers, await request.text()));
}

export const loader = () => new Response(null, { status: 405 });
