import { describe, expect, it } from "vitest";
import {
  MUTUAL_HELP_FEES_FEN,
  composeHelpContent,
  courseKindLabel,
  helpCourseHref,
  helpTimeText,
  isCourseKind,
  isValidContact,
  mutualHelpFeeFen,
  mutualHelpFeeText,
  readHelpCourseRef,
  type HelpCourse,
} from "./mutual-help";
import { helpClassKey, upcomingOccurrences } from "./help-dates";

const COURSE: HelpCourse = {
  courseName: "数据结构",
  location: "信息楼A301",
  teacher: "王建华",
  weeks: "1-16周",
  period: "1-2",
  date: "2026-11-23",
  dayOfWeek: "1",
};

describe("the fee rule", () => {
  it.each<["normal" | "experiment", number, string, string]>([
    ["normal", 2500, "25", "普通课"],
    ["experiment", 3000, "30", "实验课"],
  ])("a %s course costs %i fen (%s yuan)", (kind, fen, yuan, label) => {
    expect(mutualHelpFeeFen(kind)).toBe(fen);
    expect(mutualHelpFeeText(kind)).toBe(yuan);
    expect(courseKindLabel(kind)).toBe(label);
  });

  it("has exactly the two course types", () => {
    expect(Object.keys(MUTUAL_HELP_FEES_FEN).sort()).toEqual(["experiment", "normal"]);
    expect(isCourseKind("normal")).toBe(true);
    expect(isCourseKind("experiment")).toBe(true);
    expect(isCourseKind("lab")).toBe(false);
    expect(isCourseKind(undefined)).toBe(false);
  });
});

describe("the class a request is for: its place in the student's timetable", () => {
  it("links term, week and the course's index, and reads them back", () => {
    const href = helpCourseHref({ term: "2026-2027-1", week: 3, course: 4 });
    expect(href).toBe("/schedule/mutual-help?term=2026-2027-1&week=3&course=4");
    expect(readHelpCourseRef(new URL(href, "http://x").searchParams)).toEqual({ term: "2026-2027-1", week: 3, course: 4 });
  });

  it.each([
    ["courseName=高数&period=99&date=abc"],
    ["term=2026-2027-1&week=99&course=0"],
    ["term=2026-2027-1&week=0&course=0"],
    ["term=2026&week=1&course=0"],
    ["term=2026-2027-1&week=1&course=-1"],
    ["term=2026-2027-1&week=1&course=1e3"],
    ["term=2026-2027-1&week=1"],
  ])("refuses %s", (query) => {
    expect(readHelpCourseRef(new URLSearchParams(query))).toBeNull();
  });
});

describe("a contact: a WeChat id or a mobile number", () => {
  it.each([
    ["wx_zhangming", true],
    ["Zhang-99", true],
    ["13812345678", true],
    ["19900001111", true],
    ["abc12", false], // too short for a WeChat id
    ["1zhangming", false], // a WeChat id starts with a letter
    ["12812345678", false], // no such mobile prefix
    ["1381234567", false],
    ["wx zhang", false],
    ["微信zhang01", false],
    ["a".repeat(21), false],
    ["", false],
  ])("%s → %s", (value, valid) => {
    expect(isValidContact(value)).toBe(valid);
  });
});

describe("the post text", () => {
  it("lists course, time, place, period, type, fee, how to get in touch and note, one per line (never the contact itself)", () => {
    const text = composeHelpContent({
      course: COURSE,
      time: helpTimeText(COURSE, { start: "08:10", end: "09:40" }),
      kind: "experiment",
      note: "坐后排",
    });
    expect(text.split("\n")).toEqual([
      "【互助代签】",
      "课程：数据结构",
      "时间：2026-11-23 周一 08:10-09:40",
      "地点：信息楼A301",
      "节次：第1-2节",
      "课程类型：实验课",
      "费用：30元",
      "联系方式：点帖子里的“我来帮忙”，双方互换联系方式",
      "备注：坐后排",
    ]);
  });

  it("leaves out what is unknown and never drops the contact line", () => {
    const text = composeHelpContent({
      course: { ...COURSE, location: "", period: "", date: "", dayOfWeek: "" },
      time: "",
      kind: "normal",
      note: "",
    });
    expect(text.split("\n")).toEqual(["【互助代签】", "课程：数据结构", "课程类型：普通课", "费用：25元", "联系方式：点帖子里的“我来帮忙”，双方互换联系方式"]);
  });

  it("stays within the forum's 500 characters at the longest inputs", () => {
    const long = Object.fromEntries(Object.keys(COURSE).map((key) => [key, "字".repeat(300)])) as HelpCourse;
    const text = composeHelpContent({ course: long, time: "2026-11-23 周一 08:10-09:40", kind: "normal", note: "字".repeat(200) });
    expect(text.length).toBeLessThanOrEqual(500);
  });
});

describe("the coming meetings of a class (a request is never for a class that has begun)", () => {
  // Term week 1 starts Monday 2026-09-07; a Thursday lab, periods 5-6 (14:00), weeks 1-16.
  const WEEK1 = "2026-09-07";
  const LAB = { weekday: 4, startPeriod: 5, endPeriod: 6, weeks: Array.from({ length: 16 }, (_, i) => i + 1) };
  const at = (text: string) => new Date(text);

  it.each([
    ["Sunday of week 12: the Thursday lab of week 13, not the one three days back", "2026-11-29T10:00:00+08:00", 13, "2026-12-03"],
    ["Thursday of week 13, 13:59: that afternoon's lab", "2026-12-03T13:59:00+08:00", 13, "2026-12-03"],
    ["Thursday of week 13, 14:00 (begun): the next week's", "2026-12-03T14:00:00+08:00", 14, "2026-12-10"],
    ["before the term: week 1", "2026-08-20T09:00:00+08:00", 1, "2026-09-10"],
  ])("%s", (_name, now, week, date) => {
    const [first] = upcomingOccurrences(LAB, WEEK1, at(now));
    expect(first).toEqual({ week, date, startsAt: new Date(`${date}T14:00:00+08:00`).toISOString() });
  });

  it("skips weeks the class does not meet (odd weeks only) and offers at most six", () => {
    const odd = { ...LAB, weeks: [1, 3, 5, 7, 9, 11, 13, 15] };
    expect(upcomingOccurrences(odd, WEEK1, at("2026-09-01T00:00:00+08:00")).map((o) => o.week)).toEqual([1, 3, 5, 7, 9, 11]);
    expect(upcomingOccurrences(odd, WEEK1, at("2026-11-29T00:00:00+08:00")).map((o) => o.week)).toEqual([13, 15]);
  });

  it("offers nothing once the class's last week is over, or a year later", () => {
    expect(upcomingOccurrences(LAB, WEEK1, at("2026-12-24T15:00:00+08:00"))).toEqual([]);
    expect(upcomingOccurrences(LAB, "2025-09-01", at("2026-11-29T10:00:00+08:00"))).toEqual([]);
  });

  it("names one class the same every week, and two classes differently", () => {
    const a = helpClassKey("2026-2027-1", { name: "数据结构", ...LAB });
    expect(a).toBe("2026-2027-1|4|5-6|数据结构");
    expect(helpClassKey("2026-2027-1", { name: "数据结构", ...LAB, weekday: 1 })).not.toBe(a);
    expect(helpClassKey("2025-2026-1", { name: "数据结构", ...LAB })).not.toBe(a);
  });
});

describe("the post's contact line", () => {
  it("promises a swap only when the requester left a contact", () => {
    const base = { course: COURSE, time: "2026-11-23 周一 08:10-09:40", kind: "normal" as const, note: "" };
    expect(composeHelpContent({ ...base, hasContact: true })).toContain("联系方式：点帖子里的“我来帮忙”，双方互换联系方式");
    const without = composeHelpContent({ ...base, hasContact: false });
    expect(without).not.toContain("双方互换");
    expect(without).toContain("联系方式：未留，请在评论区沟通");
  });
});
