import type { Kysely } from "kysely";
import { withId } from "./helpers";

export async function up(db: Kysely<any>) {
  await withId(db, db.schema.createTable("users"))
    .addColumn("nickname", "text")
    .addColumn("avatar_url", "text")
    .addColumn("phone", "text")
    .addColumn("theme", "text")
    .addColumn("campus_code", "text")
    .addColumn("openid", "text", (col) => col.unique())
    .addColumn("unionid", "text")
    .addColumn("wechat_nickname", "text")
    .addColumn("wechat_avatar", "text")
    .addColumn("wechat_sex", "integer")
    .addColumn("wechat_city", "text")
    .addColumn("wechat_province", "text")
    .addColumn("wechat_country", "text")
    .addColumn("wechat_authorized_at", "text")
    .addColumn("school_code", "text")
    .addColumn("student_id", "text")
    .addColumn("password_enc", "text")
    .addColumn("real_name", "text")
    .addColumn("class_name", "text")
    .addColumn("college", "text")
    .addColumn("student_bound_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addUniqueConstraint("users_student_account_unique", ["school_code", "student_id"])
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("device_id", "text", (col) => col.notNull())
    .addColumn("platform", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("ended_at", "text")
    .addColumn("end_reason", "text")
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").columns(["user_id", "ended_at"]).execute();

  await db.schema
    .createTable("schools")
    .addColumn("code", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("system", "text", (col) => col.notNull())
    .addColumn("base_url", "text")
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("enabled", "integer", (col) => col.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable("campuses")
    .addColumn("code", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable("dorm_buildings"))
    .addColumn("campus_code", "text", (col) => col.notNull().references("campuses.code").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("dorm_buildings_campus_idx").on("dorm_buildings").columns(["campus_code", "sort_order"]).execute();

  await db.schema
    .createTable("package_types")
    .addColumn("campus_code", "text", (col) => col.notNull().references("campuses.code").onDelete("cascade"))
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("price_fen", "integer", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("package_types_pk", ["campus_code", "type"])
    .execute();

  await db.schema
    .createTable("forum_categories")
    .addColumn("id", "integer", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("icon", "text", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["forum_categories", "package_types", "dorm_buildings", "campuses", "schools", "sessions", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
