// A student's own courses and local overrides of the school's courses (decision 040). They live in
// timetable_edits, apart from timetable_cache, so a refresh from the school replaces the cache and
// never a change; mergeTimetable (app/lib/timetable-edits.ts) lays them over the school's copy.
// Every change keeps the fields it replaced in `previous`, which 撤销 swaps back (a new row's
// `previous` is itself removed, so 撤销 of an addition takes it away).
import { NO_CHANGE, TIMETABLE_EDITS_MAX, mergeTimetable, syncedCourseKey, type EditFields, type MergedCourse, type SyncedCourse, type TimetableEdit } from "~/lib/timetable-edits";
import type { TimetableEditsTable } from "../db/schema";
import { db, now } from "../db/db.server";
import { compiledOnce } from "../db/compiled.server";
import type { Selectable } from "kysely";
import { parseWeekParam, type ScheduleCourse } from "~/lib/schedule";
import { parseTermCode } from "~/lib/term";
import type { User } from "../auth/session.server";
import { loadTermInfo } from "./timetable.server";

type Row = Selectable<TimetableEditsTable>;

function parseWeeks(text: string | null): number[] | null {
  if (!text) return null;
  try {
    const weeks = JSON.parse(text) as unknown;
    return Array.isArray(weeks) ? weeks.filter((week): week is number => Number.isInteger(week)) : null;
  } catch {
    return null;
  }
}

function fieldsOf(row: Row): EditFields {
  return {
    hidden: row.hidden === 1,
    name: row.name,
    teacher: row.teacher,
    location: row.location,
    weekday: row.weekday,
    startPeriod: row.start_period,
    endPeriod: row.end_period,
    weeks: parseWeeks(row.weeks),
    note: row.note,
    colour: row.colour,
    removed: row.removed === 1,
  };
}

function toEdit(row: Row): TimetableEdit {
  return { id: row.id, kind: row.kind, courseKey: row.course_key, ...fieldsOf(row) };
}

function columnsOf(fields: EditFields) {
  return {
    hidden: fields.hidden ? 1 : 0,
    removed: fields.removed ? 1 : 0,
    name: fields.name,
    teacher: fields.teacher,
    location: fields.location,
    weekday: fields.weekday,
    start_period: fields.startPeriod,
    end_period: fields.endPeriod,
    weeks: fields.weeks ? JSON.stringify(fields.weeks) : null,
    note: fields.note,
    colour: fields.colour,
  };
}

/** The student's changes of a term (served by timetable_edits_user_term). */
const editsOfTerm = compiledOnce((userId: number, term: string) =>
  db().selectFrom("timetable_edits").selectAll().where("user_id", "=", userId).where("term", "=", term).orderBy("id"),
);

export async function listEdits(userId: number, term: string): Promise<TimetableEdit[]> {
  const rows = await editsOfTerm.execute(userId, term);
  return rows.map(toEdit);
}

/** The school's courses with the student's changes laid over them. */
export async function mergedCourses(userId: number, term: string, synced: SyncedCourse[]): Promise<MergedCourse[]> {
  return mergeTimetable(synced, await listEdits(userId, term));
}

async function findEdit(userId: number, id: number) {
  return db().selectFrom("timetable_edits").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
}

/** A change to one row: the old fields go to `previous` so 撤销 can bring them back. */
async function update(row: Row, fields: EditFields) {
  await db()
    .updateTable("timetable_edits")
    .set({ ...columnsOf(fields), previous: JSON.stringify(fieldsOf(row)), updated_at: now() })
    .where("id", "=", row.id)
    .execute();
  return row.id;
}

export type OwnCourseInput = ScheduleCourse & { note: string; colour: number | null };

export type SaveResult = { ok: true; id: number } | { ok: false; reason: "not_found" | "too_many" };

/** Adds a course of the student's own, or changes one (`id`, which must be theirs). */
export async function saveOwnCourse(userId: number, term: string, input: OwnCourseInput, id?: number): Promise<SaveResult> {
  const fields: EditFields = { ...NO_CHANGE, ...input };
  if (id !== undefined) {
    const row = await findEdit(userId, id);
    if (!row || row.kind !== "own") return { ok: false, reason: "not_found" };
    return { ok: true, id: await update(row, { ...fields, hidden: row.hidden === 1 }) };
  }
  // A bound on rows per student and term (deleted ones count: they are kept for 撤销).
  const { count } = await db()
    .selectFrom("timetable_edits")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("term", "=", term)
    .executeTakeFirstOrThrow();
  if (Number(count) >= TIMETABLE_EDITS_MAX) return { ok: false, reason: "too_many" };
  const at = now();
  const inserted = await db()
    .insertInto("timetable_edits")
    // 撤销 of an addition removes the course again.
    .values({ user_id: userId, term, kind: "own", course_key: null, ...columnsOf(fields), previous: JSON.stringify({ ...fields, removed: true }), created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ok: true, id: inserted.id };
}

export type ImportOutcome = { ok: true; added: number[]; skipped: number } | { ok: false; reason: "too_many" };

/**
 * Adds the courses of an imported timetable file as the student's own courses, all or none. A
 * course the student already has as an own course (same name, room, time and weeks) is skipped,
 * so confirming the same preview twice adds nothing twice. Each row is an ordinary own course:
 * the grid, clashes, 撤销 and the calendar feed treat it like one typed by hand.
 */
export async function importOwnCourses(userId: number, term: string, courses: Omit<OwnCourseInput, "note" | "colour">[]): Promise<ImportOutcome> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const rows = await trx.selectFrom("timetable_edits").selectAll().where("user_id", "=", userId).where("term", "=", term).execute();
      const key = (course: { name: string | null; location: string | null; weekday: number | null; startPeriod: number | null; endPeriod: number | null; weeks: number[] | null }) =>
        JSON.stringify([course.name, course.location, course.weekday, course.startPeriod, course.endPeriod, course.weeks]);
      const known = new Set(rows.filter((row) => row.kind === "own" && row.removed === 0).map((row) => key(fieldsOf(row))));
      const fresh: typeof courses = [];
      for (const course of courses) {
        if (known.has(key(course))) continue;
        known.add(key(course));
        fresh.push(course);
      }
      if (rows.length + fresh.length > TIMETABLE_EDITS_MAX) return { ok: false as const, reason: "too_many" as const };
      const at = now();
      const added: number[] = [];
      for (const course of fresh) {
        const fields: EditFields = { ...NO_CHANGE, ...course };
        const inserted = await trx
          .insertInto("timetable_edits")
          .values({ user_id: userId, term, kind: "own", course_key: null, ...columnsOf(fields), previous: JSON.stringify({ ...fields, removed: true }), created_at: at, updated_at: at })
          .returning("id")
          .executeTakeFirstOrThrow();
        added.push(inserted.id);
      }
      return { ok: true as const, added, skipped: courses.length - fresh.length };
    });
}

export type OverrideInput = Pick<EditFields, "location" | "weekday" | "startPeriod" | "endPeriod" | "weeks" | "note" | "colour" | "hidden">;

/**
 * Changes a school course locally (room, time, weeks, note, colour, hidden). One row per course and
 * term, found by the course's key; a value equal to the school's is stored as null (keep the
 * school's), so a later change at the school still shows through where the student changed nothing.
 */
export async function saveOverride(userId: number, term: string, course: SyncedCourse, input: OverrideInput): Promise<number> {
  const courseKey = syncedCourseKey(course);
  const keep = <T>(value: T, school: T) => (JSON.stringify(value) === JSON.stringify(school) ? null : value);
  const fields: EditFields = {
    ...NO_CHANGE,
    hidden: input.hidden,
    location: input.location === null ? null : keep(input.location, course.location),
    weekday: input.weekday === null ? null : keep(input.weekday, course.weekday),
    startPeriod: input.startPeriod === null ? null : keep(input.startPeriod, course.startPeriod),
    endPeriod: input.endPeriod === null ? null : keep(input.endPeriod, course.endPeriod),
    weeks: input.weeks === null ? null : keep(input.weeks, course.weeks),
    note: input.note,
    colour: input.colour,
  };
  const row = await db()
    .selectFrom("timetable_edits")
    .selectAll()
    .where("user_id", "=", userId)
    .where("term", "=", term)
    .where("kind", "=", "override")
    .where("course_key", "=", courseKey)
    .executeTakeFirst();
  if (row) return update(row, fields);
  const at = now();
  const inserted = await db()
    .insertInto("timetable_edits")
    .values({ user_id: userId, term, kind: "override", course_key: courseKey, ...columnsOf(fields), previous: JSON.stringify({ ...NO_CHANGE, removed: true }), created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Hides or shows a change's course (an own course, or a school course through its override). */
export async function setHidden(userId: number, id: number, hidden: boolean): Promise<boolean> {
  const row = await findEdit(userId, id);
  if (!row) return false;
  await update(row, { ...fieldsOf(row), hidden });
  return true;
}

/** Deletes an own course, or puts a school course back as the school has it (kept for 撤销). */
export async function removeEdit(userId: number, id: number): Promise<boolean> {
  const row = await findEdit(userId, id);
  if (!row) return false;
  await update(row, { ...fieldsOf(row), removed: true });
  return true;
}

/** 撤销: the row's fields before its last change come back (and the undone ones become `previous`). */
export async function undoEdit(userId: number, id: number): Promise<boolean> {
  const row = await findEdit(userId, id);
  if (!row || !row.previous) return false;
  let previous: EditFields;
  try {
    previous = { ...NO_CHANGE, ...(JSON.parse(row.previous) as Partial<EditFields>) };
  } catch {
    return false;
  }
  await update(row, previous);
  return true;
}

export async function deleteTimetableEdits(executor: Pick<ReturnType<typeof db>, "deleteFrom">, userId: number) {
  await executor.deleteFrom("timetable_edits").where("user_id", "=", userId).execute();
}

/**
 * The course an edit screen names: `course` (its position in the merged list) or `edit` (the row
 * of its change, for a hidden course), in the student's timetable of `term`. The school's own
 * copy of it comes along (what an override is compared with).
 */
export async function courseToEdit(userId: number, term: string, synced: SyncedCourse[], ref: { course?: number; edit?: number }) {
  const courses = await mergedCourses(userId, term, synced);
  const index = ref.edit !== undefined ? courses.findIndex((course) => course.editId === ref.edit) : (ref.course ?? -1);
  const course = courses[index];
  if (!course) return null;
  return { index, course, courses, school: course.syncedIndex !== null ? synced[course.syncedIndex] : null };
}

/** The term and week the student came from (the school's current term when the link names none). */
export async function termAndWeek(user: User, params: URLSearchParams) {
  const requested = params.get("term");
  const term = requested && parseTermCode(requested) ? requested : (await loadTermInfo(user)).info.currentTerm;
  return { term, week: parseWeekParam(params.get("week")) ?? 1 };
}
