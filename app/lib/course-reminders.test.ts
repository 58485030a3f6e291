import { describe, expect, it } from "vitest";
import { remindedClasses } from "./course-reminders";
import type { CalendarEntry } from "./school-calendar";
import { NO_CHANGE, syncedCourseKey, type SyncedCourse, type TimetableEdit } from "./timetable-edits";

// Week 1 of the term starts on Monday 2026-03-02; the window is that week in Shanghai.
const WEEK1 = "2026-03-02";
const FROM = new Date("2026-03-01T16:00:00.000Z");
const UNTIL = new Date("2026-03-08T16:00:00.000Z");

const DS: SyncedCourse = { name: "数据结构", teacher: "王建华", location: "信息楼A301", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: [1, 2, 3, 4], weeksText: "1-4周" };
const PHYSICS: SyncedCourse = { name: "大学物理", teacher: "陈志刚", location: "教一-105", weekday: 2, startPeriod: 3, endPeriod: 4, weeks: [1, 2, 3, 4], weeksText: "1-4周" };

const edit = (over: Partial<TimetableEdit>): TimetableEdit => ({
  id: 1,
  kind: "override",
  courseKey: syncedCourseKey(DS),
  ...NO_CHANGE,
  ...over,
});
const own = edit({ id: 2, kind: "own", courseKey: null, name: "考研英语", teacher: "", location: "图书馆", weekday: 4, startPeriod: 9, endPeriod: 10, weeks: [1] });
const holiday = (from: string, to = from): CalendarEntry => ({ kind: "holiday", from, to, runsDate: null, label: "假期" });
const makeup = (date: string, runsDate: string): CalendarEntry => ({ kind: "makeup", from: date, to: date, runsDate, label: "调休" });
const examWeek: CalendarEntry = { kind: "exam_week", from: "2026-03-02", to: "2026-03-08", runsDate: null, label: "考试周" };

const SCHOOL = ["03-02 08:10 数据结构 @信息楼A301", "03-03 10:00 大学物理 @教一-105"];

describe("remindedClasses: the reminders follow the student's changes and the 校历", () => {
  it.each<[string, TimetableEdit[], CalendarEntry[], string[]]>([
    ["nothing changed, no 校历: the school's timetable", [], [], SCHOOL],
    ["a room changed here", [edit({ location: "信息楼B999" })], [], ["03-02 08:10 数据结构 @信息楼B999", "03-03 10:00 大学物理 @教一-105"]],
    ["moved to Wednesday afternoon", [edit({ weekday: 3, startPeriod: 5, endPeriod: 6 })], [], ["03-03 10:00 大学物理 @教一-105", "03-04 14:00 数据结构 @信息楼A301"]],
    ["moved out of this week", [edit({ weeks: [2, 3, 4] })], [], ["03-03 10:00 大学物理 @教一-105"]],
    ["hidden", [edit({ hidden: true })], [], ["03-03 10:00 大学物理 @教一-105"]],
    ["a change undone to the school's data (removed)", [edit({ location: "信息楼B999", removed: true })], [], SCHOOL],
    ["an own course", [own], [], [...SCHOOL, "03-05 19:00 考研英语 @图书馆"]],
    ["an own course deleted", [{ ...own, removed: true }], [], SCHOOL],
    ["a holiday on Monday", [], [holiday("2026-03-02")], ["03-03 10:00 大学物理 @教一-105"]],
    ["a holiday over the week takes own courses too", [own], [holiday("2026-03-02", "2026-03-08")], []],
    ["Monday off, Saturday runs Monday's classes (调休)", [], [holiday("2026-03-02"), makeup("2026-03-07", "2026-03-02")], ["03-03 10:00 大学物理 @教一-105", "03-07 08:10 数据结构 @信息楼A301"]],
    ["调休 runs the changed course, with its new room", [edit({ location: "信息楼B999" })], [holiday("2026-03-02"), makeup("2026-03-07", "2026-03-02")], ["03-03 10:00 大学物理 @教一-105", "03-07 08:10 数据结构 @信息楼B999"]],
    ["调休 does not bring a hidden course back", [edit({ hidden: true })], [holiday("2026-03-02"), makeup("2026-03-07", "2026-03-02")], ["03-03 10:00 大学物理 @教一-105"]],
    ["an exam week is only a mark: classes run", [], [examWeek], SCHOOL],
  ])("%s", (_, edits, calendar, expected) => {
    const shown = remindedClasses([DS, PHYSICS], edits, WEEK1, calendar, FROM, UNTIL).map(
      ({ course, date, startsAt }) =>
        `${date.slice(5)} ${new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Shanghai", hour: "2-digit", minute: "2-digit" }).format(startsAt)} ${course.name} @${course.location}`,
    );
    expect(shown).toEqual(expected);
  });

  it("keeps the meetings that start after `from` and no later than `until`", () => {
    const monday = new Date("2026-03-02T00:10:00.000Z"); // 08:10 in Shanghai, 数据结构 starts
    expect(remindedClasses([DS, PHYSICS], [], WEEK1, [], monday, UNTIL).map((o) => o.course.name)).toEqual(["大学物理"]);
    expect(remindedClasses([DS, PHYSICS], [], WEEK1, [], FROM, monday).map((o) => o.course.name)).toEqual(["数据结构"]);
  });
});
