import { grantAtStudentLogin } from "../coupons/campaign.server";
import { seal, unseal } from "../crypto.server";
import { db, now } from "../db/db.server";
import { log } from "../log.server";
import { countLoginFailure, countRateLimitRefusal } from "../metrics.server";
import { deleteUserData } from "../users/deletion.server";
import type { CaptchaAnswer, LoginFailure, Profile } from "../school/index.server";
import { academicSystemFor, findSchool, saveAcademicSession } from "../school/school.server";
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { verifyCaptcha } from "./captcha.server";
import { spendProof } from "./proof-of-work.server";
import { accountKey, clearAccountThrottle, recordFailure, throttleKeys, throttleWait, trustDevice } from "./rate-limit.server";
import { mergeUserRows, messengerIdentityOf, releaseMessengerIdentity } from "./messenger.server";
import { createUserSession, type User } from "./session.server";

export type LoginInput = {
  school: string;
  studentId: string;
  password: string;
  captcha?: string;
  captchaId?: string;
  schoolCaptcha?: string;
  schoolCaptchaState?: string;
};

/** The school's image captcha to show: the picture as a data URL and its sealed school session. */
export type SchoolChallenge = { image: string; state: string };

export type LoginContext = {
  ip: string;
  /** The login request (its __trusted device cookie decides which throttle keys count, decision 015). */
  request: Request;
  deviceId: string;
  inMessenger: boolean;
  /** The user of the browser's current session (a messenger identity, maybe a student). */
  current: User | null;
  /** The form's proof-of-work solution (absent without JavaScript; decision 033). */
  proof?: unknown;
  /** The caller's verdict on the proof, when it spent it already (the invite registration). */
  proved?: boolean;
};

export type LoginField = "school" | "studentId" | "password" | "captcha";

/**
 * Why a student login was refused (the routes word it, app/server/http/student-login-refusals.ts):
 * the messenger authorization comes first (`wechat_auth_required`), a school not served, the
 * throttle's wait (`too_many`), our captcha, and the school's verdicts: `wrong_password` (an
 * unknown id too: the login never tells which ids exist, decision 015), `account_locked`,
 * `school_captcha_required`, `school_unavailable`, `school_timeout`, `school_failed`, and
 * `school_captcha_needed` (the school shows a picture to read and nothing was read yet).
 */
export type StudentLoginRefusalReason =
  | "wechat_auth_required"
  | "unknown_school"
  | "too_many"
  | "captcha_empty"
  | "captcha_wrong"
  | "wrong_password"
  | "account_locked"
  | "school_captcha_required"
  | "school_unavailable"
  | "school_timeout"
  | "school_failed"
  | "school_captcha_needed";

export type StudentLoginRefusal = {
  ok: false;
  reason: StudentLoginRefusalReason;
  /** The form field the refusal is about; none: the whole form. */
  field?: LoginField;
  /** Whether our captcha was spent (a refusal before it was checked leaves it). */
  refreshCaptcha: boolean;
  /** too_many: how long this client must wait. */
  waitMs?: number;
  /** school_captcha_required, school_failed: the school's own words when it gave them, shown instead of ours. */
  schoolMessage?: string;
  schoolChallenge?: SchoolChallenge;
};

export type LoginOutcome = { ok: true; userId: number; setCookie: string; trustCookie: string } | StudentLoginRefusal;

function fail(reason: StudentLoginRefusalReason, extra: Omit<StudentLoginRefusal, "ok" | "reason" | "refreshCaptcha"> & { refreshCaptcha?: boolean } = {}): StudentLoginRefusal {
  countLoginFailure("student");
  return { ok: false, reason, ...extra, refreshCaptcha: extra.refreshCaptcha ?? true };
}

/** The refusal for each way the school can refuse a login. */
function schoolRefusal(failure: LoginFailure): StudentLoginRefusalReason {
  switch (failure.kind) {
    case "wrong_password":
    case "account_missing":
      // The same answer as a wrong password: the login page never confirms that an id exists (decision 015).
      return "wrong_password";
    case "account_locked":
      return "account_locked";
    case "captcha_required":
      return "school_captcha_required";
    case "unavailable":
      return "school_unavailable";
    case "timeout":
      return "school_timeout";
    case "failed":
      return "school_failed";
  }
}

/**
 * The whole student login: limits, captcha, the school's verdict, binding to the messenger
 * identity of this browser, and a new session that replaces the student's other sessions.
 */
export async function loginStudent(input: LoginInput, context: LoginContext): Promise<LoginOutcome> {
  if (context.inMessenger && !context.current?.openid) {
    return fail("wechat_auth_required", { refreshCaptcha: false });
  }
  const school = await findSchool(input.school);
  if (!school) return fail("unknown_school", { field: "school" });
  const account = accountKey(school.code, input.studentId);
  const keys = await throttleKeys(context.request, "student", account, context.ip);
  // A client still waiting out its backoff is refused before the captcha or the school is asked.
  const wait = await throttleWait(keys);
  if (wait > 0) {
    countRateLimitRefusal("student_login");
    return fail("too_many", { waitMs: wait });
  }

  // A proof of work (decision 033): without one (no JavaScript) a failure below counts double
  // against the client's guesses across accounts.
  const proved = context.proved ?? (await spendProof(context.proof));

  const captcha = await verifyCaptcha(input.captchaId, input.captcha);
  if (captcha === "empty") return fail("captcha_empty", { field: "captcha" });
  if (captcha === "wrong") return fail("captcha_wrong", { field: "captcha" });

  const result = await academicSystemFor(school).login(input.studentId, input.password, schoolCaptchaAnswer(input));
  if (!result.ok) {
    // Wrong passwords and unknown ids count alike (and answer alike); the school being down does not count.
    const guess = result.failure.kind === "wrong_password" || result.failure.kind === "account_missing";
    log("info", "login-refused", { school: school.code, reason: result.failure.kind });
    if (guess) {
      const nextWait = await recordFailure(keys, proved ? 1 : PROOF_OF_WORK.failuresWithoutProof);
      if (nextWait > 0) return fail("too_many", { field: "password", waitMs: nextWait });
    }
    const challenge = result.failure.challenge;
    // A picture nobody has read yet is asked for, whatever the school said with it.
    const reason = challenge && !input.schoolCaptcha ? "school_captcha_needed" : schoolRefusal(result.failure);
    // The school's own words stand only for a captcha it wants or a failure it explains.
    const explained = reason === "school_captcha_required" || reason === "school_failed";
    const refused = fail(reason, { field: guess ? "password" : undefined, schoolMessage: explained ? result.failure.schoolMessage : undefined });
    if (!challenge) return refused;
    return {
      ...refused,
      schoolChallenge: { image: `data:${challenge.contentType};base64,${challenge.image}`, state: seal(JSON.stringify(challenge.state)) },
    };
  }

  const bound = await bindStudentAccount(school.code, input.studentId, input.password, result.profile, context.current);

  await saveAcademicSession(bound.userId, result.session);
  await clearAccountThrottle(keys);
  // Coupons: the first student-id login is a new user's grant, with the assist of the
  // invite they opened in the same transaction; nothing for an old user; never fails the login.
  await grantAtStudentLogin(bound.userId);
  const session = await createUserSession(bound.userId, {
    deviceId: context.deviceId,
    platform: context.inMessenger ? "wechat" : "web",
  });
  return { ok: true, userId: bound.userId, setCookie: session.setCookie, trustCookie: await trustDevice(context.request, "student", account) };
}

/** The student's reading of the school's captcha, with the school session it was drawn in. */
function schoolCaptchaAnswer(input: LoginInput): CaptchaAnswer | undefined {
  if (!input.schoolCaptcha || !input.schoolCaptchaState) return undefined;
  try {
    const state = JSON.parse(unseal(input.schoolCaptchaState)) as Record<string, string>;
    return { answer: input.schoolCaptcha, state };
  } catch {
    return undefined;
  }
}

type BindResult = { ok: true; userId: number };

/**
 * Puts the verified student account on the right users row (docs/architecture.md "One person, two
 * identities"): the row already holding it, else the browser's messenger-identity row, else a new
 * row. One student account ↔ one messenger identity, and the binding follows the last school
 * login: a messenger identity held by another student moves to this one (that student is signed
 * out here), and this student's former messenger identity is let go.
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
        // Another student's messenger: the identity leaves their row (their data stays) for this one.
        const identity = messengerIdentityOf(messengerRow);
        await releaseMessengerIdentity(trx, messengerRow.id);
        await trx.updateTable("sessions").set({ ended_at: timestamp, end_reason: "logout" }).where("user_id", "=", messengerRow.id).where("ended_at", "is", null).execute();
        if (owner?.openid) await releaseMessengerIdentity(trx, owner.id);
        if (owner) {
          await trx.updateTable("users").set({ ...studentColumns, ...identity }).where("id", "=", owner.id).execute();
          return { ok: true, userId: owner.id };
        }
        const created = await trx
          .insertInto("users")
          .values({ ...studentColumns, ...identity, student_bound_at: timestamp, created_at: timestamp })
          .returning("id")
          .executeTakeFirstOrThrow();
        return { ok: true, userId: created.id };
      }

      if (messengerRow && owner && owner.id !== messengerRow.id) {
        // This student's former messenger identity (another phone) is let go: the binding follows this login.
        if (owner.openid && owner.openid !== messengerRow.openid) await releaseMessengerIdentity(trx, owner.id);
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
