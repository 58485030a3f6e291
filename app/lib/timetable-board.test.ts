import { describe, expect, it } from "vitest";
import type { TimedExam } from "./exams";
import { dayPlan, weekPlans } from "./school-calendar";
import { durationText, examSlots, todayAgenda, weekBoard } from "./timetable-board";
import { mergeTimetable, type SyncedCourse } from "./timetable-edits";

const WEEK1 = "2025-09-01";
const c = (name: string, weekday: number, startPeriod: number, weeks: number[]): SyncedCourse => ({
  name,
  teacher: "",
  location: `${name}楼`,
  weekday,
  startPeriod,
  endPeriod: startPeriod + 1,
  weeks,
});
const courses = mergeTimetable([c("数学", 1, 1, [1, 2, 3]), c("物理", 1, 3, [2]), c("化学", 1, 3, [1, 3])], []);
const exam = (over: Partial<TimedExam> = {}): TimedExam => ({ term: "2025-2026-1", course: "数学", date: "2025-09-01", start: "10:00", end: "11:40", place: "考场A", seat: "1", kind: "期末考试", ...over });

describe("examSlots", () => {
  it.each([
    ["09:00", "11:00", [0, 1]],
    ["14:30", "16:30", [2, 3]],
    ["12:30", "13:00", [2]],
    ["07:00", "07:30", [0]],
  ])("%s-%s", (start, end, rows) => {
    expect(examSlots({ start, end })).toEqual(rows);
  });
});

describe("weekBoard", () => {
  it("places this week's classes, exams on their date, and marks a clash", () => {
    const board = weekBoard(courses, weekPlans(WEEK1, 1, []), { exams: [exam()] });
    expect(board[0][0].map((card) => [card.name, card.kind, card.clash])).toEqual([["数学", "class", false]]);
    expect(board[1][0].map((card) => [card.name, card.kind, card.clash])).toEqual([
      ["化学", "class", true],
      ["数学", "exam", true],
    ]);
  });

  it("shows another week's course greyed only when asked and only in an empty cell", () => {
    const week2 = weekPlans(WEEK1, 2, []);
    expect(weekBoard(courses, week2)[1][0].map((card) => card.name)).toEqual(["物理"]);
    const week4 = weekPlans(WEEK1, 4, []);
    expect(weekBoard(courses, week4)[0][0]).toEqual([]);
    expect(weekBoard(courses, week4, { showOtherWeeks: true })[0][0].map((card) => [card.name, card.kind])).toEqual([["数学", "other-week"]]);
    // Week 1's cell already holds 化学: 物理 (week 2 only) is not added.
    expect(weekBoard(courses, weekPlans(WEEK1, 1, []), { showOtherWeeks: true })[1][0].map((card) => card.name)).toEqual(["化学"]);
  });

  it("leaves a holiday empty and leaves hidden courses out", () => {
    const holiday = [{ kind: "holiday" as const, from: "2025-09-01", to: "2025-09-01", runsDate: null, label: "假" }];
    expect(weekBoard(courses, weekPlans(WEEK1, 1, holiday), { showOtherWeeks: true })[0][0]).toEqual([]);
    const hidden = courses.map((course, i) => (i === 0 ? { ...course, hidden: true } : course));
    expect(weekBoard(hidden, weekPlans(WEEK1, 1, []))[0][0]).toEqual([]);
  });
});

describe("todayAgenda", () => {
  const monday = dayPlan("2025-09-01", WEEK1, []);
  const at = (clock: string) => {
    const [h, m] = clock.split(":").map(Number);
    return h * 60 + m;
  };
  it.each([
    ["before the first class: the next one and the minutes until it", "07:30", "next", "数学", 40],
    ["during a class: the minutes until it ends", "08:30", "now", "数学", 70],
    ["in the break: the next one", "09:50", "next", "化学", 10],
    ["during the exam that overlaps", "11:00", "now", "化学", 40],
  ])("%s", (_name, clock, state, name, minutes) => {
    const agenda = todayAgenda(courses, monday, [exam({ start: "10:30", end: "12:00" })], at(clock));
    expect(agenda.focus).toMatchObject({ state, minutes, item: { name } });
  });

  it("lists the day in time order with states, and has no focus once the day is over", () => {
    const agenda = todayAgenda(courses, monday, [], at("21:00"));
    expect(agenda.items.map((item) => [item.name, item.start, item.end, item.state])).toEqual([
      ["数学", "08:10", "09:40", "done"],
      ["化学", "10:00", "11:40", "done"],
    ]);
    expect(agenda.focus).toBeNull();
  });

  it("follows the 校历: nothing on a holiday, the borrowed day's classes on a 调休 day", () => {
    const off = dayPlan("2025-09-01", WEEK1, [{ kind: "holiday", from: "2025-09-01", to: "2025-09-01", runsDate: null, label: "假" }]);
    expect(todayAgenda(courses, off, [], 0).items).toEqual([]);
    const saturday = dayPlan("2025-09-06", WEEK1, [{ kind: "makeup", from: "2025-09-06", to: "2025-09-06", runsDate: "2025-09-01", label: "调休" }]);
    expect(todayAgenda(courses, saturday, [], 0).items.map((item) => item.name)).toEqual(["数学", "化学"]);
  });
});

describe("durationText", () => {
  it.each([
    [0, "0 分钟"],
    [25, "25 分钟"],
    [60, "1 小时"],
    [65, "1 小时 5 分钟"],
    [130, "2 小时 10 分钟"],
  ])("%i", (n, text) => {
    expect(durationText(n)).toBe(text);
  });
});
