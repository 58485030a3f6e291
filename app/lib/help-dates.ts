// Which meetings of a class a mutual-help request may be for: only those still to come, each once
// per student (a file apart from lib/mutual-help, which the circle's pages carry, so that they do
// not carry the timetable's rules too).
import { classTime, dateOfClass, type ScheduleCourse } from "./schedule";
import { shanghaiInstant } from "./time";

/** How many coming classes the request form offers to choose from. */
export const HELP_OCCURRENCES_OFFERED = 6;

/** One meeting of a class: its teaching week, its date and the instant it starts (Shanghai wall clock). */
export type HelpOccurrence = { week: number; date: string; startsAt: string };

/** The meeting of a class in a teaching week (whether or not it is still to come). */
export function occurrenceOf(course: Pick<ScheduleCourse, "weekday" | "startPeriod" | "endPeriod">, week1Start: string, week: number): HelpOccurrence {
  const date = dateOfClass(week1Start, week, course.weekday);
  const [hour, minute] = classTime(course).start.split(":").map(Number);
  return { week, date, startsAt: shanghaiInstant(date, hour, minute).toISOString() };
}

/**
 * The coming meetings of a class, soonest first: help can only be asked for a class that has not
 * started yet. A class that has begun (or is over) is not offered; the next one is.
 */
export function upcomingOccurrences(
  course: Pick<ScheduleCourse, "weekday" | "startPeriod" | "endPeriod" | "weeks">,
  week1Start: string,
  now: Date,
  limit = HELP_OCCURRENCES_OFFERED,
): HelpOccurrence[] {
  if (course.weekday < 1 || course.weekday > 7) return [];
  return [...new Set(course.weeks)]
    .filter((week) => Number.isInteger(week) && week >= 1 && week <= 26)
    .sort((a, b) => a - b)
    .map((week) => occurrenceOf(course, week1Start, week))
    .filter((occurrence) => Date.parse(occurrence.startsAt) > now.getTime())
    .slice(0, limit);
}

/**
 * Which class a request is for, the same for every week it meets: two requests of one student with
 * the same key and date are one request twice (the database refuses the second).
 */
export function helpClassKey(term: string, course: Pick<ScheduleCourse, "name" | "weekday" | "startPeriod" | "endPeriod">) {
  return [term, course.weekday, `${course.startPeriod}-${course.endPeriod}`, [...course.name].slice(0, 60).join("")].join("|");
}
