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

type Answer = { status: number; message: string };

// A refused login form is 401, except the messenger authorization it must ask for first.
export const STUDENT_LOGIN_REFUSALS: Record<StudentLoginRefusalReason, Answer> = {
  wechat_auth_required: { status: 400, message: msg.login.requireWechatAuth },
  unknown_school: { status: 401, message: msg.login.unknownSchool },
  // The wait is filled in by studentLoginRefusal.
  too_many: { status: 401, message: msg.login.tooManyAttempts },
  captcha_empty: { status: 401, message: msg.login.captchaEmpty },
  captcha_wrong: { status: 401, message: msg.login.captchaWrong },
  wrong_password: { status: 401, message: msg.login.wrongPassword },
  account_locked: { status: 401, message: msg.login.accountLocked },
  school_captcha_required: { status: 401, message: msg.login.schoolCaptchaRequired },
  school_unavailable: { status: 401, message: msg.login.unreachable },
  school_timeout: { status: 401, message: msg.login.timeout },
  school_failed: { status: 401, message: msg.login.validationFailed },
  school_captcha_needed: { status: 401, message: msg.login.schoolCaptchaHint },
};

/**
 * A refused student login as the form shows it: the status, the message (the wait in words, or
 * the school's own words when it gave them), the field it belongs beside and the page's code.
 */
export function studentLoginRefusal(refused: StudentLoginRefusal): Answer & { field?: LoginField; code: LoginErrorCode | null } {
  const { status, message } = STUDENT_LOGIN_REFUSALS[refused.reason];
  return {
    status,
    message: refused.reason === "too_many" ? tooManyMessage(message, refused.waitMs ?? 0) : (refused.schoolMessage ?? message),
    field: refused.field,
    code: refused.reason === "wechat_auth_required" ? "REQUIRE_WECHAT_AUTH" : null,
  };
}
