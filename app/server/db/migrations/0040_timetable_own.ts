import type { Kysely } from "kysely";
import { withId } from "./helpers";

// The timetable students switch for (decision 040).
// - timetable_edits: a student's own courses and local overrides of the school's courses, per
//   term, in rows of their own so a refresh of timetable_cache never touches them. `previous`
//   holds the row's editable fields before the last change (JSON; for a new row, itself removed): 撤销 swaps
//   it back. A deleted course or a restored school course is `removed`, kept for that undo.
// - schedule_settings: the greyed other-weeks switch and the feed's alarm lead time (0 = none).
// - school_calendar_entries: the 校历 operators keep per school and term.
export async function up(db: Kysely<any>) {
  await withId(db, db.schema.createTable("timetable_edits"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("term", "text", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("course_key", "text")
    .addColumn("hidden", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("removed", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("name", "text")
    .addColumn("teacher", "text")
    .addColumn("location", "text")
    .addColumn("weekday", "integer")
    .addColumn("start_period", "integer")
    .addColumn("end_period", "integer")
    .addColumn("weeks", "text")
    .addColumn("note", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("colour", "integer")
    .addColumn("previous", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("timetable_edits_user_term").on("timetable_edits").columns(["user_id", "term"]).execute();

  await db.schema.alterTable("schedule_settings").addColumn("show_other_weeks", "integer", (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("schedule_settings").addColumn("alarm_minutes", "integer", (col) => col.notNull().defaultTo(15)).execute();

  await withId(db, db.schema.createTable("school_calendar_entries"))
    .addColumn("school_code", "text", (col) => col.notNull())
    .addColumn("term", "text", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("from_date", "text", (col) => col.notNull())
    .addColumn("to_date", "text", (col) => col.notNull())
    .addColumn("runs_date", "text")
    .addColumn("label", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("school_calendar_entries_school_term").on("school_calendar_entries").columns(["school_code", "term", "from_date"]).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("school_calendar_entries").execute();
  await db.schema.alterTable("schedule_settings").dropColumn("alarm_minutes").execute();
  await db.schema.alterTable("schedule_settings").dropColumn("show_other_weeks").execute();
  await db.schema.dropTable("timetable_edits").execute();
}
