import * as z from "zod";
import * as msg from "../messages";
import { APPEARANCE_NAMES, DEFAULT_APPEARANCE, THEME_NAMES } from "../theme";

export const ThemeSchema = z.object({
  intent: z.literal("theme"),
  theme: z.enum(THEME_NAMES as [string, ...string[]], { error: msg.settings.themeInvalid }),
  appearance: z.enum(APPEARANCE_NAMES as [string, ...string[]], { error: msg.settings.appearanceInvalid }).default(DEFAULT_APPEARANCE),
});

export type ThemeFields = z.input<typeof ThemeSchema>;

export const LogoutSchema = z.object({ intent: z.literal("logout") });

export const DeleteAccountSchema = z.object({
  intent: z.literal("delete"),
  password: z.string({ error: msg.settings.deletePasswordRequired }).min(1, msg.settings.deletePasswordRequired).max(128),
});

export type DeleteAccountFields = z.input<typeof DeleteAccountSchema>;

/** The circle's notice switches: a checked box is "on", an unchecked one is not sent. */
export const NoticesSchema = z.object({
  intent: z.literal("notices"),
  replies: z.literal("on").optional(),
  mentions: z.literal("on").optional(),
  likes: z.literal("on").optional(),
});

export const SettingsSchema = z.discriminatedUnion("intent", [ThemeSchema, LogoutSchema, DeleteAccountSchema, NoticesSchema]);
