import * as z from "zod";
import { ALARM_CHOICES } from "../ics";
import { timetable as t } from "../messages/timetable";
import { COURSE_COLOURS } from "../schedule";
import { fillTemplate } from "../template";
import { CALENDAR_KINDS } from "../school-calendar";
import { COURSE_NAME_MAX, COURSE_NOTE_MAX, COURSE_TEXT_MAX, MAX_PERIOD, readWeeksInput } from "../timetable-edits";

// The course forms of /schedule/courses/new and /schedule/courses/edit. Where the student came
// from (term, week) travels along so the answer lands on the same week without JavaScript.
const where = {
  term: z.string().regex(/^\d{4}-\d{4}-[123]$/),
  week: z.coerce.number().int().min(1).max(26).optional().catch(undefined),
};

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, fillTemplate(t.textTooLong, { max }))
    .optional()
    .transform((value) => value ?? "");

const period = z.coerce.number({ error: t.periodInvalid }).int(t.periodInvalid).min(1, t.periodInvalid).max(MAX_PERIOD, t.periodInvalid);

const timeFields = {
  location: text(COURSE_TEXT_MAX),
  weekday: z.coerce.number({ error: t.weekdayRequired }).int(t.weekdayRequired).min(1, t.weekdayRequired).max(7, t.weekdayRequired),
  startPeriod: period,
  endPeriod: period,
  weeks: z
    .string({ error: t.weeksInvalid })
    .trim()
    .transform((value, ctx) => {
      const weeks = readWeeksInput(value);
      if (!weeks) {
        ctx.addIssue({ code: "custom", message: t.weeksInvalid });
        return z.NEVER;
      }
      return weeks;
    }),
  note: text(COURSE_NOTE_MAX),
  colour: z.coerce.number().int().min(0).max(COURSE_COLOURS - 1).optional().catch(undefined),
};

const periodOrder = (value: { startPeriod: number; endPeriod: number }, ctx: z.RefinementCtx) => {
  if (value.endPeriod < value.startPeriod) ctx.addIssue({ code: "custom", message: t.periodOrder, path: ["endPeriod"] });
};

/** A course of the student's own. */
export const OwnCourseSchema = z
  .object({
    ...where,
    name: z.string({ error: t.nameRequired }).trim().min(1, t.nameRequired).max(COURSE_NAME_MAX, fillTemplate(t.nameTooLong, { max: COURSE_NAME_MAX })),
    teacher: text(COURSE_TEXT_MAX),
    ...timeFields,
  })
  .superRefine(periodOrder);

export type OwnCourseFields = z.input<typeof OwnCourseSchema>;

/** A school course's local override: its room, time, weeks, note and colour (the name stays the school's). */
export const OverrideSchema = z.object({ ...where, ...timeFields }).superRefine(periodOrder);

export type OverrideFields = z.input<typeof OverrideSchema>;

/** The other buttons of the edit screen. */
export const CourseCommandSchema = z.object({
  ...where,
  intent: z.enum(["hide", "show", "remove"]),
});

/** /schedule's display settings: other weeks greyed, and the feed's alarm lead time. */
export const DisplaySettingsSchema = z.object({
  intent: z.literal("display"),
  ...where,
  term: where.term.optional().catch(undefined),
  showOtherWeeks: z.literal("on").optional(),
  alarmMinutes: z.coerce
    .number()
    .int()
    .refine((n) => (ALARM_CHOICES as readonly number[]).includes(n))
    .catch(15),
});

/** 撤销 of a change (its row in timetable_edits; checked to be the student's on the server). */
export const UndoSchema = z.object({
  intent: z.literal("undo"),
  term: where.term.optional().catch(undefined),
  week: where.week,
  edit: z.coerce.number().int().positive().max(2_147_483_647),
});

const isoDate = z.string({ error: t.calendarDateInvalid }).regex(/^\d{4}-\d{2}-\d{2}$/, t.calendarDateInvalid);

/** /admin/school-calendar: one 校历 entry of a school's term. */
export const CalendarEntrySchema = z
  .object({
    intent: z.literal("add"),
    school: z.string().trim().min(1).max(40),
    term: where.term,
    kind: z.enum(CALENDAR_KINDS, { error: t.calendarKindRequired }),
    from: isoDate,
    to: isoDate.optional(),
    runsDate: isoDate.optional(),
    label: z.string({ error: t.calendarLabelRequired }).trim().min(1, t.calendarLabelRequired).max(COURSE_TEXT_MAX, fillTemplate(t.textTooLong, { max: COURSE_TEXT_MAX })),
  })
  .superRefine((value, ctx) => {
    if (value.kind === "makeup" && !value.runsDate) ctx.addIssue({ code: "custom", message: t.calendarRunsRequired, path: ["runsDate"] });
    if (value.kind !== "makeup" && value.to && value.to < value.from) ctx.addIssue({ code: "custom", message: t.calendarOrder, path: ["to"] });
  });

export type CalendarEntryFields = z.input<typeof CalendarEntrySchema>;

export const CalendarDeleteSchema = z.object({ intent: z.literal("delete"), id: z.coerce.number().int().positive().max(2_147_483_647) });

/** /schedule/import, step one: the file (multipart; its bytes are checked by the server's reader). */
export const ImportReadSchema = z.object({
  ...where,
  file: z.instanceof(File, { message: t.importNoFile }).refine((file) => file.size > 0, t.importNoFile),
});

/** /schedule/import, step two: the sealed preview the student confirms. */
export const ImportConfirmSchema = z.object({
  ...where,
  token: z.string().min(1).max(100_000),
});
