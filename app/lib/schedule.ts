// The timetable's rules: time slots, week maths, the week grid and class occurrences. Pure and
// safe in the browser; shared by the /schedule page, its loader, the calendar feed and (through
// classOccurrences) the course reminders of the notifications issue.
import { schedule as scheduleMessages } from "~/lib/messages/schedule";
import { fillTemplate } from "./template";
import { defaultWeek1Start, termLabel } from "./term";
import { addDays, daysBetween, shanghaiInstant } from "./time";
import { MAX_WEEK, MIN_WEEK } from "./weeks";

const msg = { schedule: scheduleMessages };

/** A fetched timetable is served from the cache this long (docs/product-rules.md, "Limits"). */
export const SCHEDULE_CACHE_DAYS = 7;
export const SCHEDULE_CACHE_MS = SCHEDULE_CACHE_DAYS * 24 * 60 * 60 * 1000;
/** The school's term list and week-1 date are asked again after a day. */
export const TERM_INFO_CACHE_MS = 24 * 60 * 60 * 1000;
/** The course reminder goes out this long before class. */
export const COURSE_REMINDER_MINUTES = 15;

export type TimeSlot = {
  id: number;
  /** '1-2' */
  period: string;
  firstPeriod: number;
  lastPeriod: number;
  start: string;
  end: string;
};

/** The five time slots of docs/product-rules.md "Limits", two periods each. */
export const TIME_SLOTS: readonly TimeSlot[] = [
  { id: 1, period: "1-2", firstPeriod: 1, lastPeriod: 2, start: "08:10", end: "09:40" },
  { id: 2, period: "3-4", firstPeriod: 3, lastPeriod: 4, start: "10:00", end: "11:40" },
  { id: 3, period: "5-6", firstPeriod: 5, lastPeriod: 6, start: "14:00", end: "15:40" },
  { id: 4, period: "7-8", firstPeriod: 7, lastPeriod: 8, start: "16:00", end: "17:40" },
  { id: 5, period: "9-10", firstPeriod: 9, lastPeriod: 10, start: "19:00", end: "20:40" },
];

/** The product rules' default when the school's term information cannot be loaded. */
export const FALLBACK_TERM = "2025-2026-1";
export const FALLBACK_TERM_INFO = {
  currentTerm: FALLBACK_TERM,
  week1Start: defaultWeek1Start(FALLBACK_TERM)!, // 2025-09-01, a Monday
  terms: ["2025-2026-2", "2025-2026-1", "2024-2025-2", "2024-2025-1"].map((code) => ({ code, label: termLabel(code) })),
};

/** The course fields the week grid, the dialog, the feed and the reminders read. */
export type ScheduleCourse = {
  name: string;
  teacher: string;
  location: string;
  weekday: number;
  startPeriod: number;
  endPeriod: number;
  weeks: number[];
};

export function clampWeek(week: number): number {
  if (!Number.isFinite(week)) return MIN_WEEK;
  return Math.min(MAX_WEEK, Math.max(MIN_WEEK, Math.trunc(week)));
}

/** A ?week= value: an integer, clamped to 1–26; null when absent or not a number. */
export function parseWeekParam(value: string | null | undefined): number | null {
  if (value == null || !/^\s*-?\d{1,6}\s*$/.test(value)) return null;
  return clampWeek(Number(value));
}

/** The teaching week a date falls in (unclamped: 0 or less before week 1). */
export function weekOfDate(isoDay: string, week1Start: string): number {
  return Math.floor(daysBetween(week1Start, isoDay) / 7) + 1;
}

/** 'This week' of a term, clamped to 1–26: week 1 before the term starts, 26 after it. */
export function currentWeek(todayIso: string, week1Start: string): number {
  return clampWeek(weekOfDate(todayIso, week1Start));
}

/** The seven dates (Monday first) of a teaching week. */
export function weekDates(week1Start: string, week: number): string[] {
  const monday = addDays(week1Start, (week - 1) * 7);
  return Array.from({ length: 7 }, (_, day) => addDays(monday, day));
}

/** The date a course meets on in a week (weekday 1 = Monday). */
export function dateOfClass(week1Start: string, week: number, weekday: number) {
  return addDays(week1Start, (week - 1) * 7 + (weekday - 1));
}

/**
 * The time slots (0-based rows of the grid) a course's periods cover. A period past the tenth
 * (some schools teach an 11th) belongs to the evening slot; nonsense periods land in slot 1.
 */
export function slotsOf(startPeriod: number, endPeriod: number): number[] {
  const slotIndex = (period: number) => Math.min(TIME_SLOTS.length - 1, Math.max(0, Math.floor((period - 1) / 2)));
  const first = slotIndex(Math.min(startPeriod, endPeriod));
  const last = slotIndex(Math.max(startPeriod, endPeriod));
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** Start and end (Shanghai wall clock) of a course: its first slot's start to its last slot's end. */
export function classTime(course: Pick<ScheduleCourse, "startPeriod" | "endPeriod">) {
  const slots = slotsOf(course.startPeriod, course.endPeriod);
  return { start: TIME_SLOTS[slots[0]].start, end: TIME_SLOTS[slots[slots.length - 1]].end };
}

/** '1-2' for periods 1 to 2, '5' for a single period. */
export function periodText(course: Pick<ScheduleCourse, "startPeriod" | "endPeriod">) {
  return course.startPeriod === course.endPeriod ? `${course.startPeriod}` : `${course.startPeriod}-${course.endPeriod}`;
}

export function meetsInWeek(course: Pick<ScheduleCourse, "weeks">, week: number) {
  return course.weeks.includes(week);
}

/**
 * Class periods (节) in a week, as students count them: a course meeting periods 1-2 is 2 节, and
 * a course not meeting that week (odd/even weeks, outside its weeks) counts nothing.
 */
export function periodsInWeek(courses: Pick<ScheduleCourse, "weeks" | "weekday" | "startPeriod" | "endPeriod">[], week: number) {
  let periods = 0;
  for (const course of courses) {
    if (!meetsInWeek(course, week) || course.weekday < 1 || course.weekday > 7) continue;
    periods += Math.abs(course.endPeriod - course.startPeriod) + 1;
  }
  return periods;
}

export type GridCard = { index: number; name: string; location: string };

/**
 * The week's grid: rows are the five time slots, columns Monday to Sunday, each cell the courses
 * meeting there that week (odd/even-week courses only in their weeks; two courses share a cell).
 * `index` is the course's position in the term's list, the key of the course dialog.
 */
export function weekGrid(courses: ScheduleCourse[], week: number): GridCard[][][] {
  const grid: GridCard[][][] = TIME_SLOTS.map(() => Array.from({ length: 7 }, () => []));
  courses.forEach((course, index) => {
    if (!meetsInWeek(course, week) || course.weekday < 1 || course.weekday > 7) return;
    for (const slot of slotsOf(course.startPeriod, course.endPeriod)) {
      grid[slot][course.weekday - 1].push({ index, name: course.name, location: course.location });
    }
  });
  return grid;
}

export type ClassOccurrence<C extends ScheduleCourse = ScheduleCourse> = {
  course: C;
  index: number;
  week: number;
  /** YYYY-MM-DD in Shanghai */
  date: string;
  startsAt: Date;
  endsAt: Date;
};

/** Every class meeting of a term, in time order: what the calendar feed and reminders use. */
export function classOccurrences<C extends ScheduleCourse>(courses: C[], week1Start: string): ClassOccurrence<C>[] {
  const occurrences: ClassOccurrence<C>[] = [];
  courses.forEach((course, index) => {
    if (course.weekday < 1 || course.weekday > 7) return;
    const { start, end } = classTime(course);
    const [startHour, startMinute] = start.split(":").map(Number);
    const [endHour, endMinute] = end.split(":").map(Number);
    for (const week of course.weeks) {
      if (week < MIN_WEEK || week > MAX_WEEK) continue;
      const date = dateOfClass(week1Start, week, course.weekday);
      occurrences.push({
        course,
        index,
        week,
        date,
        startsAt: shanghaiInstant(date, startHour, startMinute),
        endsAt: shanghaiInstant(date, endHour, endMinute),
      });
    }
  });
  return occurrences.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.index - b.index);
}

/** A notes entry shows in a week it lists; one with no readable weeks shows every week. */
export function noteInWeek(note: { weeks: number[] }, week: number) {
  return note.weeks.length === 0 || note.weeks.includes(week);
}

/** The age of a cached timetable as a short phrase: '刚刚', '5 分钟前', '3 小时前', '2 天前'. */
export function ageText(fetchedAt: string, now: Date): string {
  const ms = Math.max(0, now.getTime() - new Date(fetchedAt).getTime());
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return msg.schedule.ageJustNow;
  if (minutes < 60) return fillTemplate(msg.schedule.ageMinutes, { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return fillTemplate(msg.schedule.ageHours, { n: hours });
  return fillTemplate(msg.schedule.ageDays, { n: Math.floor(hours / 24) });
}

/** '第11周' */
export function weekLabel(week: number) {
  return fillTemplate(msg.schedule.week, { week });
}

/** '周一' for weekday 1. */
export function weekdayLabel(weekday: number) {
  return msg.schedule.weekdays[weekday - 1] ?? "";
}

/** '11/23' for the grid header. */
export function shortDate(isoDay: string) {
  const [, month, day] = isoDay.split("-").map(Number);
  return `${month}/${day}`;
}

/** The /schedule URL of a term and week: what every week link and form points at. */
export function scheduleHref(term: string, week: number, extra: Record<string, string> = {}) {
  const params = new URLSearchParams({ term, week: String(week), ...extra });
  return `/schedule?${params.toString()}`;
}

/**
 * What a link on /schedule keeps of the page's state: the empty-week notice once closed
 * (empty=seen) stays closed while the week is the same, and the notes panel once hidden
 * (notes=hide) stays hidden, through every dialog's close link. `extra` wins; an empty value drops.
 */
export function keptScheduleParams(current: URLSearchParams, extra: Record<string, string> = {}): Record<string, string> {
  const kept: Record<string, string> = {};
  if (current.get("empty") === "seen" && !("week" in extra)) kept.empty = "seen";
  if (current.get("notes") === "hide") kept.notes = "hide";
  if (current.get("today") === "all") kept.today = "all";
  // An empty value in `extra` drops the parameter (the notes panel's 展开 link).
  return Object.fromEntries(Object.entries({ ...kept, ...extra }).filter(([, value]) => value !== ""));
}

/**
 * Why a week has no class: past the term's last teaching week ('after'), before its first
 * ('before'), or a week off inside it ('none'); null when the week has classes or the term none.
 */
export function emptyWeekReason(courses: Pick<ScheduleCourse, "weeks">[], week: number): "after" | "before" | "none" | null {
  const weeks = courses.flatMap((course) => course.weeks);
  if (weeks.length === 0 || weeks.includes(week)) return null;
  if (week > Math.max(...weeks)) return "after";
  if (week < Math.min(...weeks)) return "before";
  return "none";
}

/** Number of card colours; a course keeps its colour in every week (chosen by its name). */
export const COURSE_COLOURS = 8;

export function courseColour(name: string) {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash % COURSE_COLOURS;
}
