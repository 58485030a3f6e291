import type { Kysely } from "kysely";
import { withId } from "./helpers";

export async function up(db: Kysely<any>) {
  await db.schema.alterTable("users").addColumn("deletion_requested_at", "text").execute();
  await db.schema.createIndex("users_deletion_idx").on("users").column("deletion_requested_at").execute();

  // One-use login captchas: only a keyed hash of the answer is stored.
  await db.schema
    .createTable("captchas")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("answer_hash", "text", (col) => col.notNull())
    .addColumn("image", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("captchas_expiry_idx").on("captchas").column("expires_at").execute();

  // Failed and successful logins, for the per-account lock and the per-IP limit.
  await withId(db, db.schema.createTable("login_attempts"))
    .addColumn("scope", "text", (col) => col.notNull()) // "account" | "ip" | "admin"
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("outcome", "text", (col) => col.notNull()) // "success" | "wrong_password" | "failure"
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("login_attempts_key_idx").on("login_attempts").columns(["scope", "key", "created_at"]).execute();

  // The OAuth state parameter is a random key; the return path and purpose stay here.
  await db.schema
    .createTable("oauth_states")
    .addColumn("state", "text", (col) => col.primaryKey())
    .addColumn("purpose", "text", (col) => col.notNull()) // "user" | "operator"
    .addColumn("return_path", "text", (col) => col.notNull())
    .addColumn("session_id", "text")
    .addColumn("operator_id", "integer")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("used_at", "text")
    .execute();

  // The academic system's own session behind ours (encrypted cookies), renewed silently.
  await db.schema
    .createTable("academic_sessions")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("state_enc", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();

  await withId(db, db.schema.createTable("operators"))
    .addColumn("username", "text", (col) => col.notNull().unique())
    .addColumn("display_name", "text", (col) => col.notNull())
    .addColumn("password_hash", "text", (col) => col.notNull())
    .addColumn("role", "text", (col) => col.notNull().defaultTo("operator"))
    .addColumn("openid", "text", (col) => col.unique())
    .addColumn("disabled", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("last_login_at", "text")
    .execute();

  await db.schema
    .createTable("operator_sessions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("operator_id", "integer", (col) => col.notNull().references("operators.id").onDelete("cascade"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("ended_at", "text")
    .execute();
  await db.schema.createIndex("operator_sessions_operator_idx").on("operator_sessions").column("operator_id").execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["operator_sessions", "operators", "academic_sessions", "oauth_states", "login_attempts", "captchas"]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex("users_deletion_idx").execute();
  await db.schema.alterTable("users").dropColumn("deletion_requested_at").execute();
}
