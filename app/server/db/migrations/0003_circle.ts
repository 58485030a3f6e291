import type { Kysely } from "kysely";
import { withId } from "./helpers";

// The circle: posts, their images, nested comments, likes, daily views, reports and bans.
// Counters on posts and comments are kept exact by the forum module (one transaction that locks
// the post row, changes the rows, then recounts), so they never drift from the rows.
export async function up(db: Kysely<any>) {
  await withId(db, db.schema.createTable("posts"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("category_id", "integer", (col) => col.notNull().references("forum_categories.id"))
    .addColumn("title", "text")
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("status", "text") // null | "ongoing" | "completed" (mutual-help posts)
    .addColumn("visibility", "text", (col) => col.notNull().defaultTo("public"))
    .addColumn("is_anonymous", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("view_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("comment_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("like_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("moderation", "text", (col) => col.notNull().defaultTo("visible")) // "visible" | "pending" | "hidden"
    .addColumn("reviewed_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  // The circle's lists: all (newest first), one category, one author's posts.
  await db.schema.createIndex("posts_list_idx").on("posts").columns(["moderation", "id"]).execute();
  await db.schema.createIndex("posts_category_idx").on("posts").columns(["category_id", "moderation", "id"]).execute();
  await db.schema.createIndex("posts_user_idx").on("posts").columns(["user_id", "id"]).execute();

  // Uploaded images: a random key names the files, so a URL says nothing about its uploader.
  // post_id is set when a post is published with the image; unattached ones are drafts' images.
  await withId(db, db.schema.createTable("uploads"))
    .addColumn("key", "text", (col) => col.notNull().unique())
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("post_id", "integer", (col) => col.references("posts.id").onDelete("set null"))
    .addColumn("position", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("width", "integer", (col) => col.notNull())
    .addColumn("height", "integer", (col) => col.notNull())
    .addColumn("bytes", "integer", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("uploads_post_idx").on("uploads").columns(["post_id", "position"]).execute();
  await db.schema.createIndex("uploads_user_idx").on("uploads").columns(["user_id", "created_at"]).execute();

  await withId(db, db.schema.createTable("comments"))
    .addColumn("post_id", "integer", (col) => col.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("parent_id", "integer", (col) => col.references("comments.id").onDelete("cascade"))
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("is_anonymous", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("like_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("moderation", "text", (col) => col.notNull().defaultTo("visible"))
    .addColumn("reviewed_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("comments_post_idx").on("comments").columns(["post_id", "id"]).execute();
  await db.schema.createIndex("comments_parent_idx").on("comments").column("parent_id").execute();
  await db.schema.createIndex("comments_user_idx").on("comments").column("user_id").execute();
  await db.schema.createIndex("comments_moderation_idx").on("comments").columns(["moderation", "id"]).execute();

  // One like per user per post and per comment: the primary keys are the unique constraints.
  await db.schema
    .createTable("post_likes")
    .addColumn("post_id", "integer", (col) => col.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("post_likes_pk", ["post_id", "user_id"])
    .execute();
  await db.schema.createIndex("post_likes_user_idx").on("post_likes").column("user_id").execute();

  await db.schema
    .createTable("comment_likes")
    .addColumn("comment_id", "integer", (col) => col.notNull().references("comments.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("comment_likes_pk", ["comment_id", "user_id"])
    .execute();
  await db.schema.createIndex("comment_likes_user_idx").on("comment_likes").column("user_id").execute();

  // A view counts once per user per Shanghai day.
  await db.schema
    .createTable("post_views")
    .addColumn("post_id", "integer", (col) => col.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("post_views_pk", ["post_id", "user_id", "day"])
    .execute();
  await db.schema.createIndex("post_views_user_idx").on("post_views").column("user_id").execute();

  // Reports: one per reporter per post or comment. post_id is the post of the target (for
  // cleanup when a post goes). resolved_at is set when an operator reviews the target.
  await withId(db, db.schema.createTable("reports"))
    .addColumn("target_type", "text", (col) => col.notNull()) // "post" | "comment"
    .addColumn("target_id", "integer", (col) => col.notNull())
    .addColumn("post_id", "integer", (col) => col.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("reason", "text", (col) => col.notNull()) // "spam" | "offensive" | "off_topic" | "other"
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("resolved_at", "text")
    .addUniqueConstraint("reports_once_unique", ["target_type", "target_id", "user_id"])
    .execute();
  await db.schema.createIndex("reports_open_idx").on("reports").columns(["resolved_at", "target_type", "target_id"]).execute();
  await db.schema.createIndex("reports_post_idx").on("reports").column("post_id").execute();
  await db.schema.createIndex("reports_user_idx").on("reports").column("user_id").execute();

  // Authors an operator has banned from posting and commenting.
  await db.schema
    .createTable("forum_bans")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("operator_id", "integer", (col) => col.references("operators.id").onDelete("set null"))
    .addColumn("reason", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["forum_bans", "reports", "post_views", "comment_likes", "post_likes", "comments", "uploads", "posts"]) {
    await db.schema.dropTable(table).execute();
  }
}
