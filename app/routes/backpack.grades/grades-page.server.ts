// What /backpack/grades shows, computed on the server so the first HTML carries everything (the
// chart is inline SVG; no JavaScript needed). Beside the route, not in it: its imports would
// otherwise stay in the page's chunk (decision 049).
import { requestReturnPath } from "~/lib/redirect";
import { CHART, chartMax, chartPoints, chartY, formatGpa, shortTermLabel, summariseGrades } from "~/lib/grades";
import { ageText } from "~/lib/schedule";
import { termLabel } from "~/lib/term";
import { formatShanghai } from "~/lib/time";
import type { User } from "~/server/auth/session.server";
import { gradeNoticeSetting, loadGrades } from "~/server/grades/grades.server";
import { schoolLoadNotice } from "~/server/http/schedule-refusals";
import { findSchool } from "~/server/school/school.server";

export async function gradesView(user: User, url: URL, options: { now?: Date } = {}) {
  const now = options.now ?? new Date();
  const load = await loadGrades(user, { returnTo: requestReturnPath(url), now });
  const records = load.report?.grades ?? [];
  const school = user.school_code ? await findSchool(user.school_code) : undefined;
  const summary = summariseGrades(records, school?.gradeScale);
  const max = chartMax(school?.gradeScale);
  const points = chartPoints(summary.terms, max);
  return {
    loaded: load.report !== null,
    overall: formatGpa(summary.overall),
    required: formatGpa(summary.required),
    credits: summary.credits,
    terms: summary.terms.map((term) => ({
      term: term.term,
      label: termLabel(term.term),
      gpa: formatGpa(term.gpa),
      credits: term.credits,
      grades: term.grades.map((grade) => ({
        course: grade.course,
        credit: grade.credit,
        score: grade.score,
        point: grade.point === null ? "—" : grade.point.toFixed(2).replace(/0$/, ""),
        courseType: grade.courseType,
        examKind: grade.examKind,
        counts: grade.counts,
        replaced: grade.replaced,
      })),
    })),
    chart: {
      width: CHART.width,
      height: CHART.height,
      left: CHART.padLeft,
      right: CHART.width - CHART.padRight,
      gridlines: Array.from({ length: max + 1 }, (_, gpa) => ({ gpa, y: chartY(gpa, max) })),
      points: points.map((point) => ({ ...point, label: shortTermLabel(point.term), value: point.gpa.toFixed(2) })),
    },
    ranking: load.report?.ranking ?? null,
    notifyNewGrades: await gradeNoticeSetting(user.id),
    syncedAt: load.fetchedAt ? formatShanghai(load.fetchedAt) : null,
    staleAge: load.source === "stale" && load.fetchedAt ? ageText(load.fetchedAt, now) : null,
    ...schoolLoadNotice(load.failure),
  };
}

export type GradesView = Awaited<ReturnType<typeof gradesView>>;
