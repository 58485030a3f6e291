import * as z from "zod";

// The forms of /backpack/grades and /backpack/exams, told apart by `intent`.
const term = z.string().regex(/^\d{4}-\d{4}-[123]$/).optional().catch(undefined);

/** Missing stored credentials: end this session and log in again (which stores them). */
const relogin = z.object({ intent: z.literal("relogin"), term });

export const GradesActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("refresh") }),
  z.object({ intent: z.literal("notify"), notifyNewGrades: z.literal("on").optional() }),
  relogin,
]);

export const ExamsActionSchema = z.discriminatedUnion("intent", [z.object({ intent: z.literal("refresh"), term }), relogin]);
