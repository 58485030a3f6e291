// Everything the /schedule page shows, computed on the server from the URL (?term=&week=) so the
// first HTML response carries the whole week and every link works without JavaScript. Beside the
// route, not in it: its imports would otherwise stay in the page's chunk (decision 049).
import type { TimedExam } from "~/lib/exams";
import { helpCourseHref } from "~/lib/mutual-help";
import { dayPlan, weekPlans } from "~/lib/school-calendar";
import { todayAgenda, weekBoard } from "~/lib/timetable-board";
import {
  ageText,
  classTime,
  currentWeek,
  dateOfClass,
  emptyWeekReason,
  meetsInWeek,
  noteInWeek,
  parseWeekParam,
  periodText,
  periodsInWeek,
  shortDate,
  weekDates,
  weekOfDate,
  weekdayLabel,
} from "~/lib/schedule";
import { compareTerms, defaultWeek1Start, parseTermCode, termLabel } from "~/lib/term";
import { formatShanghai, shanghaiMinuteOfDay, shanghaiToday } from "~/lib/time";
import { MAX_WEEK, MIN_WEEK, formatWeeks } from "~/lib/weeks";
import { requestReturnPath } from "~/lib/redirect";
import type { User } from "~/server/auth/session.server";
import { loadExams } from "~/server/grades/grades.server";
import { calendarUrl } from "~/server/schedule/calendar.server";
import { mergedCourses } from "~/server/schedule/edits.server";
import { schoolCalendar } from "~/server/schedule/school-calendar.server";
import { getScheduleSettings } from "~/server/schedule/settings.server";
import { loadTermInfo, loadTimetable } from "~/server/schedule/timetable.server";

export type CourseDetail = {
  index: number;
  name: string;
  teacher: string;
  location: string;
  weeksText: string;
  weekday: string;
  period: string;
  /** 'own': the student added it; 'school' (with `edited` when the student changed it). */
  source: "school" | "own";
  edited: boolean;
  note: string;
  /** The edit screen of this course. */
  editHref: string;
  start: string;
  end: string;
  date: string;
  /** /schedule/mutual-help for this class: its place in the timetable, never its text (school courses only). */
  helpHref: string | null;
};

/** The term the URL asks for when it is a valid code, else the school's current term. */
function pickTerm(requested: string | null, current: string) {
  return requested && parseTermCode(requested) ? requested : current;
}

export async function scheduleView(user: User, url: URL, options: { now?: Date } = {}) {
  const now = options.now ?? new Date();
  const returnTo = requestReturnPath(url);
  const { info, source: termSource, schoolFailure } = await loadTermInfo(user, { returnTo, now });

  const term = pickTerm(url.searchParams.get("term"), info.currentTerm);
  const terms = [...info.terms];
  for (const code of [info.currentTerm, term]) {
    if (!terms.some((entry) => entry.code === code)) terms.push({ code, label: termLabel(code) });
  }
  terms.sort((a, b) => compareTerms(b.code, a.code));

  const isCurrentTerm = term === info.currentTerm;
  const week1Start = isCurrentTerm ? info.week1Start : defaultWeek1Start(term)!;
  const today = shanghaiToday(now);
  const todayWeek = weekOfDate(today, week1Start);
  const thisWeek = currentWeek(today, week1Start);
  // Another term opens on today's week when today falls inside it, else on its first week.
  const inTerm = todayWeek >= MIN_WEEK && todayWeek <= MAX_WEEK;
  const defaultWeek = isCurrentTerm || inTerm ? thisWeek : MIN_WEEK;
  const week = parseWeekParam(url.searchParams.get("week")) ?? defaultWeek;

  const load = await loadTimetable(user, term, { returnTo, now, schoolFailure });
  const courses = await mergedCourses(user.id, term, load.timetable?.courses ?? []);
  const shown = courses.filter((course) => !course.hidden);
  const dates = weekDates(week1Start, week);
  const calendar = await schoolCalendar(user.school_code, term);
  const plans = weekPlans(week1Start, week, calendar);
  // Exams join the grid from their own cache; a school that just failed is not asked again.
  const examsLoad = await loadExams(user, term, { returnTo, now, schoolFailure: schoolFailure ?? (load.failure?.reason === "failed" ? load.failure : undefined) });
  const exams = (examsLoad.list?.exams ?? []).filter((exam): exam is TimedExam => exam.date !== null && exam.start !== null && exam.end !== null);

  const settings = await getScheduleSettings(user.id);
  const currentTermWeek = currentWeek(today, info.week1Start);
  // Today at a glance: the current term only, on a day inside its weeks, in Shanghai time.
  const todayPlan = isCurrentTerm && inTerm ? dayPlan(today, week1Start, calendar) : null;
  const grid = weekBoard(courses, plans, { exams, showOtherWeeks: settings.showOtherWeeks });
  const agenda = todayPlan ? todayAgenda(courses, todayPlan, exams, shanghaiMinuteOfDay(now)) : null;
  // The dialog's details: the courses on the grid (greyed ones included) and today's.
  const onScreen = new Set<number>();
  for (const row of grid) for (const cell of row) for (const card of cell) if (card.kind !== "exam") onScreen.add(card.index);
  for (const item of agenda?.items ?? []) if (item.kind === "class") onScreen.add(item.index);
  const details: CourseDetail[] = [];
  courses.forEach((course, index) => {
    if (course.hidden || !onScreen.has(index)) return;
    const date = dateOfClass(week1Start, week, course.weekday);
    details.push({
      index,
      name: course.name,
      teacher: course.teacher,
      location: course.location,
      weeksText: course.weeksText,
      weekday: weekdayLabel(course.weekday),
      period: periodText(course),
      ...classTime(course),
      date,
      source: course.source,
      edited: course.source === "school" && course.editId !== null,
      note: course.note,
      editHref: `/schedule/courses/edit?${new URLSearchParams({ term, week: String(week), course: String(index) })}`,
      helpHref: course.syncedIndex !== null && meetsInWeek(course, week) ? helpCourseHref({ term, week, course: course.syncedIndex }) : null,
    });
  });


  return {
    term: { code: term, label: termLabel(term) },
    terms,
    termFallback: termSource === "fallback",
    isCurrentTerm,
    week,
    minWeek: MIN_WEEK,
    maxWeek: MAX_WEEK,
    /** 'This week' of the shown term (clamped); what the week picker marks. */
    thisWeek,
    /** Today's week when today lies within the shown term's 26 weeks. */
    todayWeek: inTerm ? todayWeek : null,
    /** Back to the current week: the school's current term at today's week. */
    current: { term: info.currentTerm, week: currentTermWeek },
    isViewingCurrent: isCurrentTerm && week === currentTermWeek,
    week1Start,
    month: Number(dates[0].split("-")[1]),
    days: dates.map((date, i) => ({
      date,
      label: weekdayLabel(i + 1),
      short: shortDate(date),
      isToday: date === today,
      holiday: plans[i].holiday,
      makeup: plans[i].makeup ? weekdayLabel(plans[i].runs!.weekday) : null,
      examWeek: plans[i].examWeek,
    })),
    grid,
    weekHasClasses: grid.some((row) => row.some((cell) => cell.some((card) => card.kind !== "other-week"))),
    courses: details,
    exams: exams.map((exam) => ({ course: exam.course, date: exam.date, start: exam.start, end: exam.end, place: exam.place, seat: exam.seat, kind: exam.kind })),
    hiddenCourses: courses.flatMap((course) => (course.hidden && course.editId !== null ? [{ name: course.name, editId: course.editId }] : [])),
    today: agenda && todayPlan ? { ...agenda, holiday: todayPlan.holiday, makeup: todayPlan.makeup ? weekdayLabel(todayPlan.runs!.weekday) : null } : null,
    /** Class periods (节) this week, what the term summary shows. */
    weekPeriods: periodsInWeek(shown, week),
    notes: (load.timetable?.notes ?? [])
      .filter((note) => noteInWeek(note, week))
      .map((note) => ({ ...note, weeksText: formatWeeks(note.weeks) })),
    loaded: load.timetable !== null,
    termHasCourses: courses.length > 0,
    /** Why this week is empty ('after': past the term's last class), for the notice's wording. */
    emptyReason: emptyWeekReason(shown, week),
    lastTeachingWeek: shown.length > 0 ? Math.max(...shown.flatMap((course) => course.weeks), MIN_WEEK) : null,
    syncedAt: load.fetchedAt ? formatShanghai(load.fetchedAt) : null,
    staleAge: load.source === "stale" && load.fetchedAt ? ageText(load.fetchedAt, now) : null,
    /** Why the school's copy could not be had (the route words it). */
    failure: load.failure,
    reminders: {
      courseReminder: settings.courseReminder,
      substituteReminder: settings.substituteReminder,
      announcementReminder: settings.announcementReminder,
    },
    display: { showOtherWeeks: settings.showOtherWeeks, alarmMinutes: settings.alarmMinutes },
    calendarUrl: settings.calendarToken ? calendarUrl(settings.calendarToken, url.href) : null,
  };
}

export type ScheduleView = Awaited<ReturnType<typeof scheduleView>>;
