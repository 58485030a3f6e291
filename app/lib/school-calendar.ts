// The school calendar (校历) operators keep per school and term: holidays (no classes), 调休 days
// (a day, often a Saturday, that runs another date's classes) and exam weeks (marked; classes run
// unless a holiday says otherwise). Pure: maps a date to the classes it runs, for the grid, today
// and the calendar feed. With no entries every date runs its own week and weekday.
import { classOccurrences, classTime, dateOfClass, weekOfDate, type ClassOccurrence, type ScheduleCourse } from "./schedule";
import { shanghaiInstant, weekdayOf } from "./time";
import { MAX_WEEK, MIN_WEEK } from "./weeks";

export const CALENDAR_KINDS = ["holiday", "makeup", "exam_week"] as const;
export type CalendarKind = (typeof CALENDAR_KINDS)[number];

export type CalendarEntry = {
  kind: CalendarKind;
  /** YYYY-MM-DD, inclusive; a 调休 day has from = to. */
  from: string;
  to: string;
  /** 调休 only: the date whose classes run on this day. */
  runsDate: string | null;
  label: string;
};

export type DayPlan = {
  date: string;
  /** Which classes run this day (week and weekday of the timetable), null on a holiday. */
  runs: { week: number; weekday: number } | null;
  holiday: string | null;
  /** 调休: the label, and the date whose classes run. */
  makeup: { label: string; runsDate: string } | null;
  examWeek: string | null;
};

const covers = (entry: CalendarEntry, date: string) => entry.from <= date && date <= entry.to;

/** What a date runs: a 调休 entry wins over a holiday on the same day, a holiday over the plain day. */
export function dayPlan(date: string, week1Start: string, entries: CalendarEntry[]): DayPlan {
  const own = { week: weekOfDate(date, week1Start), weekday: weekdayOf(date) };
  const makeup = entries.find((entry) => entry.kind === "makeup" && entry.runsDate && covers(entry, date));
  const holiday = entries.find((entry) => entry.kind === "holiday" && covers(entry, date));
  const exam = entries.find((entry) => entry.kind === "exam_week" && covers(entry, date));
  const runs = makeup
    ? { week: weekOfDate(makeup.runsDate!, week1Start), weekday: weekdayOf(makeup.runsDate!) }
    : holiday
      ? null
      : own;
  return {
    date,
    runs,
    holiday: holiday && !makeup ? holiday.label : null,
    makeup: makeup ? { label: makeup.label, runsDate: makeup.runsDate! } : null,
    examWeek: exam ? exam.label : null,
  };
}

/** The seven day plans (Monday first) of a teaching week. */
export function weekPlans(week1Start: string, week: number, entries: CalendarEntry[]): DayPlan[] {
  return Array.from({ length: 7 }, (_, i) => dayPlan(dateOfClass(week1Start, week, i + 1), week1Start, entries));
}

/**
 * Every class meeting of a term with the school calendar applied: none on a holiday, a 调休 day's
 * borrowed classes on that day. Without entries it is classOccurrences itself.
 */
export function calendarOccurrences<C extends ScheduleCourse>(courses: C[], week1Start: string, entries: CalendarEntry[]): ClassOccurrence<C>[] {
  if (entries.length === 0) return classOccurrences(courses, week1Start);
  const occurrences: ClassOccurrence<C>[] = [];
  for (let week = MIN_WEEK; week <= MAX_WEEK; week++) {
    for (const plan of weekPlans(week1Start, week, entries)) {
      const runs = plan.runs;
      if (!runs) continue;
      courses.forEach((course, index) => {
        if (course.weekday !== runs.weekday || !course.weeks.includes(runs.week)) return;
        const { start, end } = classTime(course);
        const [startHour, startMinute] = start.split(":").map(Number);
        const [endHour, endMinute] = end.split(":").map(Number);
        occurrences.push({
          course,
          index,
          week,
          date: plan.date,
          startsAt: shanghaiInstant(plan.date, startHour, startMinute),
          endsAt: shanghaiInstant(plan.date, endHour, endMinute),
        });
      });
    }
  }
  return occurrences.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.index - b.index);
}
