// The rules of exams that need no I/O: reading the schools' time texts, the order on the page
// (upcoming first, soonest on top; past ones after, most recent first) and the countdown in days.
import { addDays } from "./time";

export type ExamRecord = {
  term: string;
  course: string;
  /** YYYY-MM-DD (Shanghai), null when the school has not scheduled it yet. */
  date: string | null;
  /** HH:MM */
  start: string | null;
  end: string | null;
  place: string;
  seat: string;
  /** The school's name for the exam: '期末考试', '补考', '2025-2026-1期末'… */
  kind: string;
  campus?: string;
};

/**
 * '2025-01-08(09:00-11:00)' (ZFsoft), '2025-01-08 09:00~11:00' (QiangZhi), '2025/1/8 9:00-11:00',
 * '2025年01月08日 09:00--11:00'. Unknown text gives nulls: the page then shows the school's words.
 */
export function parseExamTime(text: string): { date: string | null; start: string | null; end: string | null } {
  const dateMatch = /(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})/.exec(text);
  const date = dateMatch ? `${dateMatch[1]}-${dateMatch[2].padStart(2, "0")}-${dateMatch[3].padStart(2, "0")}` : null;
  const rest = dateMatch ? text.slice(dateMatch.index + dateMatch[0].length) : text;
  const times = [...rest.matchAll(/(\d{1,2}):(\d{2})/g)].map((match) => `${match[1].padStart(2, "0")}:${match[2]}`);
  return { date, start: times[0] ?? null, end: times[1] ?? null };
}

/** Whole days from `today` to the exam's date (0 = today, negative = past). */
export function daysUntil(date: string, today: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

export type ExamView = ExamRecord & { daysLeft: number | null; past: boolean };

/** Upcoming (today included) first, soonest on top; then unscheduled; then past, latest first. */
export function arrangeExams(exams: ExamRecord[], today: string): ExamView[] {
  const views = exams.map((exam) => {
    const daysLeft = exam.date ? daysUntil(exam.date, today) : null;
    return { ...exam, daysLeft, past: daysLeft !== null && daysLeft < 0 };
  });
  const rank = (view: ExamView) => (view.daysLeft === null ? 1 : view.past ? 2 : 0);
  return views.sort((a, b) => {
    const byGroup = rank(a) - rank(b);
    if (byGroup !== 0) return byGroup;
    const when = (view: ExamView) => `${view.date ?? ""} ${view.start ?? ""}`;
    return rank(a) === 2 ? when(b).localeCompare(when(a)) : when(a).localeCompare(when(b)) || a.course.localeCompare(b.course);
  });
}

export type TimedExam = ExamRecord & { date: string; start: string; end: string };

/** Exams the calendar feed can place: a date and both times, from a week ago on. */
export function examsForCalendar(exams: ExamRecord[], today: string): TimedExam[] {
  const from = addDays(today, -7);
  return exams.filter((exam): exam is TimedExam => exam.date !== null && exam.start !== null && exam.end !== null && exam.date >= from);
}

/** How long a fetched copy of a term's exams is served before the school is asked again. */
export const EXAMS_CACHE_MS = 24 * 60 * 60 * 1000;
