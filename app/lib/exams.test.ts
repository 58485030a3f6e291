import { describe, expect, it } from "vitest";
import { arrangeExams, daysUntil, examsForCalendar, parseExamTime, type ExamRecord } from "./exams";

describe("exam time texts", () => {
  it.each([
    ["2025-01-08(09:00-11:00)", { date: "2025-01-08", start: "09:00", end: "11:00" }],
    ["2025-01-08 09:00~11:00", { date: "2025-01-08", start: "09:00", end: "11:00" }],
    ["2025/1/8 9:00-11:00", { date: "2025-01-08", start: "09:00", end: "11:00" }],
    ["2025年01月08日 14:30--16:30", { date: "2025-01-08", start: "14:30", end: "16:30" }],
    ["2025-01-08", { date: "2025-01-08", start: null, end: null }],
    ["待定", { date: null, start: null, end: null }],
  ])("%s", (text, expected) => {
    expect(parseExamTime(text)).toEqual(expected);
  });
});

const exam = (course: string, date: string | null, start = "09:00"): ExamRecord => ({
  term: "2025-2026-1",
  course,
  date,
  start: date ? start : null,
  end: date ? "11:00" : null,
  place: "教一-101",
  seat: "12",
  kind: "期末考试",
});

describe("the exam list", () => {
  it.each([
    ["2026-01-10", "2026-01-08", 2],
    ["2026-01-08", "2026-01-08", 0],
    ["2026-01-07", "2026-01-08", -1],
    ["2026-03-01", "2026-02-27", 2],
  ])("%s is %s days from %s", (date, today, days) => {
    expect(daysUntil(date, today)).toBe(days);
  });

  it("upcoming first (soonest on top), then unscheduled, then past (latest first)", () => {
    const arranged = arrangeExams(
      [exam("past-old", "2026-01-02"), exam("later", "2026-01-20"), exam("tbd", null), exam("today", "2026-01-08", "14:00"), exam("past-new", "2026-01-07"), exam("soon", "2026-01-09")],
      "2026-01-08",
    );
    expect(arranged.map((entry) => [entry.course, entry.daysLeft, entry.past])).toEqual([
      ["today", 0, false],
      ["soon", 1, false],
      ["later", 12, false],
      ["tbd", null, false],
      ["past-new", -1, true],
      ["past-old", -6, true],
    ]);
  });

  it("the calendar gets timed exams from a week ago on", () => {
    const chosen = examsForCalendar([exam("old", "2025-12-31"), exam("recent", "2026-01-02"), exam("tbd", null), exam("next", "2026-01-20")], "2026-01-08");
    expect(chosen.map((entry) => entry.course)).toEqual(["recent", "next"]);
  });
});
