// Loading what a student's school system knows (timetable, grades, exams, the term calendar),
// written once: the cached copy while it is fresh (unless refreshed), else the school's answer
// through the student's academic session, stored for next time; when the school cannot be asked
// or fails, a cached copy of any age with the failure. Invalid stored credentials clear the
// caller's cache and rethrow StoredCredentialsRejected (the request layer answers it with the login page).
import type { User } from "../auth/session.server";
import { db } from "../db/db.server";
import { withAcademicSession } from "./academic-session.server";
import { AcademicSystemError, StoredCredentialsRejected, type AcademicSession, type AcademicSystem } from "./index.server";

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

/** What a page may ask of a load: now, a refresh, where the login should return, a failure already met. */
export type AcademicLoadOptions = {
  now?: Date;
  refresh?: boolean;
  returnTo?: string;
  /** The school failed a moment ago in this same request: asking again would only wait another timeout. */
  schoolFailure?: SchoolLoadFailure;
};

export type AcademicLoadSpec<Row extends { fetched_at: string }, Answer, T> = {
  user: User;
  /** What the school is asked for, named in the failure. */
  what: "timetable" | "grades" | "exams";
  options: AcademicLoadOptions;
  maxAgeMs: number;
  /** The stored copy's row, if any, and how to read it (null: unreadable, as good as none). */
  row: Row | undefined;
  read: (row: Row) => T | null;
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

export async function loadAcademic<Row extends { fetched_at: string }, Answer, T>(spec: AcademicLoadSpec<Row, Answer, T>): Promise<AcademicLoad<T>> {
  const { options } = spec;
  const now = options.now ?? new Date();
  const value = spec.row ? spec.read(spec.row) : null;
  const cached = spec.row && value !== null ? { value, fetchedAt: spec.row.fetched_at } : null;
  if (!options.refresh && cached && now.getTime() - new Date(cached.fetchedAt).getTime() < spec.maxAgeMs) {
    return { value: cached.value, fetchedAt: cached.fetchedAt, source: "cache", failure: null };
  }
  const fallback = (failure: SchoolLoadFailure): AcademicLoad<T> =>
    cached
      ? { value: cached.value, fetchedAt: cached.fetchedAt, source: "stale", failure }
      : { value: null, fetchedAt: null, source: "none", failure };
  if (!hasCredentials(spec.user)) return fallback({ reason: "credentials_missing" });
  if (options.schoolFailure) return fallback(options.schoolFailure);
  let answer: Answer;
  try {
    answer = await withAcademicSession(spec.user, spec.ask, { returnTo: options.returnTo });
  } catch (error) {
    // Invalid credentials: withAcademicSession throws StoredCredentialsRejected; the cache goes with them.
    if (error instanceof StoredCredentialsRejected) {
      await spec.clear();
      throw error;
    }
    spec.logFailure(error);
    return fallback(schoolFailed(error, spec.what));
  }
  const fetchedAt = now.toISOString();
  const stored = await spec.store(answer, fetchedAt, cached?.value ?? null);
  return { value: stored, fetchedAt, source: "fresh", failure: null };
}

/** A stored copy's text read as JSON; null when it cannot be (the copy is then as good as none). */
export function parseStored<T>(text: string, decode: (text: string) => string = (same) => same): T | null {
  try {
    return JSON.parse(decode(text)) as T;
  } catch {
    return null;
  }
}

/**
 * A student's copy of one term (its timetable, its exams): a row of `table` by user and term
 * holding the copy as JSON, read, asked for and stored alike whichever it is.
 */
export async function loadTermCopy<Answer, T>(
  table: "timetable_cache" | "exams_cache",
  row: { data: string; fetched_at: string } | undefined,
  spec: Omit<AcademicLoadSpec<{ data: string; fetched_at: string }, Answer, T>, "row" | "read" | "store"> & { term: string; copy: (answer: Answer) => T },
): Promise<AcademicLoad<T>> {
  return loadAcademic({
    ...spec,
    row,
    read: (stored) => parseStored<T>(stored.data),
    store: async (answer, fetchedAt) => {
      const copy = spec.copy(answer);
      const data = JSON.stringify(copy);
      await db()
        .insertInto(table)
        .values({ user_id: spec.user.id, term: spec.term, data, fetched_at: fetchedAt })
        .onConflict((oc) => oc.columns(["user_id", "term"]).doUpdateSet({ data, fetched_at: fetchedAt }))
        .execute();
      return copy;
    },
  });
}
