import { describe, expect, it } from "vitest";
import { parseTimetableCell, periodsOfRowLabel, readTimetableGrid, weekdayOfHeader, type GridCell } from "./timetable-import";

const range = (from: number, to: number, step = 1) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);
const at = { weekday: 2, rowPeriods: { start: 3, end: 4 } };

describe("parseTimetableCell", () => {
  it.each([
    [
      "ZFsoft V9: name mark dropped, fields by label",
      "高等数学A(2)★\n(1-2节)1-16周/校区:下沙/场地:D219/教师:肖小芳/教学班:(2025-2026-2)-MATH012-26",
      [{ name: "高等数学A(2)", teacher: "肖小芳", location: "D219", weekday: 2, startPeriod: 1, endPeriod: 2, weeks: range(1, 16) }],
    ],
    [
      "ZFsoft V9: parity on one part only",
      "体育4◆\n(3-4节)1-5周,7-11周(单),12-13周/场地:操场/教师:李兢",
      [{ name: "体育4", teacher: "李兢", location: "操场", weekday: 2, startPeriod: 3, endPeriod: 4, weeks: [1, 2, 3, 4, 5, 7, 9, 11, 12, 13] }],
    ],
    [
      "ZFsoft V9: the brief's '1-8,10-16周(双)' keeps 1-8 whole",
      "生理学☆\n(9-10节)1-8,10-16周(双)/场地:教三508/教师:俞彬",
      [{ name: "生理学", teacher: "俞彬", location: "教三508", weekday: 2, startPeriod: 9, endPeriod: 10, weeks: [...range(1, 8), 10, 12, 14, 16] }],
    ],
    [
      "ZFsoft V9: fields on their own lines",
      "英语\n(1-2节)2-16周(双)\n校区:西校区\n场地:XGA楼-106\n教师:李老师",
      [{ name: "英语", teacher: "李老师", location: "XGA楼-106", weekday: 2, startPeriod: 1, endPeriod: 2, weeks: range(2, 16, 2) }],
    ],
    [
      "ZFsoft older: weekday and periods from the text, teacher's repeated name dropped",
      "WEB应用开发技术\n周一第1,2节{第1-16周}\n熊俊涛(熊俊涛)\n3502",
      [{ name: "WEB应用开发技术", teacher: "熊俊涛", location: "3502", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: range(1, 16) }],
    ],
    [
      "ZFsoft older: '|双周'",
      "大学物理\n周四第3,4,5节{第2-16周|双周}\n张建桃\n3301",
      [{ name: "大学物理", teacher: "张建桃", location: "3301", weekday: 4, startPeriod: 3, endPeriod: 5, weeks: range(2, 16, 2) }],
    ],
    [
      "QiangZhi: '[01-02节]' gives the periods, the title leaves the teacher",
      "计算机网络\n刘老师(讲师)\n1-16(周)[01-02节]\nBY506",
      [{ name: "计算机网络", teacher: "刘老师", location: "BY506", weekday: 2, startPeriod: 1, endPeriod: 2, weeks: range(1, 16) }],
    ],
    [
      "QiangZhi: '([双周])' after a list applies to every part",
      "操作系统\n王老师\n1-11,14-18([双周])\n测试楼101",
      [{ name: "操作系统", teacher: "王老师", location: "测试楼101", weekday: 2, startPeriod: 3, endPeriod: 4, weeks: [2, 4, 6, 8, 10, 14, 16, 18] }],
    ],
    [
      "QiangZhi: '1-12([周])' and '5,7,9[周]'",
      "数据库\n王老师\n1-12([周])\n50302\n形势与政策\n周八\n5,7,9[周]\n品学楼B107",
      [
        { name: "数据库", teacher: "王老师", location: "50302", weekday: 2, startPeriod: 3, endPeriod: 4, weeks: range(1, 12) },
        { name: "形势与政策", teacher: "周八", location: "品学楼B107", weekday: 2, startPeriod: 3, endPeriod: 4, weeks: [5, 7, 9] },
      ],
    ],
    [
      "QiangZhi: a dashed line between two courses, no room on the first",
      "软件工程\n郑秀娟\n1-4,6-9(周)\n---------------------\n编译原理\n郑秀娟\n1-15[单周]\n主楼211",
      [
        { name: "软件工程", teacher: "郑秀娟", location: "", weekday: 2, startPeriod: 3, endPeriod: 4, weeks: [1, 2, 3, 4, 6, 7, 8, 9] },
        { name: "编译原理", teacher: "郑秀娟", location: "主楼211", weekday: 2, startPeriod: 3, endPeriod: 4, weeks: range(1, 15, 2) },
      ],
    ],
  ])("%s", (_, text, courses) => {
    expect(parseTimetableCell(text, at)).toEqual({ courses, unread: [] });
  });

  it.each([
    ["a note with no weeks line", "实训，地点另行通知"],
    ["a course whose weeks say nothing", "网络课程\n线上\n周次待定\n线上"],
  ])("%s is returned as unread, as written", (_, text) => {
    const read = parseTimetableCell(text, at);
    expect(read.courses).toEqual([]);
    expect(read.unread.join(" ")).toContain(text.split("\n")[0]);
  });

  it("a course without any period (no row periods, none in the text) is unread", () => {
    const read = parseTimetableCell("数据结构\n王五\n1-12[周]\nJ7-106", { weekday: 1, rowPeriods: null });
    expect(read.courses).toEqual([]);
    expect(read.unread).toEqual(["数据结构 王五 1-12[周] J7-106"]);
  });

  it("periods past 12 are refused, weeks past 26 dropped", () => {
    expect(parseTimetableCell("夜课\n(13-14节)1-16周/场地:A1", at)).toEqual({ courses: [], unread: ["夜课 (13-14节)1-16周/场地:A1"] });
    expect(parseTimetableCell("长课\n(1-2节)20-40周/场地:A1", at).courses[0]!.weeks).toEqual(range(20, 26));
  });

  it("long names and rooms are cut to what the course form allows", () => {
    const [course] = parseTimetableCell(`${"课".repeat(60)}\n(1-2节)1-16周/场地:${"楼".repeat(50)}`, at).courses;
    expect(Array.from(course!.name)).toHaveLength(40);
    expect(Array.from(course!.location)).toHaveLength(30);
  });
});

describe("row labels and headers", () => {
  it.each([
    ["1", { start: 1, end: 1 }],
    ["上午 3", { start: 3, end: 3 }],
    ["第11节", { start: 11, end: 11 }],
    ["1 08:00-08:45", { start: 1, end: 1 }],
    ["第一大节", { start: 1, end: 2 }],
    ["第3大节", { start: 5, end: 6 }],
    ["第五大节\n(09,10,11小节)", { start: 9, end: 11 }],
    ["1-2节", { start: 1, end: 2 }],
    ["备注", null],
    ["", null],
  ])("%j → %j", (label, periods) => {
    expect(periodsOfRowLabel(label)).toEqual(periods);
  });

  it.each([
    ["星期一", 1],
    ["周日", 7],
    ["星期天", 7],
    [" 星期 三 ", 3],
    ["星期一上午", null],
    ["星期二\n09-02", 2],
  ])("%j → %j", (text, weekday) => {
    expect(weekdayOfHeader(text)).toBe(weekday);
  });
});

describe("readTimetableGrid", () => {
  const cell = (text: string, rowSpan = 1): GridCell => ({ text, rowSpan });
  const header = [cell("节次"), ...["星期一", "星期二", "星期三"].map((day) => cell(day))];

  it("a merged cell takes the periods of every row it spans", () => {
    const grid = [header, [cell("1"), cell("数学\n王老师\n1-16(周)\nA1", 2), cell(""), cell("")], [cell("2"), null, cell(""), cell("")]];
    expect(readTimetableGrid(grid)!.courses).toEqual([{ name: "数学", teacher: "王老师", location: "A1", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: range(1, 16) }]);
  });

  it("a course repeated in each of its rows (no merged cells) is kept once", () => {
    const text = "物理\n(1-2节)1-16周/场地:B2/教师:李";
    const grid = [header, [cell("1"), cell(""), cell(text), cell("")], [cell("2"), cell(""), cell(text), cell("")]];
    expect(readTimetableGrid(grid)!.courses).toHaveLength(1);
  });

  it("no weekday header: not a timetable", () => {
    expect(readTimetableGrid([[cell("姓名"), cell("学号")], [cell("张三"), cell("1")]])).toBeNull();
  });

  it("a 备注 row's text is shown as unread with its label", () => {
    const grid = [header, [cell("第一大节"), cell(""), cell(""), cell("")], [cell("备注"), cell("实训12-13周"), null, null]];
    expect(readTimetableGrid(grid)).toEqual({ courses: [], unread: [{ weekday: 1, rowLabel: "备注", text: "实训12-13周" }] });
  });
});
