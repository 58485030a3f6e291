import type { User } from "../auth/session.server";
import { endUserSessions } from "../auth/session.server";
import { unseal } from "../crypto.server";
import { AcademicSystemError, type AcademicSession, type AcademicSystem } from "./index.server";
import { StoredCredentialsRejected } from "./types";
import { academicSystemFor, findSchool, loadAcademicSession, saveAcademicSession } from "./school.server";

/**
 * Runs `work` with the student's academic-system session. When the school's session has expired
 * it logs in again silently with the stored credentials and retries once (the product rules' silent
 * re-login). If the school now rejects the credentials, the student's own session ends and
 * StoredCredentialsRejected is thrown (the login page with '登录凭据无效，请重新登录').
 */
export async function withAcademicSession<T>(
  user: User,
  work: (system: AcademicSystem, session: AcademicSession) => Promise<T | { sessionExpired: true }>,
  options: { returnTo?: string } = {},
): Promise<T> {
  if (!user.school_code || !user.student_id || !user.password_enc) throw new StoredCredentialsRejected(options.returnTo);
  const school = await findSchool(user.school_code);
  if (!school) throw new AcademicSystemError("failed", `school ${user.school_code} is not configured`);
  const system = academicSystemFor(school);

  const stored = await loadAcademicSession(user.id);
  if (stored) {
    const result = await expiredAsMarker(() => work(system, stored));
    if (!isExpired(result)) return result;
  }

  const login = await system.login(user.student_id, unseal(user.password_enc));
  if (!login.ok) {
    if (["wrong_password", "account_missing", "account_locked"].includes(login.failure.kind)) {
      await endUserSessions(user.id, "credentials_invalid");
      throw new StoredCredentialsRejected(options.returnTo);
    }
    throw new AcademicSystemError(login.failure.kind === "timeout" ? "timeout" : "unavailable", "silent re-login failed", login.failure.schoolMessage);
  }
  await saveAcademicSession(user.id, login.session);
  const retried = await expiredAsMarker(() => work(system, login.session));
  if (isExpired(retried)) throw new AcademicSystemError("session_expired", "the school expired a fresh session");
  return retried;
}

async function expiredAsMarker<T>(run: () => Promise<T | { sessionExpired: true }>) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AcademicSystemError && error.kind === "session_expired") return { sessionExpired: true as const };
    throw error;
  }
}

function isExpired(value: unknown): value is { sessionExpired: true } {
  return typeof value === "object" && value !== null && "sessionExpired" in value;
}
