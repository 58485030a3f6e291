import * as z from "zod";
import * as msg from "../messages";

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const LoginSchema = z.object({
  school: required(msg.login.selectSchool).max(64),
  studentId: required(msg.login.enterStudentId).max(32),
  // Passwords are not trimmed: a space can be part of one.
  password: z.string({ error: msg.login.enterPassword }).min(1, msg.login.enterPassword).max(128),
  captcha: required(msg.login.enterCaptcha).max(8),
  captchaId: z.string().max(64).optional(),
  redirectTo: z.string().max(2000).optional(),
  // The school's own image captcha (QiangZhi), when its system asked for one: the student's
  // reading and the sealed school session the picture belongs to.
  schoolCaptcha: z.string().trim().max(16).optional(),
  schoolCaptchaState: z.string().max(4000).optional(),
});

export type LoginFields = z.input<typeof LoginSchema>;
