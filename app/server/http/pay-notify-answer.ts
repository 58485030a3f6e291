// What POST /api/pay/wechat/notify answers the pay provider's notification: 204 when handled; a
// refusal is 4xx/5xx {code: "FAIL", message} so the provider retries (15 s … 6 h), except a
// verified event we do not handle, acknowledged so it stops repeating.
import type { NotificationError } from "../pay/errors.server";
import type { NotifyVerdict } from "../orders/payment.server";

type NotifyAnswer = { status: number; body: { code: "FAIL"; message: string } | null };

/** A notification the provider layer refused (its signature, its timestamp, its body). */
export function notificationFailureAnswer(error: NotificationError): NotifyAnswer {
  if (error.code === "UNSUPPORTED_EVENT") return { status: 204, body: null };
  const status = ["MISSING_HEADERS", "SIGNTEST_PROBE", "UNKNOWN_SERIAL", "STALE_TIMESTAMP", "BAD_SIGNATURE"].includes(error.code) ? 401 : 400;
  return { status, body: { code: "FAIL", message: error.code } };
}

/** The order layer's other refusals: the status and the FAIL code the provider logs. */
const REFUSED: Record<Exclude<Extract<NotifyVerdict, { ok: false }>["reason"], "unverified">, { status: number; code: string }> = {
  not_configured: { status: 404, code: "NOT_CONFIGURED" },
  internal: { status: 500, code: "INTERNAL" },
  amount_mismatch: { status: 400, code: "AMOUNT_MISMATCH" },
};

/** The notify endpoint's answer to the order layer's verdict. */
export function payNotifyAnswer(verdict: NotifyVerdict): Response {
  if (verdict.ok) return new Response(null, { status: 204 });
  const answer: NotifyAnswer =
    verdict.reason === "unverified"
      ? notificationFailureAnswer(verdict.error)
      : { status: REFUSED[verdict.reason].status, body: { code: "FAIL", message: REFUSED[verdict.reason].code } };
  return answer.body ? Response.json(answer.body, { status: answer.status }) : new Response(null, { status: answer.status });
}
