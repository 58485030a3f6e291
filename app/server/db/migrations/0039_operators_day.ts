import type { Kysely } from "kysely";

// The operators' day (decision 039):
// - slot_capacities: how many orders one delivery slot takes per campus (no row: no limit);
// - slot_loads: the places taken in one campus's delivery at one promised instant, counted up by
//   a conditional UPDATE when a payment is confirmed (n < capacity), so two payments at once
//   never both take the last place;
// - orders_slot_created_idx: the admin lists filtered by a slot (the promised instant), newest first.
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("slot_capacities")
    .addColumn("slot_id", "integer", (col) => col.notNull())
    .addColumn("campus_code", "text", (col) => col.notNull())
    .addColumn("capacity", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("slot_capacities_pk", ["slot_id", "campus_code"])
    .execute();
  await db.schema
    .createTable("slot_loads")
    .addColumn("campus_code", "text", (col) => col.notNull())
    .addColumn("delivery_at", "text", (col) => col.notNull())
    .addColumn("n", "integer", (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("slot_loads_pk", ["campus_code", "delivery_at"])
    .execute();
  await db.schema.createIndex("orders_slot_created_idx").on("orders").columns(["estimated_delivery_at", "created_at"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("orders_slot_created_idx").execute();
  await db.schema.dropTable("slot_loads").execute();
  await db.schema.dropTable("slot_capacities").execute();
}
