// What /backpack/exams shows for the term asked (?term=) or the current one, computed on the
// server so the first HTML carries everything. Beside the route, not in it: its imports would
// otherwise stay in the page's chunk (decision 049).
import { requestReturnPath } from "~/lib/redirect";
import { arrangeExams } from "~/lib/exams";
import { ageText } from "~/lib/schedule";
import { compareTerms, parseTermCode, termLabel } from "~/lib/term";
import { formatShanghai, shanghaiToday } from "~/lib/time";
import type { User } from "~/server/auth/session.server";
import { loadExams } from "~/server/grades/grades.server";
import { schoolLoadNotice } from "~/server/http/schedule-refusals";
import { loadTermInfo } from "~/server/schedule/timetable.server";

export async function examsView(user: User, url: URL, options: { now?: Date } = {}) {
  const now = options.now ?? new Date();
  const returnTo = requestReturnPath(url);
  const { info, schoolFailure } = await loadTermInfo(user, { returnTo, now });
  const requested = url.searchParams.get("term");
  const term = requested && parseTermCode(requested) ? requested : info.currentTerm;
  const terms = [...info.terms];
  for (const code of [info.currentTerm, term]) {
    if (!terms.some((entry) => entry.code === code)) terms.push({ code, label: termLabel(code) });
  }
  terms.sort((a, b) => compareTerms(b.code, a.code));
  const load = await loadExams(user, term, { returnTo, now, schoolFailure });
  return {
    term: { code: term, label: termLabel(term) },
    terms,
    /** A term before the school's current one: an empty list is history, not "not yet". */
    pastTerm: compareTerms(term, info.currentTerm) < 0,
    loaded: load.list !== null,
    exams: arrangeExams(load.list?.exams ?? [], shanghaiToday(now)),
    syncedAt: load.fetchedAt ? formatShanghai(load.fetchedAt) : null,
    staleAge: load.source === "stale" && load.fetchedAt ? ageText(load.fetchedAt, now) : null,
    ...schoolLoadNotice(load.failure),
  };
}

export type ExamsView = Awaited<ReturnType<typeof examsView>>;
