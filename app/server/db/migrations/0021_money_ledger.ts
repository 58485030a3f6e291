import type { Kysely } from "kysely";

// Money keeps its invariants (decision 030):
// - orders.unit_prices: the price of each size, in fen, when the order was priced (JSON
//   {"pocket":120,…}), so the order page shows the breakdown the student was charged whatever the
//   campus's prices are since; null on orders placed before this migration;
// - refunds.succeeded_at is read by day for the daily ledger (refunds_succeeded_idx), as
//   orders.paid_at is by orders_paid_idx and payments.success_time by payments_success_idx.
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("orders").addColumn("unit_prices", "text").execute();
  await db.schema.createIndex("refunds_succeeded_idx").on("refunds").column("succeeded_at").execute();
  await db.schema.createIndex("payments_success_idx").on("payments").column("success_time").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("payments_success_idx").execute();
  await db.schema.dropIndex("refunds_succeeded_idx").execute();
  await db.schema.alterTable("orders").dropColumn("unit_prices").execute();
}
