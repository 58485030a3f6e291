// The operators' audit log: every admin action (who, what, which order, when), moderation
// actions, and operator logins, logouts and failed logins (decision 033). Written in the
// transaction of the change where this module makes the change itself (complete, delete), and
// right after the orders issue's functions return where they run their own transactions (the
// courier steps, cancel, refund decisions). Read newest first, by the primary key or, for one
// order, by admin_audit_order_idx.
import { AUDIT_PAGE_SIZE } from "~/lib/admin-orders";
import type { Operator } from "../auth/operator.server";
import { db, now, type Executor } from "../db/db.server";

export type AuditAction =
  | "complete"
  | "assigned"
  | "picking"
  | "delivering"
  | "cancel"
  | "cancel_refund"
  | "delivery_failed"
  | "delete"
  | "refund_approve"
  | "refund_reject"
  | "export"
  // Reference data (reference.server.ts).
  | "school_create"
  | "school_update"
  | "campus_create"
  | "campus_update"
  | "building_add"
  | "building_enable"
  | "building_disable"
  | "place_add"
  | "place_enable"
  | "place_disable"
  | "prices_update"
  | "slot_create"
  | "slot_update"
  | "slot_delete"
  | "slot_capacity"
  // Moderation (forum/moderation.server.ts) and operator access (auth/operator.server.ts).
  | "moderation_hide"
  | "moderation_restore"
  | "moderation_delete"
  | "moderation_ban"
  | "moderation_unban"
  | "operator_login"
  | "operator_login_failed"
  | "operator_logout"
  // Riders (riders/riders.server.ts, riders/run.server.ts).
  | "rider_create"
  | "rider_availability"
  | "rider_assign"
  | "rider_reassign"
  | "handover"
  | "handover_failed"
  | "size_supplement";

export type AuditEntry = {
  action: AuditAction;
  order?: { id: number; order_number: string } | null;
  refundId?: number | null;
  detail?: string | null;
  at?: string;
};

/** Who acted: an operator, or (for a failed login) no known operator, under the name shown. */
export type AuditActor = Pick<Operator, "display_name"> & { id: number | null };

export async function recordAudit(executor: Executor, operator: AuditActor, entry: AuditEntry) {
  await executor
    .insertInto("admin_audit")
    .values({
      operator_id: operator.id,
      operator_name: operator.display_name,
      action: entry.action,
      order_id: entry.order?.id ?? null,
      order_number: entry.order?.order_number ?? null,
      refund_id: entry.refundId ?? null,
      detail: entry.detail ? entry.detail.slice(0, 500) : null,
      created_at: entry.at ?? now(),
    })
    .execute();
}

export type AuditRow = {
  id: number;
  operatorName: string;
  action: string;
  orderNumber: string | null;
  detail: string | null;
  createdAt: string;
};

/** Newest first, AUDIT_PAGE_SIZE at a time before the `before` id; one order's rows when given. */
export async function listAudit(options: { orderNumber?: string | null; before?: number | null; limit?: number } = {}) {
  const limit = options.limit ?? AUDIT_PAGE_SIZE;
  let query = db().selectFrom("admin_audit").select(["id", "operator_name", "action", "order_number", "detail", "created_at"]);
  if (options.orderNumber) query = query.where("order_number", "=", options.orderNumber);
  if (options.before) query = query.where("id", "<", options.before);
  const rows = await query.orderBy("id", "desc").limit(limit + 1).execute();
  const items: AuditRow[] = rows.slice(0, limit).map((row) => ({
    id: row.id,
    operatorName: row.operator_name,
    action: row.action,
    orderNumber: row.order_number,
    detail: row.detail,
    createdAt: row.created_at,
  }));
  return { items, next: rows.length > limit ? items[items.length - 1]!.id : null };
}
