import type { Kysely } from "kysely";
import { withId } from "./helpers";

// Mutual help that can be answered: the request behind a mutual-help post keeps the
// requester's contact out of the post's text (shown only to logged-in students on the post page),
// and each 我来帮忙 is an offer with the helper's contact; both sides are told in their inbox.
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("mutual_help_requests")
    .addColumn("post_id", "integer", (col) => col.primaryKey().references("posts.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("contact", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();

  await withId(db, db.schema.createTable("mutual_help_offers"))
    .addColumn("post_id", "integer", (col) => col.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("helper_user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("helper_contact", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addUniqueConstraint("mutual_help_offers_once", ["post_id", "helper_user_id"])
    .execute();
  await db.schema.createIndex("mutual_help_offers_helper").on("mutual_help_offers").columns(["helper_user_id"]).execute();
  await db.schema.createIndex("mutual_help_requests_user").on("mutual_help_requests").columns(["user_id"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("mutual_help_offers").execute();
  await db.schema.dropTable("mutual_help_requests").execute();
}
