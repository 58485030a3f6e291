import type { Kysely } from "kysely";
import { withId } from "./helpers";

// Admin: the operators' audit log, the soft delete of orders, and the indexes that
// serve the admin lists.
//
// An operator's delete only hides the order from the admin pages and exports (deleted_at,
// deleted_by): the row, its payments, refunds and events stay for the audit and the accounting.
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("orders").addColumn("deleted_at", "text").execute();
  await db.schema.alterTable("orders").addColumn("deleted_by", "integer").execute();

  // The admin list: a status (one per tab group, or several for 'in progress'), not deleted,
  // newest first — with and without the campus filter. Counts per tab read the same indexes.
  // 'In progress' is four statuses: its rows (the open orders, few) are sorted after the lookup.
  await db.schema.createIndex("orders_admin_status_idx").on("orders").columns(["status", "deleted_at", "created_at"]).execute();
  await db.schema
    .createIndex("orders_admin_campus_idx")
    .on("orders")
    .columns(["campus_code", "status", "deleted_at", "created_at"])
    .execute();
  // The 'all' tab of one campus, newest first.
  await db.schema.createIndex("orders_admin_campus_all_idx").on("orders").columns(["campus_code", "created_at"]).execute();
  // Search by phone and by recipient name (the order number has its unique index); pickup codes
  // are searched among recent orders only (a station reuses its codes), by creation time.
  await db.schema.createIndex("orders_recipient_phone_idx").on("orders").column("recipient_phone").execute();
  await db.schema.createIndex("orders_recipient_name_idx").on("orders").column("recipient_name").execute();
  await db.schema.createIndex("orders_created_idx").on("orders").column("created_at").execute();
  // The daily summary: orders paid today.
  await db.schema.createIndex("orders_paid_idx").on("orders").column("paid_at").execute();

  // Every admin action: who (the operator and the name shown at the time), what, which order
  // (its number kept as text, so the row reads the same whatever happens to the order), when.
  // `detail` holds the operator's own words (a reason) or a status change, never the customer's
  // name, phone or address.
  await withId(db, db.schema.createTable("admin_audit"))
    .addColumn("operator_id", "integer", (col) => col.references("operators.id").onDelete("set null"))
    .addColumn("operator_name", "text", (col) => col.notNull())
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("order_id", "integer", (col) => col.references("orders.id").onDelete("set null"))
    .addColumn("order_number", "text")
    .addColumn("refund_id", "integer")
    .addColumn("detail", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("admin_audit_order_idx").on("admin_audit").columns(["order_number", "id"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("admin_audit").execute();
  for (const index of [
    "orders_paid_idx",
    "orders_created_idx",
    "orders_recipient_name_idx",
    "orders_recipient_phone_idx",
    "orders_admin_campus_all_idx",
    "orders_admin_campus_idx",
    "orders_admin_status_idx",
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.alterTable("orders").dropColumn("deleted_by").execute();
  await db.schema.alterTable("orders").dropColumn("deleted_at").execute();
}
