import type { Kysely } from "kysely";

// Nothing typed is lost: a post or comment sent after the session ended is kept here
// for 30 minutes, keyed by a random id in a signed httpOnly cookie, until the login brings the
// student back to the page (see forum/draft-stash.server.ts). Text only, bounded in size.
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("draft_stash")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "integer", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("path", "text", (col) => col.notNull())
    .addColumn("payload", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("draft_stash_expires_idx").on("draft_stash").column("expires_at").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("draft_stash").execute();
}
