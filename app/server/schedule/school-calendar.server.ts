// The 校历 operators keep per school and term (decision 040): read by the grid, today's card and
// the calendar feed, written from /admin/school-calendar. No entries: nothing changes.
import type { CalendarEntry, CalendarKind } from "~/lib/school-calendar";
import { db, now } from "../db/db.server";
import { referenceCached } from "../db/reference-cache.server";

/** A school's entries of a term, in date order (served by school_calendar_entries_school_term). */
export async function schoolCalendar(schoolCode: string | null, term: string): Promise<CalendarEntry[]> {
  return schoolCode ? cachedCalendar(schoolCode, term) : [];
}

// Every timetable page reads it: kept until an operator changes a calendar (decision 056).
const cachedCalendar = referenceCached(async (schoolCode: string, term: string): Promise<CalendarEntry[]> => {
  const rows = await db()
    .selectFrom("school_calendar_entries")
    .select(["kind", "from_date", "to_date", "runs_date", "label"])
    .where("school_code", "=", schoolCode)
    .where("term", "=", term)
    .orderBy("from_date")
    .execute();
  return rows.map((row) => ({ kind: row.kind, from: row.from_date, to: row.to_date, runsDate: row.runs_date, label: row.label }));
});

export type CalendarEntryRow = CalendarEntry & { id: number; schoolCode: string; term: string };

export async function listCalendarEntries(schoolCode: string, term: string): Promise<CalendarEntryRow[]> {
  const rows = await db()
    .selectFrom("school_calendar_entries")
    .selectAll()
    .where("school_code", "=", schoolCode)
    .where("term", "=", term)
    .orderBy("from_date")
    .execute();
  return rows.map((row) => ({ id: row.id, schoolCode: row.school_code, term: row.term, kind: row.kind, from: row.from_date, to: row.to_date, runsDate: row.runs_date, label: row.label }));
}

export type NewCalendarEntry = { schoolCode: string; term: string; kind: CalendarKind; from: string; to: string; runsDate: string | null; label: string };

export async function addCalendarEntry(entry: NewCalendarEntry): Promise<number> {
  const row = await db()
    .insertInto("school_calendar_entries")
    .values({
      school_code: entry.schoolCode,
      term: entry.term,
      kind: entry.kind,
      from_date: entry.from,
      to_date: entry.kind === "makeup" ? entry.from : entry.to,
      runs_date: entry.kind === "makeup" ? entry.runsDate : null,
      label: entry.label,
      created_at: now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteCalendarEntry(id: number): Promise<boolean> {
  const result = await db().deleteFrom("school_calendar_entries").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
