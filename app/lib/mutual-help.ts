// Mutual sign-in help (互助代签): the one pricing definition, the course details a request
// carries (the query of /schedule/mutual-help) and the text of the forum post it becomes.
// Pure and safe in the browser: the page shows these fees and the action charges them.
import { PHONE_PATTERN } from "./address";
import { formatYuan } from "./money";
import { mutualHelp as mutualHelpMessages } from "~/lib/messages/mutualHelp";
import { schedule as scheduleMessages } from "~/lib/messages/schedule";
import { fillTemplate } from "./template";

const msg = { mutualHelp: mutualHelpMessages, schedule: scheduleMessages };

/** Forum category 3 is mutual help (product rules: /forum/posts/create with category_id 3); one home, the circle's rules. */
export { MUTUAL_HELP_CATEGORY_ID } from "./forum";
export const MUTUAL_HELP_NOTE_MAX = 200;

export const COURSE_KINDS = ["normal", "experiment"] as const;
export type CourseKind = (typeof COURSE_KINDS)[number];

/** Fees in fen: a normal course 25 yuan, an experiment course 30 yuan (docs/product-rules.md, "Limits"). */
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

/** A class as a request shows it: all of it from the student's own timetable. */
export type HelpCourse = { courseName: string; location: string; teacher: string; weeks: string; period: string; date: string; dayOfWeek: string };

/** Longest text kept of each part in the post (it must stay within the forum's 500 characters). */
export const COURSE_FIELD_MAX: Record<keyof HelpCourse, number> = {
  courseName: 60,
  location: 60,
  teacher: 40,
  weeks: 40,
  period: 10,
  date: 10,
  dayOfWeek: 1,
};

/** '2026-11-23 周一 08:10-09:40'; whatever is known of it. */
export function helpTimeText(course: Pick<HelpCourse, "date" | "dayOfWeek">, clock?: { start: string; end: string }) {
  const weekday = course.dayOfWeek ? msg.schedule.weekdays[Number(course.dayOfWeek) - 1] : "";
  return [course.date, weekday, clock ? `${clock.start}-${clock.end}` : ""].filter(Boolean).join(" ");
}

/**
 * The post text (product rules: course name, time, place, period, course type, fee, contact info, note),
 * one fact per line; empty facts are left out.
 */
export function composeHelpContent(input: { course: HelpCourse; time: string; kind: CourseKind; note: string; hasContact?: boolean }) {
  const m = msg.mutualHelp;
  const line = (template: string, value: string) => (value ? fillTemplate(template, { value }) : null);
  const part = (key: keyof HelpCourse) => [...input.course[key]].slice(0, COURSE_FIELD_MAX[key]).join("");
  return [
    m.contentTitle,
    line(m.contentCourse, part("courseName")),
    line(m.contentTime, input.time),
    line(m.contentLocation, part("location")),
    line(m.contentPeriod, input.course.period ? fillTemplate(m.periodValue, { period: part("period") }) : ""),
    line(m.contentKind, courseKindLabel(input.kind)),
    line(m.contentFee, mutualHelpFeeText(input.kind)),
    // The contact itself stays off the post: helpers get it through 我来帮忙 (shown to logged-in students only).
    // Without the requester's contact nothing is swapped: a helper is told so before giving theirs.
    line(m.contentContact, input.hasContact === false ? m.noContactInPost : m.contactInPost),
    line(m.contentNote, input.note),
  ]
    .filter((text): text is string => text !== null)
    .join("\n");
}

/** Which class a request is for: the student's own timetable entry, never free text from a URL. */
export type HelpCourseRef = { term: string; week: number; course: number };

/** The /schedule/mutual-help link of one class of the student's timetable (the course dialog's button). */
export function helpCourseHref(ref: HelpCourseRef) {
  return `/schedule/mutual-help?${new URLSearchParams({ term: ref.term, week: String(ref.week), course: String(ref.course) })}`;
}

/** The reference in a query or form, or null when any part is missing or malformed. */
export function readHelpCourseRef(params: URLSearchParams | FormData): HelpCourseRef | null {
  const term = params.get("term");
  const week = params.get("week");
  const course = params.get("course");
  if (typeof term !== "string" || !/^\d{4}-\d{4}-[123]$/.test(term)) return null;
  if (typeof week !== "string" || !/^\d{1,2}$/.test(week) || Number(week) < 1 || Number(week) > 26) return null;
  if (typeof course !== "string" || !/^\d{1,3}$/.test(course)) return null;
  return { term, week: Number(week), course: Number(course) };
}

/** A contact a helper can use: a WeChat id (6-20 characters, a letter first) or a mainland mobile number. */
export const CONTACT_MAX = 20;
const WECHAT_ID = /^[A-Za-z][-_A-Za-z0-9]{5,19}$/;

export function isValidContact(value: string) {
  return WECHAT_ID.test(value) || PHONE_PATTERN.test(value);
}

