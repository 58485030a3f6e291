import * as z from "zod";

// The forms of /backpack/grades and /backpack/exams, told apart by `intent`.
const term = z.string().regex(/^\d{4}-\d{4}-[123]$/).optional().catch(undefined);

export const GradesActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("refresh") }),
  z.object({ intent: z.literal("notify"), notifyNewGrades: z.literal("on").optional() }),
]);

export const ExamsActionSchema = z.object({ intent: z.literal("refresh"), term });
