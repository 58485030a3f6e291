// What the routes answer when app/server/auth refuses a student login: the status and the
// catalogue's message for each reason. The school-account form (/crLogin, /login, through the
// remix-auth strategy) and the promo page's invite-register dialog word the same refusals, so the
// table is here once.
import { tooManyMessage } from "~/lib/login-throttle";
import { login as loginMessages } from "~/lib/messages/login";
import type { LoginField, StudentLoginRefusal, StudentLoginRefusalReason } from "~/server/auth/student-login.server";

const msg = { login: loginMessages };

/** The code the login page reads to open its messenger-authorization dialog. */
export type LoginErrorCode = "REQUIRE_WECHAT_AUTH";

/** Each refusal's message; `too_many` has the wait filled in by studentLoginRefusal. */
export const STUDENT_LOGIN_REFUSALS: Record<StudentLoginRefusalReason, string> = {
  wechat_auth_required: msg.login.requireWechatAuth,
  unknown_school: msg.login.unknownSchool,
  too_many: msg.login.tooManyAttempts,
  captcha_empty: msg.login.captchaEmpty,
  captcha_wrong: msg.login.captchaWrong,
  wrong_password: msg.login.wrongPassword,
  account_locked: msg.login.accountLocked,
  school_captcha_required: msg.login.schoolCaptchaRequired,
  school_unavailable: msg.login.unreachable,
  school_timeout: msg.login.timeout,
  school_failed: msg.login.validationFailed,
  school_captcha_needed: msg.login.schoolCaptchaHint,
};

/**
 * A refused student login as the form shows it: the status, the message (the wait in words, or
 * the school's own words when it gave them), the field it belongs beside and the page's code.
 */
export function studentLoginRefusal(refused: StudentLoginRefusal): { status: number; message: string; field?: LoginField; code: LoginErrorCode | null } {
  const message = STUDENT_LOGIN_REFUSALS[refused.reason];
  const wechat = refused.reason === "wechat_auth_required";
  return {
    // A refused login form is 401, except the messenger authorization it must ask for first.
    status: wechat ? 400 : 401,
    message: refused.reason === "too_many" ? tooManyMessage(message, refused.waitMs ?? 0) : (refused.schoolMessage ?? message),
    field: refused.field,
    code: wechat ? "REQUIRE_WECHAT_AUTH" : null,
  };
}
