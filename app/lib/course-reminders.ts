// Which class meetings a student's course reminders are for: the same timetable /schedule and the
// calendar feed show — the school's courses with the student's changes laid over them (a moved
// room or time, a hidden course, their own courses) — on the days the 校历 runs them (none on a
// holiday, another date's classes on a 调休 day).
import type { ClassOccurrence } from "./schedule";
import { calendarOccurrences, type CalendarEntry } from "./school-calendar";
import { mergeTimetable, shownCourses, type MergedCourse, type SyncedCourse, type TimetableEdit } from "./timetable-edits";

/** The meetings starting after `from` and no later than `until`, in time order. */
export function remindedClasses(
  synced: SyncedCourse[],
  edits: TimetableEdit[],
  week1Start: string,
  calendar: CalendarEntry[],
  from: Date,
  until: Date,
): ClassOccurrence<MergedCourse>[] {
  const courses = shownCourses(mergeTimetable(synced, edits));
  return calendarOccurrences(courses, week1Start, calendar).filter(
    (occurrence) => occurrence.startsAt.getTime() > from.getTime() && occurrence.startsAt.getTime() <= until.getTime(),
  );
}
