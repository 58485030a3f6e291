// Mutual sign-in help (互助代签): the one pricing definition, the course details a request
// carries (the query of /schedule/mutual-help) and the text of the forum post it becomes.
// Pure and safe in the browser: the page shows these fees and the action charges them.
import { formatYuan } from "./catalog";
import { mutualHelp as mutualHelpMessages } from "~/lib/messages/mutualHelp";
import { schedule as scheduleMessages } from "~/lib/messages/schedule";
import { fillTemplate } from "./template";

const msg = { mutualHelp: mutualHelpMessages, schedule: scheduleMessages };

/** Forum category 3 is mutual help (spec: /forum/posts/create with category_id 3). */
export const MUTUAL_HELP_CATEGORY_ID = 3;
export const MUTUAL_HELP_NOTE_MAX = 200;

export const COURSE_KINDS = ["normal", "experiment"] as const;
export type CourseKind = (typeof COURSE_KINDS)[number];

/** Fees in fen: a normal course 25 yuan, an experiment course 30 yuan (spec section 9). */
export const MUTUAL_HELP_FEES_FEN: Record<CourseKind, number> = { normal: 2500, experiment: 3000 };

export function isCourseKind(value: unknown): value is CourseKind {
  return typeof value === "string" && (COURSE_KINDS as readonly string[]).includes(value);
}

export function mutualHelpFeeFen(kind: CourseKind) {
  return MUTUAL_HELP_FEES_FEN[kind];
}

/** '25' (yuan) for display next to '元' or '¥'. */
export function mutualHelpFeeText(kind: CourseKind) {
  return formatYuan(mutualHelpFeeFen(kind));
}

export function courseKindLabel(kind: CourseKind) {
  return kind === "experiment" ? msg.mutualHelp.experiment : msg.mutualHelp.normal;
}

/** The spec's query names of /schedule/mutual-help, in order. */
export const COURSE_QUERY_KEYS = ["courseName", "location", "teacher", "weeks", "period", "date", "dayOfWeek"] as const;
export type CourseQueryKey = (typeof COURSE_QUERY_KEYS)[number];
export type HelpCourse = Record<CourseQueryKey, string>;

/** Longest value kept from each query parameter (the post must stay within 500 characters). */
export const COURSE_FIELD_MAX: Record<CourseQueryKey, number> = {
  courseName: 60,
  location: 60,
  teacher: 40,
  weeks: 40,
  period: 10,
  date: 10,
  dayOfWeek: 1,
};

/** Reads the course details from a query (or form), trimmed, bounded and with junk dropped. */
export function readHelpCourse(params: URLSearchParams | FormData): HelpCourse {
  const text = (key: CourseQueryKey) => {
    const raw = params.get(key);
    // eslint-disable-next-line no-control-regex
    return typeof raw === "string" ? raw.replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, COURSE_FIELD_MAX[key]) : "";
  };
  const period = text("period");
  const date = text("date");
  const dayOfWeek = text("dayOfWeek");
  return {
    courseName: text("courseName"),
    location: text("location"),
    teacher: text("teacher"),
    weeks: text("weeks"),
    period: /^\d{1,2}(-\d{1,2})?$/.test(period) ? period : "",
    date: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : "",
    dayOfWeek: /^[1-7]$/.test(dayOfWeek) ? dayOfWeek : "",
  };
}

/** The query that opens /schedule/mutual-help for a course (the course dialog's button). */
export function helpQuery(course: HelpCourse) {
  const params = new URLSearchParams();
  for (const key of COURSE_QUERY_KEYS) params.set(key, course[key]);
  return params.toString();
}

/** '2026-11-23 周一 08:10-09:40'; whatever is known of it. */
export function helpTimeText(course: Pick<HelpCourse, "date" | "dayOfWeek">, clock?: { start: string; end: string }) {
  const weekday = course.dayOfWeek ? msg.schedule.weekdays[Number(course.dayOfWeek) - 1] : "";
  return [course.date, weekday, clock ? `${clock.start}-${clock.end}` : ""].filter(Boolean).join(" ");
}

/**
 * The post text (spec: course name, time, place, period, course type, fee, contact info, note),
 * one fact per line; empty facts are left out.
 */
export function composeHelpContent(input: {
  course: HelpCourse;
  time: string;
  kind: CourseKind;
  contact: string;
  note: string;
}) {
  const m = msg.mutualHelp;
  const line = (template: string, value: string) => (value ? fillTemplate(template, { value }) : null);
  return [
    m.contentTitle,
    line(m.contentCourse, input.course.courseName),
    line(m.contentTime, input.time),
    line(m.contentLocation, input.course.location),
    line(m.contentPeriod, input.course.period ? fillTemplate(m.periodValue, { period: input.course.period }) : ""),
    line(m.contentKind, courseKindLabel(input.kind)),
    line(m.contentFee, mutualHelpFeeText(input.kind)),
    line(m.contentContact, input.contact || m.noContact),
    line(m.contentNote, input.note),
  ]
    .filter((text): text is string => text !== null)
    .join("\n");
}
