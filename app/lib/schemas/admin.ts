import * as z from "zod";
import * as msg from "../messages";

// Forms of the operator pages (/admin/**). Imported by loaders and actions only.

export const AdminLoginSchema = z.object({
  username: z
    .string({ error: msg.admin.usernameRequired })
    .trim()
    .min(1, msg.admin.usernameRequired)
    .max(64, msg.admin.invalidCredentials),
  password: z
    .string({ error: msg.admin.passwordRequired })
    .min(1, msg.admin.passwordRequired)
    .max(1024, msg.admin.invalidCredentials),
  redirectTo: z.string().max(2000).optional(),
  captcha: z.string({ error: msg.admin.captchaRequired }).trim().min(1, msg.admin.captchaRequired).max(8, msg.admin.captchaWrong),
  // The signed captcha token (app/server/auth/captcha.server.ts).
  captchaId: z.string().max(400).optional(),
});

export type AdminLoginFields = z.input<typeof AdminLoginSchema>;

export const AdminSettingsSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("link-messenger") }),
  z.object({ intent: z.literal("unlink-messenger") }),
]);
