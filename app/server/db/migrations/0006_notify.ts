import type { Kysely } from "kysely";
import { withId } from "./helpers";

// Notifications: the outbox every messenger message goes through, the in-app inbox,
// one-time subscribe consents and 'later' snoozes per user per subscribe template, the
// messenger API's server tokens (shared by every instance), and the course-reminder bookkeeping.
export async function up(db: Kysely<any>) {
  // One row per message to send. `user_id` is the person it is for or about (the customer of a
  // NEW_ORDER to an operator), so deleting that person deletes it; `operator_id` when an operator
  // receives it. Claimed by `claim_token` until `claimed_until`, so two instances never send one
  // twice; the id is the provider's client_msg_id (its own de-duplication).
  await withId(db, db.schema.createTable("outbox_messages"))
    .addColumn("user_id", "integer", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("operator_id", "integer", (col) => col.references("operators.id").onDelete("cascade"))
    .addColumn("openid", "text", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("template_key", "text") // EXPRESS_ORDER | NEW_ORDER | DELIVERY_COMPLETED | COURSE_REMINDER
    .addColumn("subscribe_key", "text") // the one-time subscribe fallback (or the only channel)
    .addColumn("channel", "text", (col) => col.notNull()) // "template" | "subscribe"
    .addColumn("data", "text", (col) => col.notNull()) // the template's named fields, JSON
    .addColumn("link", "text")
    .addColumn("state", "text", (col) => col.notNull().defaultTo("pending")) // pending | sending | sent | undeliverable | cancelled | expired
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (col) => col.notNull())
    .addColumn("claim_token", "text")
    .addColumn("claimed_until", "text")
    .addColumn("last_error", "text")
    .addColumn("provider_msgid", "text")
    .addColumn("dedupe_key", "text", (col) => col.unique())
    .addColumn("expires_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema.createIndex("outbox_due_idx").on("outbox_messages").columns(["state", "next_attempt_at"]).execute();
  await db.schema.createIndex("outbox_user_idx").on("outbox_messages").column("user_id").execute();
  await db.schema.createIndex("outbox_operator_idx").on("outbox_messages").column("operator_id").execute();

  // The in-app inbox (/backpack/inbox). `actor_user_id` (who replied or liked) is never shown;
  // it lets deleting that person remove what they caused. `dedupe_key` makes an event count once
  // (a like toggled twice, an order status reported twice).
  await withId(db, db.schema.createTable("inbox_items"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("actor_user_id", "integer", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("data", "text", (col) => col.notNull())
    .addColumn("link", "text")
    .addColumn("dedupe_key", "text")
    .addColumn("read_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addUniqueConstraint("inbox_items_dedupe_uq", ["user_id", "dedupe_key"])
    .execute();
  await db.schema.createIndex("inbox_items_list_idx").on("inbox_items").columns(["user_id", "id"]).execute();
  await db.schema.createIndex("inbox_items_unread_idx").on("inbox_items").columns(["user_id", "read_at"]).execute();
  await db.schema.createIndex("inbox_items_actor_idx").on("inbox_items").column("actor_user_id").execute();

  // A one-time subscribe authorization per user per template: valid 7 days, one send.
  await db.schema
    .createTable("subscribe_consents")
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("template_key", "text", (col) => col.notNull())
    .addColumn("confirmed_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("used_at", "text")
    .addColumn("outbox_id", "integer")
    .addColumn("reserved", "text") // the confirm that granted it (a replayed return is ignored)
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("subscribe_consents_pk", ["user_id", "template_key"])
    .execute();

  // 'Later' on the subscribe widget: hidden until `until` (one hour).
  await db.schema
    .createTable("subscribe_snoozes")
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("template_key", "text", (col) => col.notNull())
    .addColumn("until", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("subscribe_snoozes_pk", ["user_id", "template_key"])
    .execute();

  // The server access token and the JS-SDK ticket, sealed, one row each per app id.
  await db.schema
    .createTable("messenger_tokens")
    .addColumn("name", "text", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();

  // One row per class occurrence a student is reminded of: the unique key makes two instances
  // (or two runs) schedule and queue it once.
  await withId(db, db.schema.createTable("course_reminders"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("occurrence_key", "text", (col) => col.notNull())
    .addColumn("course_name", "text", (col) => col.notNull())
    .addColumn("place", "text", (col) => col.notNull())
    .addColumn("time_text", "text", (col) => col.notNull()) // '11月24日 周一 08:10-09:40'
    .addColumn("starts_at", "text", (col) => col.notNull())
    .addColumn("ends_at", "text", (col) => col.notNull())
    .addColumn("remind_at", "text", (col) => col.notNull())
    .addColumn("state", "text", (col) => col.notNull()) // scheduled | queued | cancelled | missed
    .addColumn("outbox_id", "integer")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addUniqueConstraint("course_reminders_occurrence_uq", ["user_id", "occurrence_key"])
    .execute();
  await db.schema.createIndex("course_reminders_due_idx").on("course_reminders").columns(["state", "remind_at"]).execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["course_reminders", "messenger_tokens", "subscribe_snoozes", "subscribe_consents", "inbox_items", "outbox_messages"]) {
    await db.schema.dropTable(table).execute();
  }
}
