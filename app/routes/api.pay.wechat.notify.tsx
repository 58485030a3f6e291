// POST /api/pay/wechat/notify — the pay API's notifications, payments and refunds alike. The
// provider layer verifies the platform signature over the raw body (refusing the deliberate
// SIGNTEST probes and stale timestamps) and decrypts the resource; the order layer checks the
// amount against our order and marks it paid (or refunded) once, however often it is told.
// Acknowledged with 204; a refusal is 4xx {code: "FAIL"} so the provider retries.
import type { ActionFunctionArgs } from "@remix-run/node";
import { notificationFailureResponse } from "~/server/pay/provider.server";
import { handlePayNotification, type NotifyVerdict } from "~/server/orders/payment.server";

/** The protocol's answer to each refusal: the status and the FAIL code the provider logs. */
const REFUSED: Record<Exclude<Extract<NotifyVerdict, { ok: false }>["reason"], "unverified">, { status: number; code: string }> = {
  not_configured: { status: 404, code: "NOT_CONFIGURED" },
  internal: { status: 500, code: "INTERNAL" },
  amount_mismatch: { status: 400, code: "AMOUNT_MISMATCH" },
};

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const verdict = await handlePayNotification(request.headers, await request.text());
  if (verdict.ok) return new Response(null, { status: 204 });
  const answer =
    verdict.reason === "unverified" ? notificationFailureResponse(verdict.error) : { status: REFUSED[verdict.reason].status, body: { code: "FAIL", message: REFUSED[verdict.reason].code } };
  return answer.body ? Response.json(answer.body, { status: answer.status }) : new Response(null, { status: answer.status });
}

export const loader = () => new Response(null, { status: 405 });
