import * as z from "zod";
import * as msg from "../messages";
import { NICKNAME_MAX, NICKNAME_MIN, nicknameProblem, type NicknameProblem } from "../nickname";
import { fillTemplate } from "../template";

const MESSAGES: Record<NicknameProblem, string> = {
  required: msg.profile.nicknameRequired,
  tooShort: fillTemplate(msg.profile.nicknameTooShort, { min: NICKNAME_MIN }),
  tooLong: fillTemplate(msg.profile.nicknameTooLong, { max: NICKNAME_MAX }),
  reserved: msg.profile.nicknameReserved,
  abusive: msg.profile.nicknameAbusive,
  digits: msg.profile.nicknameDigits,
  symbols: msg.profile.nicknameSymbols,
};

/** /backpack/profile: the nickname the circle shows (the rules live in lib/nickname.ts). */
export const NicknameSchema = z.object({
  intent: z.literal("nickname"),
  nickname: z
    .string({ error: msg.profile.nicknameRequired })
    .trim()
    .superRefine((value, ctx) => {
      const problem = nicknameProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: MESSAGES[problem] });
    }),
  redirectTo: z.string().optional(),
});

export type NicknameFields = z.input<typeof NicknameSchema>;
