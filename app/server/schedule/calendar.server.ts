// The calendar feed (/schedule/calendar/<token>.ics): every class meeting of the school's
// current term as an iCalendar event, from the same cache the /schedule page uses.
import crypto from "node:crypto";
import { examsForCalendar, type ExamRecord } from "~/lib/exams";
import { buildIcs, type IcsEvent } from "~/lib/ics";
import * as msg from "~/lib/messages";
import { classTime, periodText, weekLabel } from "~/lib/schedule";
import { calendarOccurrences, type CalendarEntry } from "~/lib/school-calendar";
import { fillTemplate } from "~/lib/template";
import { termLabel } from "~/lib/term";
import { shanghaiToday } from "~/lib/time";
import { formatWeeks } from "~/lib/weeks";
import { loadExams } from "../grades/grades.server";
import type { User } from "../auth/session.server";
import { publicOrigin } from "../http/public-origin";
import { StoredCredentialsRejected, type Course } from "../school/index.server";
import { mergedCourses } from "./edits.server";
import { schoolCalendar } from "./school-calendar.server";
import { getScheduleSettings } from "./settings.server";
import { loadTermInfo, loadTimetable } from "./timetable.server";

/** The feed's address for a token: the configured public URL, else the request's origin. */
export function calendarUrl(token: string, requestUrl: string) {
  return `${publicOrigin(requestUrl)}/schedule/calendar/${token}.ics`;
}

/** A uid that stays the same across refreshes while the class itself does not change. */
function eventUid(term: string, course: Course, date: string) {
  const key = [term, course.name, course.weekday, course.startPeriod, course.endPeriod, date].join("|");
  return `${crypto.createHash("sha256").update(key).digest("hex").slice(0, 32)}@timetable`;
}

export function timetableEvents(
  term: string,
  courses: Course[],
  week1Start: string,
  options: { calendar?: CalendarEntry[]; alarmMinutes?: number } = {},
): IcsEvent[] {
  return calendarOccurrences(courses, week1Start, options.calendar ?? []).map(({ course, date, week }) => {
    const { start, end } = classTime(course);
    const description = [
      course.teacher ? fillTemplate(msg.schedule.eventTeacher, { teacher: course.teacher }) : null,
      fillTemplate(msg.schedule.eventWeeks, { weeks: formatWeeks(course.weeks) }),
      fillTemplate(msg.schedule.eventPeriods, { period: periodText(course), week: weekLabel(week) }),
    ].filter(Boolean);
    return {
      uid: eventUid(term, course, date),
      date,
      start,
      end,
      summary: course.name,
      location: course.location || undefined,
      description: description.join("\n"),
      alarmMinutes: options.alarmMinutes,
      alarmText: course.location ? `${course.name} @${course.location}` : course.name,
    };
  });
}

/** The term's timed exams from a week ago on, one event each. */
export function examEvents(exams: ExamRecord[], today: string, alarmMinutes?: number): IcsEvent[] {
  return examsForCalendar(exams, today).map((exam) => ({
    uid: `${crypto.createHash("sha256").update([exam.term, exam.course, exam.date, exam.start, exam.kind].join("|")).digest("hex").slice(0, 32)}@exam`,
    date: exam.date,
    start: exam.start,
    end: exam.end,
    summary: fillTemplate(msg.grades.examEventSummary, { course: exam.course }),
    location: [exam.campus, exam.place].filter(Boolean).join(" ") || undefined,
    description: [exam.kind, exam.seat ? fillTemplate(msg.grades.examEventSeat, { seat: exam.seat }) : null].filter(Boolean).join("\n"),
    alarmMinutes,
  }));
}

/**
 * The feed of a student. It never redirects (a calendar app cannot log in): when the school
 * rejects the stored credentials the cache is cleared and the feed is empty until they log in.
 */
export async function calendarFeed(user: User, now = new Date()): Promise<string> {
  let events: IcsEvent[] = [];
  let term = "";
  try {
    const { info, schoolFailure } = await loadTermInfo(user, { now });
    term = info.currentTerm;
    const { timetable } = await loadTimetable(user, term, { now, schoolFailure });
    const settings = await getScheduleSettings(user.id);
    // The student's own courses and overrides, and the school's 校历, as on /schedule.
    const courses = (await mergedCourses(user.id, term, timetable?.courses ?? [])).filter((course) => !course.hidden);
    const calendar = await schoolCalendar(user.school_code, term);
    events = timetableEvents(term, courses, info.week1Start, { calendar, alarmMinutes: settings.alarmMinutes });
    // Exams of the current term join the classes (from their own cache, same failure rules).
    const { list } = await loadExams(user, term, { now, schoolFailure });
    if (list) events = [...events, ...examEvents(list.exams, shanghaiToday(now), settings.alarmMinutes)];
  } catch (error) {
    if (!(error instanceof StoredCredentialsRejected)) throw error;
  }
  return buildIcs({
    name: fillTemplate(msg.schedule.calendarName, { term: term ? termLabel(term) : "" }),
    generatedAt: now,
    events,
    refreshInterval: "PT6H",
  });
}
