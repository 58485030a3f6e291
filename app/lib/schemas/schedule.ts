import * as z from "zod";
import * as msg from "../messages";
import { CONTACT_MAX, COURSE_KINDS, MUTUAL_HELP_NOTE_MAX, isValidContact } from "../mutual-help";
import { fillTemplate } from "../template";
import { DisplaySettingsSchema, UndoSchema } from "./timetable";

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

export const ScheduleActionSchema = z.discriminatedUnion("intent", [RefreshSchema, RemindersSchema, CalendarTokenSchema, ReloginSchema, DisplaySettingsSchema, UndoSchema]);

const contact = z
  .string()
  .trim()
  .max(CONTACT_MAX, msg.mutualHelp.contactInvalid)
  .refine(isValidContact, msg.mutualHelp.contactInvalid);

// /schedule/mutual-help: the class travels as its place in the student's timetable (term, week,
// course; read with readHelpCourseRef and looked up on the server); the student chooses the type
// and may add a contact and a note.
export const MutualHelpSchema = z.object({
  // Which meeting of the class: one of the coming ones the page offers (checked again on the server).
  week: z.number({ error: msg.helpDates.chooseDate }).int(msg.helpDates.chooseDate).min(1, msg.helpDates.chooseDate).max(26, msg.helpDates.chooseDate),
  kind: z.enum(COURSE_KINDS, { error: msg.mutualHelp.chooseKind }),
  note: z
    .string()
    .trim()
    .max(MUTUAL_HELP_NOTE_MAX, fillTemplate(msg.mutualHelp.noteTooLong, { max: MUTUAL_HELP_NOTE_MAX }))
    .optional(),
  contact: contact.optional(),
});

export type MutualHelpFields = z.input<typeof MutualHelpSchema>;

/** /post/:id/help: 我来帮忙 needs the helper's contact. */
export const HelpOfferSchema = z.object({
  contact: z.string({ error: msg.mutualHelp.offerContactRequired }).trim().min(1, msg.mutualHelp.offerContactRequired).pipe(contact),
});

export type HelpOfferFields = z.input<typeof HelpOfferSchema>;
