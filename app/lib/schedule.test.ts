import { describe, expect, it } from "vitest";
import {
  FALLBACK_TERM_INFO,
  TIME_SLOTS,
  ageText,
  clampWeek,
  classOccurrences,
  classTime,
  courseColour,
  currentWeek,
  dateOfClass,
  noteInWeek,
  parseWeekParam,
  periodText,
  periodsInWeek,
  emptyWeekReason,
  keptScheduleParams,
  scheduleHref,
  slotsOf,
  weekDates,
  weekGrid,
  weekOfDate,
  type ScheduleCourse,
} from "./schedule";
import { parseWeeksText } from "./weeks";

const course = (name: string, weekday: number, startPeriod: number, weeksText: string, endPeriod = startPeriod + 1): ScheduleCourse => ({
  name,
  teacher: "王老师",
  location: "教一-101",
  weekday,
  startPeriod,
  endPeriod,
  weeks: parseWeeksText(weeksText),
});

describe("week maths (Asia/Shanghai calendar dates)", () => {
  // The demo school's autumn term 2026-2027-1 starts on Monday 2026-09-07.
  it.each<[string, string, number]>([
    ["2026-09-07", "2026-09-07", 1],
    ["2026-09-13", "2026-09-07", 1], // Sunday still belongs to week 1
    ["2026-09-14", "2026-09-07", 2],
    ["2026-11-22", "2026-09-07", 11], // 'today' of the demo: a Sunday
    ["2026-11-23", "2026-09-07", 12],
    ["2026-09-06", "2026-09-07", 0], // the day before week 1
    ["2026-08-01", "2026-09-07", -5],
    ["2027-03-07", "2026-09-07", 26],
    ["2027-03-08", "2026-09-07", 27],
    ["2025-09-01", "2025-09-01", 1], // the product rules' fallback start
    ["2024-03-04", "2024-02-26", 2], // across a leap day
  ])("%s is week %i of a term starting %s", (day, start, week) => {
    expect(weekOfDate(day, start)).toBe(week);
  });

  it.each<[string, number]>([
    ["2026-11-22", 11],
    ["2026-08-01", 1], // before the term: week 1
    ["2027-06-30", 26], // long after: the last week
  ])("the current week on %s is %i (clamped to 1–26)", (today, week) => {
    expect(currentWeek(today, "2026-09-07")).toBe(week);
  });

  it.each<[number, number]>([
    [0, 1],
    [-3, 1],
    [1, 1],
    [13, 13],
    [26, 26],
    [27, 26],
    [999, 26],
    [3.7, 3],
    [Number.NaN, 1],
  ])("clampWeek(%d) = %i", (input, week) => {
    expect(clampWeek(input)).toBe(week);
  });

  it.each<[string | null, number | null]>([
    ["5", 5],
    ["0", 1],
    ["27", 26],
    ["-2", 1],
    ["100000", 26],
    [" 12 ", 12],
    ["", null],
    ["abc", null],
    ["3.5", null],
    ["1e3", null],
    [null, null],
  ])("?week=%s reads as %s", (value, week) => {
    expect(parseWeekParam(value)).toBe(week);
  });

  it("lists the seven dates of a week, Monday first, across month and year ends", () => {
    expect(weekDates("2026-09-07", 1)).toEqual(["2026-09-07", "2026-09-08", "2026-09-09", "2026-09-10", "2026-09-11", "2026-09-12", "2026-09-13"]);
    expect(weekDates("2026-09-07", 12)).toEqual(["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]);
    expect(weekDates("2026-09-07", 17)[3]).toBe("2026-12-31");
    expect(weekDates("2026-09-07", 17)[4]).toBe("2027-01-01");
  });

  it.each<[number, number, string]>([
    [1, 1, "2026-09-07"],
    [1, 7, "2026-09-13"],
    [11, 1, "2026-11-16"],
    [11, 7, "2026-11-22"],
  ])("week %i weekday %i meets on %s", (week, weekday, date) => {
    expect(dateOfClass("2026-09-07", week, weekday)).toBe(date);
  });

  it("falls back to the product rules' default term and an early-September week 1", () => {
    expect(FALLBACK_TERM_INFO.currentTerm).toBe("2025-2026-1");
    expect(FALLBACK_TERM_INFO.week1Start).toBe("2025-09-01");
    expect(FALLBACK_TERM_INFO.terms.map((t) => t.code)).toContain("2025-2026-1");
    expect(FALLBACK_TERM_INFO.terms.length).toBeGreaterThan(1);
  });
});

describe("time slots", () => {
  it("are the five slots of the product rules' limits", () => {
    expect(TIME_SLOTS.map((slot) => `${slot.period}: ${slot.start}-${slot.end}`)).toEqual([
      "1-2: 08:10-09:40",
      "3-4: 10:00-11:40",
      "5-6: 14:00-15:40",
      "7-8: 16:00-17:40",
      "9-10: 19:00-20:40",
    ]);
  });

  it.each<[number, number, number[], string, string]>([
    [1, 2, [0], "08:10", "09:40"],
    [3, 4, [1], "10:00", "11:40"],
    [5, 6, [2], "14:00", "15:40"],
    [7, 8, [3], "16:00", "17:40"],
    [9, 10, [4], "19:00", "20:40"],
    [1, 4, [0, 1], "08:10", "11:40"], // a double class covers two slots
    [5, 7, [2, 3], "14:00", "17:40"],
    [2, 2, [0], "08:10", "09:40"], // a single period stays in its slot
    [9, 11, [4], "19:00", "20:40"], // an 11th period belongs to the evening
    [11, 12, [4], "19:00", "20:40"],
    [0, 0, [0], "08:10", "09:40"], // nonsense lands in the first slot rather than nowhere
    [4, 3, [1], "10:00", "11:40"], // reversed periods
  ])("periods %i-%i map to slots %j (%s-%s)", (start, end, slots, from, to) => {
    expect(slotsOf(start, end)).toEqual(slots);
    expect(classTime({ startPeriod: start, endPeriod: end })).toEqual({ start: from, end: to });
  });

  it.each<[number, number, string]>([
    [1, 2, "1-2"],
    [5, 5, "5"],
    [9, 11, "9-11"],
  ])("periods %i-%i read as %s", (start, end, text) => {
    expect(periodText({ startPeriod: start, endPeriod: end })).toBe(text);
  });
});

describe("the week grid", () => {
  const courses = [
    course("数据结构", 1, 1, "1-16周"),
    course("离散数学", 1, 3, "1-15周(单)"),
    course("大学物理实验", 4, 7, "2-16周(双)"),
    course("形势与政策", 5, 9, "2-8周(双)"),
    course("体育", 5, 9, "1-16周"), // shares Friday evening with 形势与政策 in even weeks
    course("综合实验", 3, 1, "1-16周", 4), // four periods: two slots
  ];

  const cell = (week: number, slot: number, weekday: number) => weekGrid(courses, week)[slot][weekday - 1].map((card) => card.name);

  it("has five rows of seven days", () => {
    const grid = weekGrid(courses, 1);
    expect(grid).toHaveLength(5);
    for (const row of grid) expect(row).toHaveLength(7);
  });

  it("shows odd-week courses only in odd weeks and even-week courses only in even weeks", () => {
    expect(cell(1, 1, 1)).toEqual(["离散数学"]);
    expect(cell(2, 1, 1)).toEqual([]);
    expect(cell(1, 3, 4)).toEqual([]);
    expect(cell(2, 3, 4)).toEqual(["大学物理实验"]);
  });

  it("keeps both courses of a shared cell, in the term's order", () => {
    expect(cell(2, 4, 5)).toEqual(["形势与政策", "体育"]);
    expect(cell(10, 4, 5)).toEqual(["体育"]);
  });

  it("puts a four-period class in both of its slots", () => {
    expect(cell(1, 0, 3)).toEqual(["综合实验"]);
    expect(cell(1, 1, 3)).toEqual(["综合实验"]);
  });

  it("is empty outside the teaching weeks", () => {
    expect(weekGrid(courses, 20).flat(2)).toEqual([]);
  });

  it("names each card by its index in the term's list (the course dialog's key)", () => {
    expect(weekGrid(courses, 1)[0][0]).toEqual([{ index: 0, name: "数据结构", location: "教一-101" }]);
  });
});

describe("class occurrences (calendar feed and reminders)", () => {
  it("lists every meeting with Shanghai times, in time order", () => {
    const list = classOccurrences([course("离散数学", 1, 3, "1-5周(单)"), course("数据结构", 1, 1, "1-2周")], "2026-09-07");
    expect(list.map((o) => [o.course.name, o.week, o.date, o.startsAt.toISOString(), o.endsAt.toISOString()])).toEqual([
      ["数据结构", 1, "2026-09-07", "2026-09-07T00:10:00.000Z", "2026-09-07T01:40:00.000Z"],
      ["离散数学", 1, "2026-09-07", "2026-09-07T02:00:00.000Z", "2026-09-07T03:40:00.000Z"],
      ["数据结构", 2, "2026-09-14", "2026-09-14T00:10:00.000Z", "2026-09-14T01:40:00.000Z"],
      ["离散数学", 3, "2026-09-21", "2026-09-21T02:00:00.000Z", "2026-09-21T03:40:00.000Z"],
      ["离散数学", 5, "2026-10-05", "2026-10-05T02:00:00.000Z", "2026-10-05T03:40:00.000Z"],
    ]);
  });

  it("skips a course without a valid weekday", () => {
    expect(classOccurrences([course("x", 0, 1, "1周"), course("y", 8, 1, "1周")], "2026-09-07")).toEqual([]);
  });
});

describe("small helpers", () => {
  it.each<[string, string]>([
    ["2026-11-22T12:00:00.000Z", "刚刚"],
    ["2026-11-22T11:55:00.000Z", "5 分钟前"],
    ["2026-11-22T09:00:00.000Z", "3 小时前"],
    ["2026-11-19T12:00:00.000Z", "3 天前"],
    ["2026-11-23T12:00:00.000Z", "刚刚"], // a clock running ahead never shows a negative age
  ])("a timetable fetched at %s is %s old", (fetchedAt, text) => {
    expect(ageText(fetchedAt, new Date("2026-11-22T12:00:00.000Z"))).toBe(text);
  });

  it("shows notes in their weeks, and notes without readable weeks always", () => {
    expect(noteInWeek({ weeks: [17, 18] }, 17)).toBe(true);
    expect(noteInWeek({ weeks: [17, 18] }, 11)).toBe(false);
    expect(noteInWeek({ weeks: [] }, 11)).toBe(true);
  });

  it("gives a course the same colour every time", () => {
    expect(courseColour("数据结构")).toBe(courseColour("数据结构"));
    expect(courseColour("数据结构")).toBeGreaterThanOrEqual(0);
    expect(courseColour("数据结构")).toBeLessThan(8);
  });

  it("builds the week links the page and its forms use", () => {
    expect(scheduleHref("2026-2027-1", 12)).toBe("/schedule?term=2026-2027-1&week=12");
    expect(scheduleHref("2026-2027-1", 12, { dialog: "notify" })).toBe("/schedule?term=2026-2027-1&week=12&dialog=notify");
  });
});

describe("periodsInWeek (the term summary's 本周课程 N 节)", () => {
  const term = [
    course("数据结构", 1, 1, "1-16周"), // periods 1-2
    course("大学英语", 3, 3, "1-16周(单)"), // 3-4, odd weeks
    course("体育", 5, 5, "2-16周(双)"), // 5-6, even weeks
    course("实验", 2, 9, "1-8周", 11), // 9-11: three periods
    course("讲座", 4, 7, "9周", 7), // a single period, week 9 only
  ];
  it.each([
    [1, 2 + 2 + 3],
    [2, 2 + 2 + 3],
    [9, 2 + 2 + 1],
    [10, 2 + 2],
    [17, 0],
  ])("week %i has %i periods", (week, periods) => {
    expect(periodsInWeek(term, week)).toBe(periods);
  });
  it("counts 9 two-period cards as 18 periods, not 9", () => {
    const nine = Array.from({ length: 9 }, (_, i) => course(`课${i}`, (i % 7) + 1, 1 + 2 * Math.floor(i / 7), "1-16周"));
    expect(periodsInWeek(nine, 1)).toBe(18);
  });
});

describe("keptScheduleParams: what /schedule's links keep of what the student closed", () => {
  const q = (query: string) => new URLSearchParams(query);
  it.each<[string, Record<string, string>, Record<string, string>]>([
    // The empty-week notice, once closed, stays closed through the summary's and the notes' close links.
    ["empty=seen", {}, { empty: "seen" }],
    ["empty=seen&dialog=summary", {}, { empty: "seen" }],
    ["empty=seen", { notes: "hide" }, { empty: "seen", notes: "hide" }],
    ["empty=seen", { dialog: "summary" }, { empty: "seen", dialog: "summary" }],
    // Another week is another notice.
    ["empty=seen", { week: "5" }, { week: "5" }],
    // The notes panel stays hidden, across weeks too, until 展开.
    ["notes=hide", { week: "5" }, { notes: "hide", week: "5" }],
    ["notes=hide&empty=seen", { notes: "" }, { empty: "seen" }],
    // Today's full list stays open behind a course's dialog and across weeks, until 收起.
    ["today=all", { course: "2" }, { today: "all", course: "2" }],
    ["today=all", { week: "5" }, { today: "all", week: "5" }],
    ["today=all&notes=hide", { today: "" }, { notes: "hide" }],
    ["", {}, {}],
    ["empty=other", {}, {}],
  ])("%j + %j → %j", (current, extra, expected) => {
    expect(keptScheduleParams(q(current), extra)).toEqual(expected);
  });
});

describe("emptyWeekReason", () => {
  const courses = [{ weeks: [3, 4, 5] }, { weeks: [7, 8] }];
  it.each<[number, ReturnType<typeof emptyWeekReason>]>([
    [4, null],
    [6, "none"],
    [1, "before"],
    [9, "after"],
    [20, "after"],
  ])("week %s → %s", (week, reason) => {
    expect(emptyWeekReason(courses, week)).toBe(reason);
  });
  it("a term without courses gives no reason", () => {
    expect(emptyWeekReason([], 20)).toBeNull();
  });
});
