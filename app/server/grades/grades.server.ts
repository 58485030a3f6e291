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
import { loadAcademic, loadTermCopy, parseStored, type AcademicLoadOptions, type LoadSource, type SchoolLoadFailure } from "../school/academic-load.server";
import { AcademicSystemError, type ExamList, type GradeReport } from "../school/index.server";

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

export async function clearGradesCache(userId: number) {
  await db().deleteFrom("grades_cache").where("user_id", "=", userId).execute();
  await db().deleteFrom("exams_cache").where("user_id", "=", userId).execute();
}

/** A stable key for one discovery, so reporting the same new results twice counts once. */
function discoveryKey(found: GradeRecord[]) {
  const text = found.map((grade) => [grade.term, grade.courseCode ?? grade.course, grade.examKind].join("|")).sort().join("\n");
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** The school's error, named by its kind only: never a grade nor the school's words. */
function errorKind(error: unknown) {
  return error instanceof AcademicSystemError ? error.kind : "error";
}

export async function loadGrades(user: User, options: AcademicLoadOptions = {}): Promise<GradesLoad> {
  let newCount = 0;
  const { value, ...load } = await loadAcademic({
    user,
    what: "grades",
    options,
    maxAgeMs: GRADES_CACHE_MS,
    row: await db().selectFrom("grades_cache").selectAll().where("user_id", "=", user.id).executeTakeFirst(),
    read: (row) => parseStored<GradeReport>(row.data_enc, unseal),
    ask: (system, session) => system.grades(session),
    store: async (report, fetchedAt, previous) => {
      const stored: GradeReport = { grades: report.grades, ranking: report.ranking };
      const dataEnc = seal(JSON.stringify(stored));
      await db()
        .insertInto("grades_cache")
        .values({ user_id: user.id, data_enc: dataEnc, fetched_at: fetchedAt })
        .onConflict((oc) => oc.column("user_id").doUpdateSet({ data_enc: dataEnc, fetched_at: fetchedAt }))
        .execute();
      // The first copy is no news; later ones announce what they add.
      const found = previous ? newGrades(previous.grades, stored.grades) : [];
      newCount = found.length;
      if (found.length > 0) {
        await notify(
          {
            kind: "new_grades",
            recipientUserId: user.id,
            data: { courses: [...new Set(found.map((grade) => grade.course))], count: found.length, discoveryKey: discoveryKey(found), at: fetchedAt },
          },
          { now: new Date(fetchedAt) },
        );
      }
      return stored;
    },
    clear: () => clearGradesCache(user.id),
    logFailure: (error) => log("warn", "grades-failed", { userId: user.id, error: errorKind(error) }),
  });
  return { report: value, ...load, newCount };
}

const examsCache = compiledOnce((userId: number, term: string) => db().selectFrom("exams_cache").selectAll().where("user_id", "=", userId).where("term", "=", term));

export async function loadExams(user: User, term: string, options: AcademicLoadOptions = {}): Promise<ExamsLoad> {
  const { value, ...load } = await loadTermCopy("exams_cache", await examsCache.executeTakeFirst(user.id, term), {
    user, term, options, what: "exams", maxAgeMs: EXAMS_CACHE_MS,
    ask: (system, session) => system.exams(session, term),
    copy: (list): ExamList => ({ term, exams: list.exams }),
    clear: () => clearGradesCache(user.id),
    logFailure: (error) => log("warn", "exams-failed", { userId: user.id, term, error: errorKind(error) }),
  });
  return { list: value, ...load };
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
