import type { Kysely } from "kysely";

// The dark appearance: light, dark or following the phone, stored with the user like
// the colour theme (a cookie when logged out).
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("users").addColumn("appearance", "text").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("users").dropColumn("appearance").execute();
}
