import type { Kysely } from "kysely";

// Riders run a delivery slot from their phones (decision 038):
// - operators.phone and operators.available: a rider's number for the team and whether the admin
//   may give them a run today (riders are operators with the role 'rider');
// - orders.rider_id: who carries the order (set by an admin, changed by a reassignment);
//   orders.handover_code: the 4 digits the student tells the rider at the door, made at the first
//   assignment; handover_failures: wrong codes typed for this order (a few, then the rider must
//   take a photo instead); delivered_by: how 已送达 was proved ('code' or 'photo');
//   delivery_photo: the stored file's name of the proof photo (never a public upload name);
// - parcel_picks: one row per parcel (the order and the parcel's place in its pickup list) the
//   rider has in hand, so 已取到 is per parcel and kept on the server;
// - orders_slot_idx serves the pick list (one promised delivery time = one slot), and
//   orders_rider_idx a rider's run and the roster's counts.
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("operators").addColumn("phone", "text").execute();
  await db.schema.alterTable("operators").addColumn("available", "integer", (col) => col.notNull().defaultTo(1)).execute();
  await db.schema.createIndex("operators_role_idx").on("operators").columns(["role", "id"]).execute();

  await db.schema.alterTable("orders").addColumn("rider_id", "integer", (col) => col.references("operators.id").onDelete("set null")).execute();
  await db.schema.alterTable("orders").addColumn("handover_code", "text").execute();
  await db.schema.alterTable("orders").addColumn("handover_failures", "integer", (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("orders").addColumn("delivered_by", "text").execute();
  await db.schema.alterTable("orders").addColumn("delivery_photo", "text").execute();
  await db.schema.createIndex("orders_slot_idx").on("orders").columns(["estimated_delivery_at", "status"]).execute();
  await db.schema.createIndex("orders_rider_idx").on("orders").columns(["rider_id", "estimated_delivery_at"]).execute();

  await db.schema
    .createTable("parcel_picks")
    .addColumn("order_id", "integer", (col) => col.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("operator_id", "integer", (col) => col.references("operators.id").onDelete("set null"))
    .addColumn("picked_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("parcel_picks_pk", ["order_id", "position"])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("parcel_picks").execute();
  await db.schema.dropIndex("orders_rider_idx").execute();
  await db.schema.dropIndex("orders_slot_idx").execute();
  for (const column of ["delivery_photo", "delivered_by", "handover_failures", "handover_code", "rider_id"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  await db.schema.dropIndex("operators_role_idx").execute();
  await db.schema.alterTable("operators").dropColumn("available").execute();
  await db.schema.alterTable("operators").dropColumn("phone").execute();
}
