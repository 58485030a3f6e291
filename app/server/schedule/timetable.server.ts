// Loading the timetable: cache first (7 days per user and term), else the school's system
// through the student's academic session. The school's term information (current term, week-1
// Monday, term list) is cached per school for a day, with the product rules' fallback when it was never
// loaded. Invalid stored credentials clear the student's cache and end at the login page.
import { FALLBACK_TERM_INFO, SCHEDULE_CACHE_MS, TERM_INFO_CACHE_MS } from "~/lib/schedule";
import type { User } from "../auth/session.server";
import { db } from "../db/db.server";
import { compiledOnce } from "../db/compiled.server";
import { log } from "../log.server";
import { loadAcademic, loadTermCopy, parseStored, type AcademicLoadOptions, type LoadSource, type SchoolLoadFailure } from "../school/academic-load.server";
import { findSchool } from "../school/school.server";
import type { TermInfo, Timetable } from "../school/index.server";

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
  source: LoadSource;
  /** Why, when the school could not be asked or did not answer. */
  failure: SchoolLoadFailure | null;
};

export async function clearTimetableCache(userId: number) {
  await db().deleteFrom("timetable_cache").where("user_id", "=", userId).execute();
}

/** The school's term calendar: cached for a day; when the school cannot say, the last known one, else the product rules' default. */
export async function loadTermInfo(user: User, options: Pick<AcademicLoadOptions, "now" | "returnTo"> = {}): Promise<TermInfoResult> {
  const schoolCode = user.school_code ?? "";
  const load = await loadAcademic({
    user,
    what: "timetable",
    options: { now: options.now, returnTo: options.returnTo },
    maxAgeMs: TERM_INFO_CACHE_MS,
    row: await termInfo.executeTakeFirst(schoolCode),
    read: (row) => parseStored<TermInfo>(row.data),
    ask: (system, session) => system.termInfo(session),
    store: async (info: TermInfo, fetchedAt) => {
      const data = JSON.stringify(info);
      await db()
        .insertInto("school_term_info")
        .values({ school_code: schoolCode, data, fetched_at: fetchedAt })
        .onConflict((oc) => oc.column("school_code").doUpdateSet({ data, fetched_at: fetchedAt }))
        .execute();
      return info;
    },
    clear: () => clearTimetableCache(user.id),
    logFailure: (error) => log("warn", "term-info-failed", { school: schoolCode, error: String(error) }),
  });
  // Without credentials the school was simply not asked: no failure to tell.
  const schoolFailure = load.failure?.reason === "failed" ? load.failure : undefined;
  return load.value ? { info: load.value, source: load.source as TermInfoSource, schoolFailure } : { info: FALLBACK_TERM_INFO, source: "fallback", schoolFailure };
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
 * throw the redirect to the login page ('登录凭据无效，请重新登录').
 */
export async function loadTimetable(user: User, term: string, options: AcademicLoadOptions = {}): Promise<TimetableLoad> {
  const row = await timetableCache.executeTakeFirst(user.id, term);
  const { value, ...load } = await loadTermCopy("timetable_cache", row, {
    user, term, options, what: "timetable", maxAgeMs: SCHEDULE_CACHE_MS,
    ask: (system, session) => system.timetable(session, term),
    copy: (timetable): Timetable => ({ term, courses: timetable.courses, notes: timetable.notes }),
    clear: () => clearTimetableCache(user.id),
    logFailure: (error) => log("warn", "timetable-failed", { userId: user.id, term, error: String(error) }),
  });
  return { timetable: value, ...load };
}

/**
 * What is known of a school's term calendar without a student's session (POST
 * /info/schedule_init): the last answer its system gave, else the product rules' default; null for a
 * school we do not serve.
 */
export async function knownTermInfo(schoolCode: string): Promise<TermInfoResult | null> {
  if (!(await findSchool(schoolCode))) return null;
  const row = await db().selectFrom("school_term_info").selectAll().where("school_code", "=", schoolCode).executeTakeFirst();
  const cached = row ? parseStored<TermInfo>(row.data) : null;
  return cached ? { info: cached, source: "cache" } : { info: FALLBACK_TERM_INFO, source: "fallback" };
}
