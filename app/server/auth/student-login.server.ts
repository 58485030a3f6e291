import * as msg from "~/lib/messages";
import { grantAtStudentLogin } from "../coupons/campaign.server";
import { seal } from "../crypto.server";
import { db, now } from "../db/db.server";
import { log } from "../log.server";
import { countLoginFailure, countRateLimitRefusal } from "../metrics.server";
import { deleteUserData } from "../users/deletion.server";
import type { LoginFailure, Profile } from "../school/index.server";
import { academicSystemFor, findSchool, saveAcademicSession } from "../school/school.server";
import { verifyCaptcha } from "./captcha.server";
import { accountKey, isAccountLocked, isIpLimited, recordAttempt, recentFailures, ACCOUNT_WRONG_PASSWORD_LIMIT } from "./rate-limit.server";
import { mergeUserRows } from "./messenger.server";
import { createUserSession, type User } from "./session.server";

export type LoginInput = {
  school: string;
  studentId: string;
  password: string;
  captcha?: string;
  captchaId?: string;
};

export type LoginContext = {
  ip: string;
  deviceId: string;
  inMessenger: boolean;
  /** The user of the browser's current session (a messenger identity, maybe a student). */
  current: User | null;
};

export type LoginErrorCode = "REQUIRE_WECHAT_AUTH" | "ACCOUNT_ALREADY_BOUND" | "WECHAT_ALREADY_BOUND";

export type LoginOutcome =
  | { ok: true; userId: number; setCookie: string }
  | {
      ok: false;
      message: string;
      field?: "school" | "studentId" | "password" | "captcha";
      code?: LoginErrorCode;
      refreshCaptcha: boolean;
    };

function fail(message: string, extra: { field?: "school" | "studentId" | "password" | "captcha"; code?: LoginErrorCode; refreshCaptcha?: boolean } = {}) {
  countLoginFailure("student");
  if (message === msg.login.tooManyAttempts || message === msg.login.accountLockedFor) countRateLimitRefusal("student_login");
  return { ok: false as const, message, refreshCaptcha: extra.refreshCaptcha ?? true, field: extra.field, code: extra.code };
}

/** The message a student sees for each way the school can refuse a login (spec doc 1 §8). */
export function failureMessage(failure: LoginFailure): string {
  switch (failure.kind) {
    case "wrong_password":
      return msg.login.wrongPassword;
    case "account_missing":
      return msg.login.accountMissing;
    case "account_locked":
      return msg.login.accountLocked;
    case "captcha_required":
      return failure.schoolMessage ?? msg.login.schoolCaptchaRequired;
    case "unavailable":
      return msg.login.unreachable;
    case "timeout":
      return msg.login.timeout;
    case "failed":
      return failure.schoolMessage ?? msg.login.validationFailed;
  }
}

/**
 * The whole student login: limits, captcha, the school's verdict, binding to the messenger
 * identity of this browser, and a new session that replaces the student's other sessions.
 */
export async function loginStudent(input: LoginInput, context: LoginContext): Promise<LoginOutcome> {
  if (context.inMessenger && !context.current?.openid) {
    return fail(msg.login.requireWechatAuth, { code: "REQUIRE_WECHAT_AUTH", refreshCaptcha: false });
  }
  if (await isIpLimited(context.ip)) return fail(msg.login.tooManyAttempts);

  const captcha = await verifyCaptcha(input.captchaId, input.captcha);
  if (captcha === "empty") return fail(msg.login.captchaEmpty, { field: "captcha" });
  if (captcha === "wrong") return fail(msg.login.captchaWrong, { field: "captcha" });

  const school = await findSchool(input.school);
  if (!school) return fail(msg.login.unknownSchool, { field: "school" });
  const key = accountKey(school.code, input.studentId);
  if (await isAccountLocked(school.code, input.studentId)) return fail(msg.login.accountLockedFor);

  const result = await academicSystemFor(school).login(input.studentId, input.password);
  if (!result.ok) {
    const outcome = result.failure.kind === "wrong_password" ? "wrong_password" : "failure";
    await recordAttempt("account", key, outcome);
    await recordAttempt("ip", context.ip, outcome);
    log("info", "login-refused", { school: school.code, reason: result.failure.kind });
    if (outcome === "wrong_password" && (await recentFailures("account", key, ["wrong_password"])) >= ACCOUNT_WRONG_PASSWORD_LIMIT) {
      return fail(msg.login.accountLockedFor);
    }
    return fail(failureMessage(result.failure), { field: result.failure.kind === "wrong_password" ? "password" : undefined });
  }

  const bound = await bindStudentAccount(school.code, input.studentId, input.password, result.profile, context.current);
  if (!bound.ok) return fail(bound.code === "ACCOUNT_ALREADY_BOUND" ? msg.login.accountAlreadyBound : msg.login.wechatAlreadyBound, { code: bound.code });

  await saveAcademicSession(bound.userId, result.session);
  await recordAttempt("account", key, "success");
  // Coupons (issue 9): the first student-id login is a new user's grant, with the assist of the
  // invite they opened in the same transaction; nothing for an old user; never fails the login.
  await grantAtStudentLogin(bound.userId);
  const session = await createUserSession(bound.userId, {
    deviceId: context.deviceId,
    platform: context.inMessenger ? "wechat" : "web",
  });
  return { ok: true, userId: bound.userId, setCookie: session.setCookie };
}

type BindResult = { ok: true; userId: number } | { ok: false; code: "ACCOUNT_ALREADY_BOUND" | "WECHAT_ALREADY_BOUND" };

/**
 * Puts the verified student account on the right users row (ARCHITECTURE "One person, two
 * identities"): the row already holding it, else the browser's messenger-identity row, else a new
 * row. One student account ↔ one messenger identity; conflicts are the spec's 409s.
 */
async function bindStudentAccount(schoolCode: string, studentId: string, password: string, profile: Profile, current: User | null): Promise<BindResult> {
  const timestamp = now();
  const studentColumns = {
    school_code: schoolCode,
    student_id: studentId,
    password_enc: seal(password),
    real_name: profile.name,
    class_name: profile.className ?? null,
    college: profile.college ?? null,
    updated_at: timestamp,
  };
  return db()
    .transaction()
    .execute(async (trx): Promise<BindResult> => {
      let owner = await trx
        .selectFrom("users")
        .selectAll()
        .where("school_code", "=", schoolCode)
        .where("student_id", "=", studentId)
        .executeTakeFirst();
      if (owner?.deletion_requested_at) {
        // A deleted account that logs in before the job ran starts afresh.
        await deleteUserData(trx, owner.id);
        owner = undefined;
      }
      const messengerRow = current?.openid ? current : null;
      if (messengerRow?.student_id && (messengerRow.student_id !== studentId || messengerRow.school_code !== schoolCode)) {
        return { ok: false, code: "WECHAT_ALREADY_BOUND" };
      }

      if (messengerRow && owner && owner.id !== messengerRow.id) {
        if (owner.openid && owner.openid !== messengerRow.openid) return { ok: false, code: "ACCOUNT_ALREADY_BOUND" };
        // The messenger identity joins the student's row; what it did alone moves with it.
        await mergeUserRows(messengerRow.id, owner.id, trx);
        await trx.updateTable("users").set(studentColumns).where("id", "=", owner.id).execute();
        return { ok: true, userId: owner.id };
      }
      if (owner) {
        await trx.updateTable("users").set(studentColumns).where("id", "=", owner.id).execute();
        return { ok: true, userId: owner.id };
      }
      if (messengerRow) {
        await trx
          .updateTable("users")
          .set({ ...studentColumns, student_bound_at: timestamp })
          .where("id", "=", messengerRow.id)
          .execute();
        return { ok: true, userId: messengerRow.id };
      }
      const created = await trx
        .insertInto("users")
        .values({ ...studentColumns, student_bound_at: timestamp, created_at: timestamp })
        .returning("id")
        .executeTakeFirstOrThrow();
      return { ok: true, userId: created.id };
    });
}
