import type { Kysely } from "kysely";

// The station's deadline (截止 / 请于…前取件) on the order: `pickup_deadline` is the earliest
// deadline among the order's parcels as an ISO timestamp (app/lib/pickup-deadline.ts), null when no
// parcel's SMS gave one. Each parcel keeps its own deadline (as written and as an instant) in the
// order's pickup_codes JSON. A courier's pick list of one campus sorts its live orders by it, so
// the index leads with the campus and the status.
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("orders").addColumn("pickup_deadline", "text").execute();
  await db.schema.createIndex("orders_pickup_deadline_idx").on("orders").columns(["campus_code", "status", "pickup_deadline"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("orders_pickup_deadline_idx").execute();
  await db.schema.alterTable("orders").dropColumn("pickup_deadline").execute();
}
