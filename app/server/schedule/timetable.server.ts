// Loading the timetable: cache first (7 days per user and term), else the school's system
// through the student's academic session. The school's term information (current term, week-1
// Monday, term list) is cached per school for a day, with the product rules' fallback when it was never
// loaded. Invalid stored credentials clear the student's cache and end at the login page.
import { FALLBACK_TERM_INFO, SCHEDULE_CACHE_MS, TERM_INFO_CACHE_MS } from "~/lib/schedule";
import type { User } from "../auth/session.server";
import { db } from "../db/db.server";
import { compiledOnce } from "../db/compiled.server";
import { log } from "../log.server";
import { withAcademicSession } from "../school/academic-session.server";
import { findSchool } from "../school/school.server";
import { AcademicSystemError, StoredCredentialsRejected, type TermInfo, type Timetable } from "../school/index.server";

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

export type TermInfoSource = "cache" | "fresh" | "stale" | "fallback";
export type TermInfoResult = {
  info: TermInfo;
  source: TermInfoSource;
  /** Set when the school was asked and failed (slow, down); told as the timetable's failure. */
  schoolFailure?: SchoolLoadFailure;
};

export type TimetableLoad = {
  timetable: Timetable | null;
  /** When the shown timetable came from the school (ISO UTC); null when none is shown. */
  fetchedAt: string | null;
  /** 'cache' or 'fresh' when all went well; 'stale' when a cached copy stands in after a failure. */
  source: "cache" | "fresh" | "stale" | "none";
  /** Why, when the school could not be asked or did not answer. */
  failure: SchoolLoadFailure | null;
};

type Options = { returnTo?: string; now?: Date };

/** The stored credentials the silent login needs; without them the school cannot be asked. */
function hasCredentials(user: User) {
  return Boolean(user.school_code && user.student_id && user.password_enc);
}

/** Invalid credentials: withAcademicSession throws StoredCredentialsRejected; the cache goes with them. */
async function clearingOnRejection<T>(userId: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StoredCredentialsRejected) await clearTimetableCache(userId);
    throw error;
  }
}

export async function clearTimetableCache(userId: number) {
  await db().deleteFrom("timetable_cache").where("user_id", "=", userId).execute();
}

function parseJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The school's term calendar: cached for a day; when the school cannot say, the last known one, else the product rules' default. */
export async function loadTermInfo(user: User, options: Options = {}): Promise<TermInfoResult> {
  const now = options.now ?? new Date();
  const schoolCode = user.school_code ?? "";
  const row = await termInfo.executeTakeFirst(schoolCode);
  const cached = row ? parseJson<TermInfo>(row.data) : null;
  if (row && cached && now.getTime() - new Date(row.fetched_at).getTime() < TERM_INFO_CACHE_MS) {
    return { info: cached, source: "cache" };
  }
  const fallback = (schoolFailure?: SchoolLoadFailure): TermInfoResult =>
    cached ? { info: cached, source: "stale", schoolFailure } : { info: FALLBACK_TERM_INFO, source: "fallback", schoolFailure };
  if (!hasCredentials(user)) return fallback();
  try {
    const info = await clearingOnRejection(user.id, () =>
      withAcademicSession(user, (system, session) => system.termInfo(session), { returnTo: options.returnTo }),
    );
    const values = { school_code: schoolCode, data: JSON.stringify(info), fetched_at: now.toISOString() };
    await db()
      .insertInto("school_term_info")
      .values(values)
      .onConflict((oc) => oc.column("school_code").doUpdateSet({ data: values.data, fetched_at: values.fetched_at }))
      .execute();
    return { info, source: "fresh" };
  } catch (error) {
    if (error instanceof StoredCredentialsRejected) throw error;
    log("warn", "term-info-failed", { school: schoolCode, error: String(error) });
    return fallback(schoolFailed(error, "timetable"));
  }
}

/** The cached timetable of a user and term (its primary key; the query-plan test reads it). */
export function timetableCacheQuery(userId: number, term: string) {
  return db().selectFrom("timetable_cache").selectAll().where("user_id", "=", userId).where("term", "=", term);
}

// Every timetable page reads both: compiled once (db/compiled.server.ts).
const timetableCache = compiledOnce(timetableCacheQuery);
const termInfo = compiledOnce((schoolCode: string) => db().selectFrom("school_term_info").selectAll().where("school_code", "=", schoolCode));

/**
 * The student's timetable of a term: the cached copy while it is under 7 days old (unless
 * `refresh`), else a fresh one from the school, stored for next time. When the school fails, a
 * cached copy of any age is shown with the failure; invalid credentials clear the cache and
 * throw StoredCredentialsRejected (the login page says '登录凭据无效，请重新登录').
 */
export async function loadTimetable(
  user: User,
  term: string,
  options: Options & { refresh?: boolean; schoolFailure?: SchoolLoadFailure } = {},
): Promise<TimetableLoad> {
  const now = options.now ?? new Date();
  const row = await timetableCache.executeTakeFirst(user.id, term);
  const cached = row ? parseJson<Timetable>(row.data) : null;
  if (!options.refresh && row && cached && now.getTime() - new Date(row.fetched_at).getTime() < SCHEDULE_CACHE_MS) {
    return { timetable: cached, fetchedAt: row.fetched_at, source: "cache", failure: null };
  }
  const fallback = (failure: SchoolLoadFailure): TimetableLoad =>
    row && cached
      ? { timetable: cached, fetchedAt: row.fetched_at, source: "stale", failure }
      : { timetable: null, fetchedAt: null, source: "none", failure };

  if (!hasCredentials(user)) return fallback({ reason: "credentials_missing" });
  // The school failed a moment ago in this same request (loadTermInfo's schoolFailure): asking it
  // again would make the student wait a second timeout for the same answer.
  if (options.schoolFailure) return fallback(options.schoolFailure);
  try {
    const timetable = await clearingOnRejection(user.id, () =>
      withAcademicSession(user, (system, session) => system.timetable(session, term), { returnTo: options.returnTo }),
    );
    const fetchedAt = now.toISOString();
    const data = JSON.stringify({ term, courses: timetable.courses, notes: timetable.notes } satisfies Timetable);
    await db()
      .insertInto("timetable_cache")
      .values({ user_id: user.id, term, data, fetched_at: fetchedAt })
      .onConflict((oc) => oc.columns(["user_id", "term"]).doUpdateSet({ data, fetched_at: fetchedAt }))
      .execute();
    return { timetable: { term, courses: timetable.courses, notes: timetable.notes }, fetchedAt, source: "fresh", failure: null };
  } catch (error) {
    if (error instanceof StoredCredentialsRejected) throw error;
    log("warn", "timetable-failed", { userId: user.id, term, error: String(error) });
    return fallback(schoolFailed(error, "timetable"));
  }
}

/**
 * What is known of a school's term calendar without a student's session (POST
 * /info/schedule_init): the last answer its system gave, else the product rules' default; null for a
 * school we do not serve.
 */
export async function knownTermInfo(schoolCode: string): Promise<TermInfoResult | null> {
  if (!(await findSchool(schoolCode))) return null;
  const row = await db().selectFrom("school_term_info").selectAll().where("school_code", "=", schoolCode).executeTakeFirst();
  const cached = row ? parseJson<TermInfo>(row.data) : null;
  return cached ? { info: cached, source: "cache" } : { info: FALLBACK_TERM_INFO, source: "fallback" };
}
