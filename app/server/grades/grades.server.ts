// Loading grades and exams, cached like the timetable (decision 005): the cached copy while it is
// fresh (unless refreshed), else the school's system through the student's academic session;
// when the school fails, a cached copy of any age with its age and the failure; invalid stored
// credentials clear the caches and end at the login page. Grades are sealed at rest and never
// logged (only counts are). A refresh that finds new grades notifies the student.
import crypto from "node:crypto";
import { EXAMS_CACHE_MS } from "~/lib/exams";
import { GRADES_CACHE_MS, newGrades, type GradeRecord } from "~/lib/grades";
import type { User } from "../auth/session.server";
import { seal, unseal } from "../crypto.server";
import { db } from "../db/db.server";
import { compiledOnce } from "../db/compiled.server";
import { log } from "../log.server";
import { notify } from "../notify/notify.server";
import { withAcademicSession } from "../school/academic-session.server";
import { AcademicSystemError, StoredCredentialsRejected, type ExamList, type GradeReport } from "../school/index.server";
import { schoolFailed, type SchoolLoadFailure } from "../schedule/timetable.server";

export type LoadSource = "cache" | "fresh" | "stale" | "none";

export type GradesLoad = {
  report: GradeReport | null;
  fetchedAt: string | null;
  source: LoadSource;
  failure: SchoolLoadFailure | null;
  /** Results this load found that the previous copy did not have (fresh loads only). */
  newCount: number;
};

export type ExamsLoad = {
  list: ExamList | null;
  fetchedAt: string | null;
  source: LoadSource;
  failure: SchoolLoadFailure | null;
};

type Options = { refresh?: boolean; returnTo?: string; now?: Date };

function hasCredentials(user: User) {
  return Boolean(user.school_code && user.student_id && user.password_enc);
}

export async function clearGradesCache(userId: number) {
  await db().deleteFrom("grades_cache").where("user_id", "=", userId).execute();
  await db().deleteFrom("exams_cache").where("user_id", "=", userId).execute();
}

/** Invalid credentials: withAcademicSession throws StoredCredentialsRejected; the caches go with them. */
async function clearingOnRejection<T>(userId: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StoredCredentialsRejected) await clearGradesCache(userId);
    throw error;
  }
}

function isFresh(fetchedAt: string, now: Date, maxAgeMs: number) {
  return now.getTime() - new Date(fetchedAt).getTime() < maxAgeMs;
}

function readGrades(dataEnc: string): GradeReport | null {
  try {
    return JSON.parse(unseal(dataEnc)) as GradeReport;
  } catch {
    return null;
  }
}

/** A stable key for one discovery, so reporting the same new results twice counts once. */
function discoveryKey(found: GradeRecord[]) {
  const text = found.map((grade) => [grade.term, grade.courseCode ?? grade.course, grade.examKind].join("|")).sort().join("\n");
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, 32);
}

export async function loadGrades(user: User, options: Options = {}): Promise<GradesLoad> {
  const now = options.now ?? new Date();
  const row = await db().selectFrom("grades_cache").selectAll().where("user_id", "=", user.id).executeTakeFirst();
  const cached = row ? readGrades(row.data_enc) : null;
  if (!options.refresh && row && cached && isFresh(row.fetched_at, now, GRADES_CACHE_MS)) {
    return { report: cached, fetchedAt: row.fetched_at, source: "cache", failure: null, newCount: 0 };
  }
  const fallback = (failure: SchoolLoadFailure): GradesLoad =>
    row && cached
      ? { report: cached, fetchedAt: row.fetched_at, source: "stale", failure, newCount: 0 }
      : { report: null, fetchedAt: null, source: "none", failure, newCount: 0 };
  if (!hasCredentials(user)) return fallback({ reason: "credentials_missing" });

  let report: GradeReport;
  try {
    report = await clearingOnRejection(user.id, () =>
      withAcademicSession(user, (system, session) => system.grades(session), { returnTo: options.returnTo }),
    );
  } catch (error) {
    if (error instanceof StoredCredentialsRejected) throw error;
    // The error names the kind of failure only: never a grade.
    log("warn", "grades-failed", { userId: user.id, error: error instanceof AcademicSystemError ? error.kind : "error" });
    return fallback(schoolFailed(error, "grades"));
  }

  const fetchedAt = now.toISOString();
  const stored: GradeReport = { grades: report.grades, ranking: report.ranking };
  const dataEnc = seal(JSON.stringify(stored));
  await db()
    .insertInto("grades_cache")
    .values({ user_id: user.id, data_enc: dataEnc, fetched_at: fetchedAt })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ data_enc: dataEnc, fetched_at: fetchedAt }))
    .execute();

  // The first copy is no news; later ones announce what they add.
  const found = cached ? newGrades(cached.grades, stored.grades) : [];
  if (found.length > 0) {
    await notify(
      {
        kind: "new_grades",
        recipientUserId: user.id,
        data: { courses: [...new Set(found.map((grade) => grade.course))], count: found.length, discoveryKey: discoveryKey(found), at: fetchedAt },
      },
      { now },
    );
  }
  return { report: stored, fetchedAt, source: "fresh", failure: null, newCount: found.length };
}

const examsCache = compiledOnce((userId: number, term: string) => db().selectFrom("exams_cache").selectAll().where("user_id", "=", userId).where("term", "=", term));

export async function loadExams(user: User, term: string, options: Options & { schoolFailure?: SchoolLoadFailure } = {}): Promise<ExamsLoad> {
  const now = options.now ?? new Date();
  const row = await examsCache.executeTakeFirst(user.id, term);
  let cached: ExamList | null = null;
  try {
    cached = row ? (JSON.parse(row.data) as ExamList) : null;
  } catch {
    cached = null;
  }
  if (!options.refresh && row && cached && isFresh(row.fetched_at, now, EXAMS_CACHE_MS)) {
    return { list: cached, fetchedAt: row.fetched_at, source: "cache", failure: null };
  }
  const fallback = (failure: SchoolLoadFailure): ExamsLoad =>
    row && cached
      ? { list: cached, fetchedAt: row.fetched_at, source: "stale", failure }
      : { list: null, fetchedAt: null, source: "none", failure };
  if (!hasCredentials(user)) return fallback({ reason: "credentials_missing" });
  if (options.schoolFailure) return fallback(options.schoolFailure);
  try {
    const list = await clearingOnRejection(user.id, () =>
      withAcademicSession(user, (system, session) => system.exams(session, term), { returnTo: options.returnTo }),
    );
    const fetchedAt = now.toISOString();
    const data = JSON.stringify({ term, exams: list.exams } satisfies ExamList);
    await db()
      .insertInto("exams_cache")
      .values({ user_id: user.id, term, data, fetched_at: fetchedAt })
      .onConflict((oc) => oc.columns(["user_id", "term"]).doUpdateSet({ data, fetched_at: fetchedAt }))
      .execute();
    return { list: { term, exams: list.exams }, fetchedAt, source: "fresh", failure: null };
  } catch (error) {
    if (error instanceof StoredCredentialsRejected) throw error;
    log("warn", "exams-failed", { userId: user.id, term, error: error instanceof AcademicSystemError ? error.kind : "error" });
    return fallback(schoolFailed(error, "exams"));
  }
}

export async function gradeNoticeSetting(userId: number) {
  const row = await db().selectFrom("grade_settings").select("notify_new_grades").where("user_id", "=", userId).executeTakeFirst();
  return row?.notify_new_grades === 1;
}

export async function saveGradeNoticeSetting(userId: number, on: boolean, now = new Date()) {
  const values = { user_id: userId, notify_new_grades: on ? 1 : 0, updated_at: now.toISOString() };
  await db()
    .insertInto("grade_settings")
    .values(values)
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ notify_new_grades: values.notify_new_grades, updated_at: values.updated_at }))
    .execute();
}

/** The account-deletion job's part: caches and the notice switch. */
export async function deleteGradesData(executor: Pick<ReturnType<typeof db>, "deleteFrom">, userId: number) {
  await executor.deleteFrom("grades_cache").where("user_id", "=", userId).execute();
  await executor.deleteFrom("exams_cache").where("user_id", "=", userId).execute();
  await executor.deleteFrom("grade_settings").where("user_id", "=", userId).execute();
}
