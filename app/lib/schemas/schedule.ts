import * as z from "zod";
import * as msg from "../messages";
import { COURSE_KINDS, MUTUAL_HELP_NOTE_MAX } from "../mutual-help";
import { fillTemplate } from "../template";

// The forms of /schedule, told apart by `intent`. Each carries the term and week the student is
// looking at, so the redirect after it lands on the same week (no JavaScript needed).
const where = {
  term: z.string().regex(/^\d{4}-\d{4}-[123]$/).optional().catch(undefined),
  week: z.coerce.number().int().min(1).max(26).optional().catch(undefined),
};

const on = z.literal("on").optional();

export const RefreshSchema = z.object({ intent: z.literal("refresh"), ...where });

export const RemindersSchema = z.object({
  intent: z.literal("reminders"),
  ...where,
  courseReminder: on,
  substituteReminder: on,
  announcementReminder: on,
});

export const CalendarTokenSchema = z.object({ intent: z.literal("calendar"), ...where });

/** Missing stored credentials: end this session and log in again (which stores them). */
export const ReloginSchema = z.object({ intent: z.literal("relogin"), ...where });

export const ScheduleActionSchema = z.discriminatedUnion("intent", [RefreshSchema, RemindersSchema, CalendarTokenSchema, ReloginSchema]);

// /schedule/mutual-help: the course details travel as hidden fields and are read with
// readHelpCourse (bounded, junk dropped); the student chooses the type and may add a note.
export const MutualHelpSchema = z.object({
  kind: z.enum(COURSE_KINDS, { error: msg.mutualHelp.chooseKind }),
  note: z
    .string()
    .trim()
    .max(MUTUAL_HELP_NOTE_MAX, fillTemplate(msg.mutualHelp.noteTooLong, { max: MUTUAL_HELP_NOTE_MAX }))
    .optional(),
});
