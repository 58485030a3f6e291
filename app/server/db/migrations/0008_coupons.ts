import type { Kysely } from "kysely";
import { withId } from "./helpers";

// Coupons and the invite campaign. Templates and grant rules are data (seeded from
// app/lib/coupon-rules.ts): every coupon text on every page is rendered from them. A granted
// coupon copies its template's terms, so changing a template never changes a coupon someone holds.
//
// Concurrency lives in unique constraints:
// - coupon_grants (user_id, grant_key): the new-user grant ('new_user'), each assist's reward
//   ('assist:<id>') and each milestone ('milestone:5') happen once per person;
// - assists.assistant_user_id: each user assists once in their life;
// - user_coupons.order_id: an order holds at most one coupon, and a coupon is reserved only by a
//   conditional UPDATE (… WHERE status = 'unused'), so two orders never share one.
export async function up(db: Kysely<any>) {
  await withId(db, db.schema.createTable("coupon_templates"))
    .addColumn("code", "text", (col) => col.notNull().unique())
    .addColumn("name", "text", (col) => col.notNull())
    // percentage: the parcel costs percent_paid % (5折 = 50); fixed: the parcel costs fixed_price_fen.
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("percent_paid", "integer")
    .addColumn("fixed_price_fen", "integer")
    // Compared with the order's total before discount.
    .addColumn("min_amount_fen", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("valid_days", "integer", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();

  // new_user (threshold 0), assist (the inviter, per assisted new user; threshold 0), milestone
  // (the inviter, once, when their completed invites reach `threshold`).
  await withId(db, db.schema.createTable("coupon_grant_rules"))
    .addColumn("event", "text", (col) => col.notNull())
    .addColumn("threshold", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("template_id", "integer", (col) => col.notNull().references("coupon_templates.id"))
    .addColumn("quantity", "integer", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .addUniqueConstraint("coupon_grant_rules_unique", ["event", "threshold", "template_id"])
    .execute();

  // One row per grant a person received: the marker that makes it happen once.
  await withId(db, db.schema.createTable("coupon_grants"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("grant_key", "text", (col) => col.notNull())
    // student_login, invite_register, assist, milestone
    .addColumn("via", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addUniqueConstraint("coupon_grants_once", ["user_id", "grant_key"])
    .execute();

  await withId(db, db.schema.createTable("user_coupons"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("grant_id", "integer", (col) => col.references("coupon_grants.id").onDelete("set null"))
    .addColumn("template_id", "integer", (col) => col.references("coupon_templates.id").onDelete("set null"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("percent_paid", "integer")
    .addColumn("fixed_price_fen", "integer")
    .addColumn("min_amount_fen", "integer", (col) => col.notNull())
    // unused, reserved (by order_id, unpaid), used (by order_id, paid)
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("order_id", "integer", (col) => col.unique().references("orders.id").onDelete("set null"))
    .addColumn("used_at", "text")
    // The end of the last valid day, Asia/Shanghai, as a UTC instant.
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("user_coupons_wallet_idx").on("user_coupons").columns(["user_id", "status", "expires_at"]).execute();

  // The opaque inviter id of invite links (never the openid). The invite code itself is derived
  // from the openid (last 8 characters, uppercased).
  await db.schema
    .createTable("invite_links")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("token", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();

  // What an inviter sees: a new user opened their link (pending; expired after 7 days) or assisted
  // (completed). A deleted invitee leaves a completed record without a person (invitee null).
  await withId(db, db.schema.createTable("invites"))
    .addColumn("inviter_user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("invitee_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (col) => col.notNull())
    // The assist that completed it (its reward is the grant 'assist:<id>').
    .addColumn("assist_id", "integer")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("completed_at", "text")
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addUniqueConstraint("invites_pair", ["inviter_user_id", "invitee_user_id"])
    .execute();
  await db.schema.createIndex("invites_inviter_idx").on("invites").columns(["inviter_user_id", "created_at"]).execute();
  await db.schema.createIndex("invites_invitee_idx").on("invites").columns(["invitee_user_id", "status"]).execute();

  // The assists: each user assists once (unique assistant; null once the assistant's account is deleted).
  await withId(db, db.schema.createTable("assists"))
    .addColumn("inviter_user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("assistant_user_id", "integer", (col) => col.unique().references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("assists_inviter_idx").on("assists").columns(["inviter_user_id", "created_at"]).execute();

  // The coupon the student picked on the order-confirm sheet (no row: the best one; coupon_id
  // null: none). Cleared when an order is paid.
  await db.schema
    .createTable("coupon_choices")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("coupon_id", "integer")
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();

  // The invite-register dialog stores the student id as claimed (unverified): it never binds a
  // student account (only an academic login does).
  await db.schema.alterTable("users").addColumn("claimed_student_id", "text").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("users").dropColumn("claimed_student_id").execute();
  for (const table of ["coupon_choices", "assists", "invites", "invite_links", "user_coupons", "coupon_grants", "coupon_grant_rules", "coupon_templates"]) {
    await db.schema.dropTable(table).execute();
  }
}
