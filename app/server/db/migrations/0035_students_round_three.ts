import type { Kysely } from "kysely";

// Students, round three (decision 035).
// - A mutual-help request names its class (helpClassKey) and the meeting it is for (its date and
//   the instant it starts): one student asks once per class and date (the unique index), and
//   nobody signs up for a class that has begun. Requests from before have none (nulls never clash).
// - The circle's notices (replies, @mentions, the day's likes) each have a switch; no row: all on.
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("notice_settings")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("replies", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("mentions", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("likes", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.alterTable("mutual_help_requests").addColumn("class_key", "text").execute();
  await db.schema.alterTable("mutual_help_requests").addColumn("class_date", "text").execute();
  await db.schema.alterTable("mutual_help_requests").addColumn("class_starts_at", "text").execute();
  await db.schema
    .createIndex("mutual_help_requests_once")
    .on("mutual_help_requests")
    .columns(["user_id", "class_key", "class_date"])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("notice_settings").execute();
  await db.schema.dropIndex("mutual_help_requests_once").execute();
  await db.schema.alterTable("mutual_help_requests").dropColumn("class_starts_at").execute();
  await db.schema.alterTable("mutual_help_requests").dropColumn("class_date").execute();
  await db.schema.alterTable("mutual_help_requests").dropColumn("class_key").execute();
}
