// The week grid the /schedule page draws and the "today" card above it. Pure: computed on the
// server from the merged timetable (timetable-edits), the week's day plans (school-calendar) and
// the term's exams, so the page needs no script to show them.
import type { TimedExam } from "./exams";
import { timetable as t } from "./messages/timetable";
import { fillTemplate } from "./template";
import type { DayPlan } from "./school-calendar";
import { TIME_SLOTS, slotsOf } from "./schedule";
import type { MergedCourse } from "./timetable-edits";

export type BoardCard = {
  /** The course's position in the merged list (the dialog's key); for an exam, its position in the exam list. */
  index: number;
  kind: "class" | "exam" | "other-week";
  name: string;
  location: string;
  colour: number;
  /** Two things at once in this cell this week. */
  clash: boolean;
  own: boolean;
  edited: boolean;
};

const minutes = (clock: string) => {
  const [hour, minute] = clock.split(":").map(Number);
  return hour * 60 + minute;
};

/** The grid rows an exam covers: the slots its time overlaps, else the slot starting nearest to it. */
export function examSlots(exam: Pick<TimedExam, "start" | "end">): number[] {
  const start = minutes(exam.start);
  const end = minutes(exam.end);
  const overlapping = TIME_SLOTS.flatMap((slot, row) => (start < minutes(slot.end) && end > minutes(slot.start) ? [row] : []));
  if (overlapping.length) return overlapping;
  let nearest = 0;
  TIME_SLOTS.forEach((slot, row) => {
    if (Math.abs(minutes(slot.start) - start) < Math.abs(minutes(TIME_SLOTS[nearest].start) - start)) nearest = row;
  });
  return [nearest];
}

/**
 * Rows are the time slots, columns the seven days of the week's plans. A day runs the classes its
 * plan names (none on a holiday, another date's on a 调休 day); exams sit on their date; a cell
 * holding two of them is a clash. With `showOtherWeeks`, an empty cell shows (greyed) a course that
 * meets there in other weeks.
 */
export function weekBoard(courses: MergedCourse[], plans: DayPlan[], options: { exams?: TimedExam[]; showOtherWeeks?: boolean } = {}): BoardCard[][][] {
  const board: BoardCard[][][] = TIME_SLOTS.map(() => plans.map(() => []));
  const card = (course: MergedCourse, index: number, kind: BoardCard["kind"]): BoardCard => ({
    index,
    kind,
    name: course.name,
    location: course.location,
    colour: course.colour,
    clash: false,
    own: course.source === "own",
    edited: course.source === "school" && course.editId !== null,
  });
  plans.forEach((plan, day) => {
    const runs = plan.runs;
    if (runs) {
      courses.forEach((course, index) => {
        if (course.hidden || course.weekday !== runs.weekday || !course.weeks.includes(runs.week)) return;
        for (const row of slotsOf(course.startPeriod, course.endPeriod)) board[row][day].push(card(course, index, "class"));
      });
    }
    (options.exams ?? []).forEach((exam, index) => {
      if (exam.date !== plan.date) return;
      for (const row of examSlots(exam)) {
        board[row][day].push({ index, kind: "exam", name: exam.course, location: exam.place, colour: 0, clash: false, own: false, edited: false });
      }
    });
  });
  for (const row of board) for (const cell of row) if (cell.length > 1) for (const entry of cell) entry.clash = true;
  if (options.showOtherWeeks) {
    plans.forEach((plan, day) => {
      if (!plan.runs) return;
      const weekday = day + 1;
      courses.forEach((course, index) => {
        if (course.hidden || course.weekday !== weekday || course.weeks.includes(plan.runs!.week)) return;
        for (const row of slotsOf(course.startPeriod, course.endPeriod)) {
          if (board[row][day].length === 0) board[row][day].push(card(course, index, "other-week"));
        }
      });
    });
  }
  return board;
}

export type TodayItem = {
  kind: "class" | "exam";
  /** Merged-course position for a class (its dialog), exam position for an exam. */
  index: number;
  name: string;
  location: string;
  start: string;
  end: string;
  state: "done" | "now" | "later";
};

export type TodayAgenda = {
  items: TodayItem[];
  /** The class (or exam) under way, else the next one today; null when the day is over or free. */
  focus: { item: TodayItem; state: "now" | "next"; minutes: number } | null;
};

/**
 * Today's classes and exams in time order, from the day's plan and the wall-clock minute in the
 * school's time zone: what is under way (minutes until it ends) or what comes next (minutes until
 * it starts).
 */
export function todayAgenda(courses: MergedCourse[], plan: DayPlan, exams: TimedExam[], minuteOfDay: number): TodayAgenda {
  const items: TodayItem[] = [];
  const runs = plan.runs;
  if (runs) {
    courses.forEach((course, index) => {
      if (course.hidden || course.weekday !== runs.weekday || !course.weeks.includes(runs.week)) return;
      const slots = slotsOf(course.startPeriod, course.endPeriod);
      const start = TIME_SLOTS[slots[0]].start;
      const end = TIME_SLOTS[slots[slots.length - 1]].end;
      items.push({ kind: "class", index, name: course.name, location: course.location, start, end, state: "later" });
    });
  }
  exams.forEach((exam, index) => {
    if (exam.date === plan.date) items.push({ kind: "exam", index, name: exam.course, location: exam.place, start: exam.start, end: exam.end, state: "later" });
  });
  items.sort((a, b) => minutes(a.start) - minutes(b.start) || (a.kind === b.kind ? 0 : a.kind === "exam" ? -1 : 1));
  for (const item of items) {
    if (minutes(item.end) <= minuteOfDay) item.state = "done";
    else if (minutes(item.start) <= minuteOfDay) item.state = "now";
  }
  const now = items.find((item) => item.state === "now");
  if (now) return { items, focus: { item: now, state: "now", minutes: minutes(now.end) - minuteOfDay } };
  const next = items.find((item) => item.state === "later");
  return { items, focus: next ? { item: next, state: "next", minutes: minutes(next.start) - minuteOfDay } : null };
}

/** '25 分钟', '1 小时 5 分钟', '2 小时': how long until a class starts or ends. */
export function durationText(minutesLeft: number): string {
  const n = Math.max(0, Math.round(minutesLeft));
  if (n < 60) return fillTemplate(t.minutes, { n });
  const h = Math.floor(n / 60);
  const m = n % 60;
  return m === 0 ? fillTemplate(t.hours, { h }) : fillTemplate(t.hoursMinutes, { h, m });
}
