import * as z from "zod";
import * as msg from "../messages";

export const CampusChoiceSchema = z.object({
  campus: z.string({ error: msg.campus.required }).trim().min(1, msg.campus.required).max(64),
  redirectTo: z.string().max(2000).optional(),
});
