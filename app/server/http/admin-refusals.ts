// What the admin routes answer when an operator's step is refused (app/server/admin): the status
// and the catalogue's message for each reason, after the step's own failure ("取消订单失败：…").
// The orders and refunds pages answer the same refusals, so the table is here once.
import { adminOrderData } from "~/lib/messages/adminOrderData";
import type { AdminAction, AdminRefusal } from "~/server/admin/actions.server";
import type { RefusalAnswer, RefusalTable } from "./refusal-table";

const m = adminOrderData.failures;

export const ADMIN_REFUSALS: RefusalTable<AdminRefusal> = {
  not_found: { status: 404, message: m.notFound },
  not_allowed: { status: 409, message: m.notAllowed },
  provider_failed: { status: 502, message: m.provider },
  reason_required: { status: 400, message: m.failReasonRequired },
  admin_only: { status: 403, message: m.adminOnly },
  holds_money: { status: 409, message: m.holdsMoney },
  refund_not_pending: { status: 409, message: m.refundNotPending },
};

/** A refused operator step: its status, and the step's failure with the reason after it. */
export function adminRefusal(refused: { action: AdminAction; reason: AdminRefusal }): RefusalAnswer {
  const answer = ADMIN_REFUSALS[refused.reason];
  return { status: answer.status, message: `${m[refused.action]}：${answer.message}` };
}
