import type { Kysely } from "kysely";

// Reference data in the admin area. A dorm building or a pickup place that students
// may already have in an address or an order is never deleted: an operator turns it off, and it
// leaves the lists students choose from while every stored address and order keeps its text.
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("dorm_buildings").addColumn("enabled", "integer", (col) => col.notNull().defaultTo(1)).execute();
  await db.schema.alterTable("pickup_places").addColumn("enabled", "integer", (col) => col.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("pickup_places").dropColumn("enabled").execute();
  await db.schema.alterTable("dorm_buildings").dropColumn("enabled").execute();
}
