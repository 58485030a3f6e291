import type { Kysely } from "kysely";

// Grades and exams: per-user caches of what the school's system answered, like the
// timetable's (decision 005), and the student's choice of a messenger message on a new grade.
export async function up(db: Kysely<any>) {
  // How the school counts grades (its grade-word table, its 补考 and 重修 rules) as JSON;
  // null: the standard 4.0 table and the usual rules (app/lib/grades.ts DEFAULT_GRADE_SCALE).
  await db.schema.alterTable("schools").addColumn("grade_scale", "text").execute();

  // One row per user: every term's grades and the school's ranking, as sealed JSON (grades are
  // for their student's eyes only, so not even a database dump shows them).
  await db.schema
    .createTable("grades_cache")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("data_enc", "text", (col) => col.notNull())
    .addColumn("fetched_at", "text", (col) => col.notNull())
    .execute();

  // One row per user and term: the exam arrangements as JSON.
  await db.schema
    .createTable("exams_cache")
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("term", "text", (col) => col.notNull())
    .addColumn("data", "text", (col) => col.notNull())
    .addColumn("fetched_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("exams_cache_pk", ["user_id", "term"])
    .execute();

  // Whether a refresh that finds a new grade also sends the template message (the inbox item is always written).
  await db.schema
    .createTable("grade_settings")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("notify_new_grades", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["grade_settings", "exams_cache", "grades_cache"]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable("schools").dropColumn("grade_scale").execute();
}
