import type { Kysely } from "kysely";
import { withId } from "./helpers";

// Proof by photo and a size found wrong at pickup (decision 047):
// - order_supplements: the second payment of an order when the rider finds a parcel bigger than
//   declared (one per order). Its own out_trade_no ('E…S'), the difference computed by the server
//   from the price table, and its state: offered → paid (the student accepted and the provider
//   confirmed) or declined (the parcel stays at the station and is refunded) or void (the order
//   left the pickup first). order_supplements_success_idx reads the day's paid supplements for the
//   daily ledger and the reconciliation, as payments_success_idx does the orders' payments.
// - refunds.out_trade_no: the trade a refund goes against; null is the order's own payment.
// - orders_slot_idx (estimated_delivery_at, status) is folded into orders_slot_created_idx
//   (estimated_delivery_at, created_at): both lead with the promised instant, the slot's rows
//   are a few hundred, and the lists filtered by a slot need the creation order after it.
export async function up(db: Kysely<any>) {
  await withId(db, db.schema.createTable("order_supplements"))
    .addColumn("order_id", "integer", (col) => col.notNull().unique().references("orders.id").onDelete("cascade"))
    .addColumn("out_trade_no", "text", (col) => col.notNull().unique())
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("declared_size", "text", (col) => col.notNull())
    .addColumn("real_size", "text", (col) => col.notNull())
    .addColumn("amount_fen", "integer", (col) => col.notNull())
    .addColumn("state", "text", (col) => col.notNull())
    .addColumn("operator_id", "integer", (col) => col.references("operators.id").onDelete("set null"))
    .addColumn("prepay_id", "text")
    .addColumn("transaction_id", "text")
    .addColumn("payer_openid", "text")
    .addColumn("success_time", "text")
    .addColumn("decided_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("order_supplements_success_idx").on("order_supplements").column("success_time").execute();
  await db.schema.alterTable("refunds").addColumn("out_trade_no", "text").execute();
  await db.schema.dropIndex("orders_slot_idx").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.createIndex("orders_slot_idx").on("orders").columns(["estimated_delivery_at", "status"]).execute();
  await db.schema.alterTable("refunds").dropColumn("out_trade_no").execute();
  await db.schema.dropIndex("order_supplements_success_idx").execute();
  await db.schema.dropTable("order_supplements").execute();
}
