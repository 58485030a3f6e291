import { describe, expect, it } from "vitest";
import {
  COURSE_QUERY_KEYS,
  MUTUAL_HELP_FEES_FEN,
  composeHelpContent,
  courseKindLabel,
  helpQuery,
  helpTimeText,
  isCourseKind,
  mutualHelpFeeFen,
  mutualHelpFeeText,
  readHelpCourse,
  type HelpCourse,
} from "./mutual-help";

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

describe("the course details in the query", () => {
  it("uses exactly the spec's parameter names", () => {
    expect(COURSE_QUERY_KEYS).toEqual(["courseName", "location", "teacher", "weeks", "period", "date", "dayOfWeek"]);
    expect(helpQuery(COURSE)).toBe(
      "courseName=%E6%95%B0%E6%8D%AE%E7%BB%93%E6%9E%84&location=%E4%BF%A1%E6%81%AF%E6%A5%BCA301&teacher=%E7%8E%8B%E5%BB%BA%E5%8D%8E&weeks=1-16%E5%91%A8&period=1-2&date=2026-11-23&dayOfWeek=1",
    );
  });

  it("reads back what helpQuery wrote", () => {
    expect(readHelpCourse(new URLSearchParams(helpQuery(COURSE)))).toEqual(COURSE);
  });

  it.each<[string, Partial<HelpCourse>]>([
    ["period=first&date=tomorrow&dayOfWeek=8", { period: "", date: "", dayOfWeek: "" }],
    ["courseName=%20%20高数%0A%20", { courseName: "高数" }],
    [`courseName=${"长".repeat(100)}`, { courseName: "长".repeat(60) }],
    ["location=a%00b", { location: "a b" }],
    ["", { courseName: "", location: "", teacher: "", weeks: "", period: "", date: "", dayOfWeek: "" }],
  ])("keeps only sane values: %s", (query, expected) => {
    expect(readHelpCourse(new URLSearchParams(query))).toMatchObject(expected);
  });
});

describe("the post text", () => {
  it("lists course, time, place, period, type, fee, contact and note, one per line", () => {
    const text = composeHelpContent({
      course: COURSE,
      time: helpTimeText(COURSE, { start: "08:10", end: "09:40" }),
      kind: "experiment",
      contact: "13812345678",
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
      "联系方式：13812345678",
      "备注：坐后排",
    ]);
  });

  it("leaves out what is unknown and never drops the contact line", () => {
    const text = composeHelpContent({
      course: { ...COURSE, location: "", period: "", date: "", dayOfWeek: "" },
      time: "",
      kind: "normal",
      contact: "",
      note: "",
    });
    expect(text.split("\n")).toEqual(["【互助代签】", "课程：数据结构", "课程类型：普通课", "费用：25元", "联系方式：请私信联系"]);
  });

  it("stays within the forum's 500 characters at the longest inputs", () => {
    const long = readHelpCourse(new URLSearchParams(COURSE_QUERY_KEYS.map((key) => `${key}=${"字".repeat(300)}`).join("&")));
    const text = composeHelpContent({ course: long, time: "2026-11-23 周一 08:10-09:40", kind: "normal", contact: "字".repeat(64), note: "字".repeat(200) });
    expect(text.length).toBeLessThanOrEqual(500);
  });
});
