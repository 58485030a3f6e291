import { describe, expect, it } from "vitest";
import { courseKindOf, practiceNotesFromRemark, roomOf, splitCourseName, zfsoftHourType } from "./school-pages";

describe("splitCourseName", () => {
  it.each([
    ["中国近现代史纲要 (讲课学时)", "中国近现代史纲要", "讲课学时"],
    ["中国近现代史纲要\n(讲课学时)", "中国近现代史纲要", "讲课学时"],
    ["大学物理实验（B）（2-1） (实验学时)", "大学物理实验（B）（2-1）", "实验学时"],
    ["大学物理（B）（2-1）", "大学物理（B）（2-1）", null],
    ["大学英语（A)(2-2)", "大学英语（A)(2-2)", null],
    ["(讲课学时)", "(讲课学时)", null],
  ])("%j → %j / %j", (text, name, hourType) => {
    expect(splitCourseName(text)).toEqual({ name, hourType });
  });
});

describe("courseKindOf", () => {
  it.each([
    ["电路分析", "实验学时", "experiment"],
    ["程序设计", "上机学时", "experiment"],
    ["认识实习", "实践", "experiment"],
    ["高等数学", "讲课学时", "normal"],
    ["物理实验", null, "experiment"],
    ["高等数学", null, "normal"],
  ] as const)("%s (%s) → %s", (name, hourType, kind) => {
    expect(courseKindOf(name, hourType)).toBe(kind);
  });
});

describe("zfsoftHourType", () => {
  const legend = [{ xslxbj: "★", xsmc: "理论" }, { xslxbj: "☆", xsmc: "实验" }];
  it.each([
    [{ xslxbj: "☆", xsdm: "05" }, legend, "实验"],
    [{ xslxbj: "★", xsdm: "01" }, legend, "理论"],
    [{ xsdm: "02" }, undefined, "实验学时"],
    [{ xsdm: "01", xslxbj: "◇" }, [], "讲课学时"],
    [{ xsdm: "03" }, [{ xsdm: "03", xsmc: "上机" }], "上机"],
    [{}, undefined, null],
  ])("%j with %j → %j", (item, list, expected) => {
    expect(zfsoftHourType(item, list)).toBe(expected);
  });
});

describe("roomOf", () => {
  it.each([["未排地点", ""], [" 未安排 ", ""], ["待定", ""], ["J7-205室", "J7-205室"], ["线上虚拟教室", "线上虚拟教室"]])("%j → %j", (text, room) => {
    expect(roomOf(text)).toBe(room);
  });
});

describe("practiceNotesFromRemark", () => {
  it("reads '名称 教师 N周' and '名称 N周' entries", () => {
    expect(practiceNotesFromRemark("电工电子实验 1周;公益劳动 1周")).toEqual([
      { name: "电工电子实验", teacher: "", weeks: [1], weeksText: "1周", description: "电工电子实验 1周" },
      { name: "公益劳动", teacher: "", weeks: [1], weeksText: "1周", description: "公益劳动 1周" },
    ]);
    expect(practiceNotesFromRemark("大学物理实验（B）（2-1） 张老师 7周;\n")).toEqual([
      { name: "大学物理实验（B）（2-1）", teacher: "张老师", weeks: [7], weeksText: "7周", description: "大学物理实验（B）（2-1） 张老师 7周" },
    ]);
    expect(practiceNotesFromRemark("毕业实习 王老师 1-4周；课程设计 17,18周")[1]).toMatchObject({ name: "课程设计", weeks: [17, 18] });
  });

  it("ignores 无 and blanks; keeps an entry without weeks as its text", () => {
    expect(practiceNotesFromRemark("无")).toEqual([]);
    expect(practiceNotesFromRemark(" ; ")).toEqual([]);
    expect(practiceNotesFromRemark("网络课程另行通知")).toEqual([{ name: "网络课程另行通知", teacher: "", weeks: [], weeksText: "", description: "网络课程另行通知" }]);
  });
});
