import type { Kysely } from "kysely";
import { withId } from "./helpers";

// The recognition correction loop (decision 034): a student's answer to "share the original
// message" (asked once), and, with consent, the masked original message of a parcel the student
// corrected, what was recognised and what was entered. Rows expire after 90 days and go with the account.
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("recognition_consents")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("consent", "integer", (col) => col.notNull())
    .addColumn("decided_at", "text", (col) => col.notNull())
    .execute();
  await withId(db, db.schema.createTable("recognition_corrections"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("sender_tag", "text", (col) => col.notNull())
    .addColumn("original", "text", (col) => col.notNull())
    .addColumn("recognized", "text", (col) => col.notNull())
    .addColumn("entered", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  // The admin page lists by sender tag, newest first; expiry deletes by age; deletion by user.
  await db.schema.createIndex("recognition_corrections_tag_idx").on("recognition_corrections").columns(["sender_tag", "created_at"]).execute();
  await db.schema.createIndex("recognition_corrections_created_idx").on("recognition_corrections").columns(["created_at"]).execute();
  await db.schema.createIndex("recognition_corrections_user_idx").on("recognition_corrections").columns(["user_id"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("recognition_corrections").execute();
  await db.schema.dropTable("recognition_consents").execute();
}
