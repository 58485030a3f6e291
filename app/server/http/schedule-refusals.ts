// What the pages say when the school's copy of a timetable, the grades or the exams could not be
// had (a SchoolLoadFailure from app/server/schedule or app/server/grades), once for the schedule,
// grades and exams pages and their refresh buttons.
import { grades } from "~/lib/messages/grades";
import { schedule } from "~/lib/messages/schedule";
import { fillTemplate } from "~/lib/template";
import type { SchoolLoadFailure } from "~/server/school/academic-load.server";

/** What failed: the school's own words in the first template, else the plain message. */
const FAILED: Record<Extract<SchoolLoadFailure, { reason: "failed" }>["what"], { withReason: string; plain: string }> = {
  timetable: { withReason: schedule.fetchFailed, plain: schedule.loadFailed },
  grades: { withReason: grades.fetchFailed, plain: grades.loadFailed },
  exams: { withReason: grades.examsFetchFailed, plain: grades.examsLoadFailed },
};

/** A failed refresh answers 502 (the school, upstream, failed) with the message. */
export const SCHOOL_LOAD_STATUS = 502;

export function schoolLoadMessage(failure: SchoolLoadFailure): string {
  if (failure.reason === "credentials_missing") return schedule.missingCredentials;
  const { withReason, plain } = FAILED[failure.what];
  return failure.schoolMessage ? fillTemplate(withReason, { reason: failure.schoolMessage }) : plain;
}

/** The page's notice: the message, and its kind ('credentials_missing' offers to log in again). */
export function schoolLoadNotice(failure: SchoolLoadFailure | null) {
  return { error: failure ? schoolLoadMessage(failure) : null, errorKind: failure?.reason ?? null };
}
