import { describe, expect, it } from "vitest";
import { classOccurrences } from "./schedule";
import { calendarOccurrences, dayPlan, weekPlans, type CalendarEntry } from "./school-calendar";

// Week 1 starts Monday 2025-09-01: 2025-09-29 is Monday of week 5, 国庆 is 10-01 to 10-07.
const WEEK1 = "2025-09-01";
const holiday: CalendarEntry = { kind: "holiday", from: "2025-10-01", to: "2025-10-07", runsDate: null, label: "国庆节" };
// Saturday 09-27 runs Wednesday 10-01's classes; Saturday 10-11 runs Tuesday 10-07's.
const makeup1: CalendarEntry = { kind: "makeup", from: "2025-09-27", to: "2025-09-27", runsDate: "2025-10-01", label: "调休" };
const makeup2: CalendarEntry = { kind: "makeup", from: "2025-10-11", to: "2025-10-11", runsDate: "2025-10-07", label: "调休" };
const exams: CalendarEntry = { kind: "exam_week", from: "2026-01-05", to: "2026-01-11", runsDate: null, label: "考试周" };
const entries = [holiday, makeup1, makeup2, exams];

describe("dayPlan (the 校历 mapping)", () => {
  it.each([
    ["a plain Monday runs its own week and weekday", "2025-09-29", [], { runs: { week: 5, weekday: 1 }, holiday: null, makeup: null, examWeek: null }],
    ["a holiday runs nothing", "2025-10-01", entries, { runs: null, holiday: "国庆节", makeup: null, examWeek: null }],
    ["the holiday's last day too", "2025-10-07", entries, { runs: null, holiday: "国庆节" }],
    ["a 调休 Saturday runs the borrowed Wednesday of week 5", "2025-09-27", entries, { runs: { week: 5, weekday: 3 }, makeup: { label: "调休", runsDate: "2025-10-01" }, holiday: null }],
    ["a 调休 Saturday after the holiday runs Tuesday of week 6", "2025-10-11", entries, { runs: { week: 6, weekday: 2 } }],
    ["an exam week is marked and still runs its classes", "2026-01-07", entries, { runs: { week: 19, weekday: 3 }, examWeek: "考试周" }],
    ["a 调休 inside a holiday wins over the holiday", "2025-10-03", [holiday, { ...makeup1, from: "2025-10-03", to: "2025-10-03" }], { runs: { week: 5, weekday: 3 }, holiday: null }],
  ])("%s", (_name, date, list, expected) => {
    expect(dayPlan(date, WEEK1, list as CalendarEntry[])).toMatchObject({ date, ...expected });
  });

  it("gives seven plans for a week, Monday first", () => {
    expect(weekPlans(WEEK1, 5, entries).map((plan) => [plan.date, plan.runs?.weekday ?? null])).toEqual([
      ["2025-09-29", 1],
      ["2025-09-30", 2],
      ["2025-10-01", null],
      ["2025-10-02", null],
      ["2025-10-03", null],
      ["2025-10-04", null],
      ["2025-10-05", null],
    ]);
  });
});

describe("calendarOccurrences", () => {
  const wednesday = { name: "英语", teacher: "", location: "", weekday: 3, startPeriod: 1, endPeriod: 2, weeks: [4, 5, 6] };
  it("is classOccurrences without a calendar", () => {
    expect(calendarOccurrences([wednesday], WEEK1, [])).toEqual(classOccurrences([wednesday], WEEK1));
  });

  it("drops holiday classes and adds the 调休 day's borrowed ones", () => {
    const dates = calendarOccurrences([wednesday], WEEK1, entries).map((o) => o.date);
    // Week 4 Wednesday 09-24; week 5's Wednesday (10-01, 国庆) moves to Saturday 09-27; week 6 Wednesday 10-08.
    expect(dates).toEqual(["2025-09-24", "2025-09-27", "2025-10-08"]);
  });
});
