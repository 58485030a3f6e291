// The audit log and personal data. An audit row names the operator, the action and the order's
// number (which the anonymised accounting copy of the order keeps too); it never holds the
// customer's name, phone or address. Its detail may hold an operator's words about the order
// (a cancel or rejection reason): account deletion removes those for the person's orders, the
// status changes stay. Runs before the orders are anonymised (it finds them by their user).
import type { Executor } from "../db/db.server";

export const AUDIT_ACTIONS_WITH_WORDS = ["cancel", "cancel_refund", "refund_reject"] as const;

export async function anonymiseAudit(executor: Executor, userId: number) {
  const own = executor.selectFrom("orders").select("id").where("user_id", "=", userId);
  await executor
    .updateTable("admin_audit")
    .set({ detail: null })
    .where("order_id", "in", own)
    .where("action", "in", [...AUDIT_ACTIONS_WITH_WORDS])
    .execute();
}
