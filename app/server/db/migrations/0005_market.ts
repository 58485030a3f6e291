import type { Kysely } from "kysely";
import { withId } from "./helpers";

// The market (express pickup): reference data (the size guide, the delivery schedule, pickup
// places) and each user's own rows (addresses, the checkout, feature requests).
export async function up(db: Kysely<any>) {
  // The size guide: each package type's standards, with examples (JSON array of strings).
  await withId(db, db.schema.createTable("package_type_standards"))
    .addColumn("campus_code", "text", (col) => col.notNull().references("campuses.code").onDelete("cascade"))
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("examples", "text", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("package_type_standards_type_idx")
    .on("package_type_standards")
    .columns(["campus_code", "type", "sort_order"])
    .execute();

  // Order windows and their delivery windows, in Shanghai wall-clock "HH:MM".
  await withId(db, db.schema.createTable("delivery_slots"))
    .addColumn("order_start_time", "text", (col) => col.notNull())
    .addColumn("order_end_time", "text", (col) => col.notNull())
    .addColumn("delivery_start_time", "text", (col) => col.notNull())
    .addColumn("delivery_end_time", "text", (col) => col.notNull())
    .addColumn("estimated_time", "text", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .execute();

  // The places a parcel can be picked up from, per campus (the edit dialog's select).
  await withId(db, db.schema.createTable("pickup_places"))
    .addColumn("campus_code", "text", (col) => col.notNull().references("campuses.code").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("pickup_places_campus_idx").on("pickup_places").columns(["campus_code", "sort_order"]).execute();

  await withId(db, db.schema.createTable("addresses"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("campus_code", "text", (col) => col.notNull())
    .addColumn("building", "text", (col) => col.notNull())
    .addColumn("room", "text", (col) => col.notNull())
    .addColumn("is_default", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("addresses_user_idx").on("addresses").columns(["user_id", "is_default"]).execute();

  // One checkout per user: what the confirm sheet shows. `version` grows with every change; with
  // the id it is the idempotency key of order creation.
  await withId(db, db.schema.createTable("checkouts"))
    .addColumn("user_id", "integer", (col) => col.notNull().unique().references("users.id").onDelete("cascade"))
    .addColumn("campus_code", "text")
    .addColumn("sms_text", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("entries", "text", (col) => col.notNull().defaultTo("[]"))
    .addColumn("counts", "text", (col) => col.notNull().defaultTo("{}"))
    .addColumn("address_id", "integer", (col) => col.references("addresses.id").onDelete("set null"))
    .addColumn("remark", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("version", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();

  // "I need this feature" on the supermarket and errand tabs.
  await withId(db, db.schema.createTable("feature_requests"))
    .addColumn("user_id", "integer", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("feature_type", "text", (col) => col.notNull())
    .addColumn("user_agent", "text")
    .addColumn("platform", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("feature_requests_type_idx").on("feature_requests").columns(["feature_type", "created_at"]).execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["feature_requests", "checkouts", "addresses", "pickup_places", "delivery_slots", "package_type_standards"]) {
    await db.schema.dropTable(table).execute();
  }
}
