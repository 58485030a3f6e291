import type { Kysely } from "kysely";

// The timetable: a per-user, per-term cache of what the school's system answered, the
// school's term calendar (shared by its students), and each student's reminder switches and
// secret calendar-feed token.
export async function up(db: Kysely<any>) {
  // One row per user and term; `data` is the adapter's Timetable as JSON. Served for 7 days,
  // replaced by a refresh, kept (and shown with its age) while the school's system is down.
  await db.schema
    .createTable("timetable_cache")
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("term", "text", (col) => col.notNull())
    .addColumn("data", "text", (col) => col.notNull())
    .addColumn("fetched_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("timetable_cache_pk", ["user_id", "term"])
    .execute();

  // The school's current term, week-1 Monday and term list (the product rules' "school config"): not
  // personal, one row per school.
  await db.schema
    .createTable("school_term_info")
    .addColumn("school_code", "text", (col) => col.primaryKey())
    .addColumn("data", "text", (col) => col.notNull())
    .addColumn("fetched_at", "text", (col) => col.notNull())
    .execute();

  // The notification sheet's three switches (read by the notifications issue) and the secret
  // token of /schedule/calendar/<token>.ics.
  await db.schema
    .createTable("schedule_settings")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("course_reminder", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("substitute_reminder", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("announcement_reminder", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("calendar_token", "text", (col) => col.unique())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["schedule_settings", "school_term_info", "timetable_cache"]) {
    await db.schema.dropTable(table).execute();
  }
}
