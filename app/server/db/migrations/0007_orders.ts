import type { Kysely } from "kysely";
import { withId } from "./helpers";

// Orders and payment. One canonical status per order (created, paid, assigned, picking,
// delivering, completed, cancelled, refunded) plus a payment status and a refund state; labels,
// percents, groups and allowed actions are derived in app/lib/order-status.ts. Money in fen.
//
// An order keeps a snapshot of what was ordered (address, pickup codes, counts, prices): editing
// an address or a campus's prices later never changes it. Account deletion blanks the person's
// fields and keeps the accounting row (number, amounts, status, times).
export async function up(db: Kysely<any>) {
  await withId(db, db.schema.createTable("orders"))
    // 'E' + yyyyMMdd (Shanghai) + 6 digits: the only identifier that leaves the server.
    .addColumn("order_number", "text", (col) => col.notNull().unique())
    // Null once the account is deleted (the anonymised accounting copy).
    .addColumn("user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("order_type", "text", (col) => col.notNull().defaultTo("express"))
    .addColumn("campus_code", "text", (col) => col.notNull())
    .addColumn("campus_name", "text", (col) => col.notNull())
    // The address snapshot (null after deletion).
    .addColumn("recipient_name", "text")
    .addColumn("recipient_phone", "text")
    .addColumn("recipient_dorm", "text")
    .addColumn("recipient_room", "text")
    .addColumn("delivery_address", "text")
    // JSON array of { company, pickupCode, trackingNumber, stationName, pickupType } (null after deletion).
    .addColumn("pickup_codes", "text")
    // JSON { pocket, small, medium, large } and their sum.
    .addColumn("package_counts", "text", (col) => col.notNull())
    .addColumn("parcel_count", "integer", (col) => col.notNull())
    .addColumn("remark", "text")
    // Prices computed on the server from the campus config: original − discount = amount (paid).
    .addColumn("original_fen", "integer", (col) => col.notNull())
    .addColumn("discount_fen", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("amount_fen", "integer", (col) => col.notNull())
    // The coupon this order reserved (the coupon issue's table; no foreign key until it exists).
    .addColumn("coupon_id", "integer")
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("payment_status", "text", (col) => col.notNull())
    // null, requested, processing, refunded, rejected, failed.
    .addColumn("refund_state", "text")
    .addColumn("refund_reason", "text")
    .addColumn("cancel_reason", "text")
    .addColumn("estimated_delivery_at", "text", (col) => col.notNull())
    // The checkout (id:version) the order was made from, for the audit…
    .addColumn("checkout_key", "text")
    // …and the idempotency key of creation: the same checkout makes one live order. Released
    // (null) when the order is cancelled or closed, so the same checkout may order again.
    .addColumn("idempotency_key", "text", (col) => col.unique())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("paid_at", "text")
    .addColumn("completed_at", "text")
    .addColumn("cancelled_at", "text")
    .addColumn("refunded_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("orders_user_idx").on("orders").columns(["user_id", "id"]).execute();
  await db.schema.createIndex("orders_status_idx").on("orders").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("orders_campus_idx").on("orders").columns(["campus_code", "status"]).execute();

  // The audit trail: every status change and action (the product rules' tracking timeline, not shown).
  await withId(db, db.schema.createTable("order_events"))
    .addColumn("order_id", "integer", (col) => col.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("from_status", "text")
    .addColumn("to_status", "text")
    // customer, operator, provider, system
    .addColumn("actor", "text", (col) => col.notNull())
    .addColumn("operator_id", "integer")
    // A reason or a provider code (null after account deletion).
    .addColumn("note", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("order_events_order_idx").on("order_events").columns(["order_id", "id"]).execute();

  // One payment per order: out_trade_no is the order number.
  await withId(db, db.schema.createTable("payments"))
    .addColumn("order_id", "integer", (col) => col.notNull().unique().references("orders.id").onDelete("cascade"))
    .addColumn("provider", "text", (col) => col.notNull())
    .addColumn("out_trade_no", "text", (col) => col.notNull().unique())
    .addColumn("amount_fen", "integer", (col) => col.notNull())
    .addColumn("prepay_id", "text")
    .addColumn("prepay_at", "text")
    // created, paid, closed, refunded
    .addColumn("state", "text", (col) => col.notNull())
    .addColumn("transaction_id", "text")
    // Null after account deletion.
    .addColumn("payer_openid", "text")
    .addColumn("success_time", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();

  await withId(db, db.schema.createTable("refunds"))
    .addColumn("order_id", "integer", (col) => col.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("out_refund_no", "text", (col) => col.notNull().unique())
    // cancel (a customer or operator cancel of a paid order: at once), request (after approval), auto
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("amount_fen", "integer", (col) => col.notNull())
    // requested, processing, succeeded, rejected, failed
    .addColumn("state", "text", (col) => col.notNull())
    .addColumn("reason", "text")
    .addColumn("refund_id", "text")
    .addColumn("operator_id", "integer")
    .addColumn("error", "text")
    .addColumn("decided_at", "text")
    .addColumn("succeeded_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("refunds_order_idx").on("refunds").columns(["order_id", "id"]).execute();
  await db.schema.createIndex("refunds_state_idx").on("refunds").columns(["state", "updated_at"]).execute();

  await withId(db, db.schema.createTable("reviews"))
    .addColumn("order_id", "integer", (col) => col.notNull().unique().references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("rating", "integer", (col) => col.notNull())
    .addColumn("comment", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["reviews", "refunds", "payments", "order_events", "orders"]) {
    await db.schema.dropTable(table).execute();
  }
}
