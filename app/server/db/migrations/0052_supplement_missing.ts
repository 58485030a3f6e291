import type { Kysely } from "kysely";

// A 配送失败 that covers the supplemented parcel (decision 052): order_supplements.missing_at
// records when the delivery failed without it. A paid supplement so marked is refunded on its
// own trade (at once, or when a late payment arrives); the invariant checker reads it.
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("order_supplements").addColumn("missing_at", "text").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("order_supplements").dropColumn("missing_at").execute();
}
