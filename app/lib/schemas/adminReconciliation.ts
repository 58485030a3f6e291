import * as z from "zod";

// /admin/reconciliation and its CSV: the day in the URL ("2026-11-28", a real calendar day).
// Anything unreadable is today.
export const ReconciliationQuerySchema = z.object({
  day: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((day) => {
      const parsed = Date.parse(`${day}T00:00:00Z`);
      return !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 10) === day;
    })
    .optional()
    .catch(undefined),
});
