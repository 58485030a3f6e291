// Loading what a student's school system knows (timetable, grades, exams, the term calendar),
// written once: the cached copy while it is fresh (unless refreshed), else the school's answer
// through the student's academic session, stored for next time; when the school cannot be asked
// or fails, a cached copy of any age with the failure. Invalid stored credentials clear the
// caller's cache and rethrow the redirect to the login page.
import type { User } from "../auth/session.server";
import { withAcademicSession } from "./academic-session.server";
import { AcademicSystemError, type AcademicSession, type AcademicSystem } from "./index.server";

/**
 * Why the school's copy could not be had: no stored credentials to ask with, or the school failed
 * when asked for `what` (with its own words when it gave any). The pages word it.
 */
export type SchoolLoadFailure =
  | { reason: "credentials_missing" }
  | { reason: "failed"; what: "timetable" | "grades" | "exams"; schoolMessage: string | null };

/** The school failed while asked for `what`: its own words when it gave any. */
export function schoolFailed(error: unknown, what: "timetable" | "grades" | "exams"): SchoolLoadFailure {
  return { reason: "failed", what, schoolMessage: error instanceof AcademicSystemError && error.schoolMessage ? error.schoolMessage : null };
}

/** 'cache' or 'fresh' when all went well; 'stale' when a cached copy stands in after a failure; 'none': nothing to show. */
export type LoadSource = "cache" | "fresh" | "stale" | "none";

export type AcademicLoad<T> = {
  value: T | null;
  /** When the shown copy came from the school (ISO UTC); null when none is shown. */
  fetchedAt: string | null;
  source: LoadSource;
  /** Why, when the school could not be asked or did not answer. */
  failure: SchoolLoadFailure | null;
};

export type AcademicLoadSpec<Answer, T> = {
  user: User;
  /** The stored copy (null: none, or unreadable). */
  cached: { value: T; fetchedAt: string } | null;
  maxAgeMs: number;
  now: Date;
  refresh?: boolean;
  returnTo?: string;
  /** The school failed a moment ago in this same request: asking again would only wait another timeout. */
  schoolFailure?: SchoolLoadFailure;
  /** What the school is asked for, named in the failure. */
  what: "timetable" | "grades" | "exams";
  ask: (system: AcademicSystem, session: AcademicSession) => Promise<Answer | { sessionExpired: true }>;
  /** Stores the school's answer; returns the copy to show. `previous`: the cached copy it replaces. */
  store: (answer: Answer, fetchedAt: string, previous: T | null) => Promise<T>;
  /** Empties the caches the credentials fed (they were refused). */
  clear: () => Promise<void>;
  /** Logs the failure (each caller decides what of the error may be logged). */
  logFailure: (error: unknown) => void;
};

/** The stored credentials the silent login needs; without them the school cannot be asked. */
function hasCredentials(user: User) {
  return Boolean(user.school_code && user.student_id && user.password_enc);
}

export async function loadAcademic<Answer, T>(spec: AcademicLoadSpec<Answer, T>): Promise<AcademicLoad<T>> {
  const { cached, now } = spec;
  if (!spec.refresh && cached && now.getTime() - new Date(cached.fetchedAt).getTime() < spec.maxAgeMs) {
    return { value: cached.value, fetchedAt: cached.fetchedAt, source: "cache", failure: null };
  }
  const fallback = (failure: SchoolLoadFailure): AcademicLoad<T> =>
    cached
      ? { value: cached.value, fetchedAt: cached.fetchedAt, source: "stale", failure }
      : { value: null, fetchedAt: null, source: "none", failure };
  if (!hasCredentials(spec.user)) return fallback({ reason: "credentials_missing" });
  if (spec.schoolFailure) return fallback(spec.schoolFailure);
  let answer: Answer;
  try {
    answer = await withAcademicSession(spec.user, spec.ask, { returnTo: spec.returnTo });
  } catch (error) {
    // Invalid credentials: withAcademicSession throws the login redirect; the cache goes with them.
    if (error instanceof Response) {
      await spec.clear();
      throw error;
    }
    spec.logFailure(error);
    return fallback(schoolFailed(error, spec.what));
  }
  const fetchedAt = now.toISOString();
  const value = await spec.store(answer, fetchedAt, cached?.value ?? null);
  return { value, fetchedAt, source: "fresh", failure: null };
}

/** A stored copy's text read as JSON; null when it cannot be (the copy is then as good as none). */
export function parseStored<T>(text: string, decode: (text: string) => string = (same) => same): T | null {
  try {
    return JSON.parse(decode(text)) as T;
  } catch {
    return null;
  }
}
