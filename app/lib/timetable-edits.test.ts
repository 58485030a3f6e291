import { describe, expect, it } from "vitest";
import { NO_CHANGE, clashWith, mergeTimetable, readWeeksInput, syncedCourseKey, type SyncedCourse, type TimetableEdit } from "./timetable-edits";

describe("readWeeksInput", () => {
  it.each([
    ["1-16", Array.from({ length: 16 }, (_, i) => i + 1)],
    ["1-8,10-16", [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16]],
    ["1-8，10-16", [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16]],
    ["1-15单", [1, 3, 5, 7, 9, 11, 13, 15]],
    ["1-16单", [1, 3, 5, 7, 9, 11, 13, 15]],
    ["2-16双", [2, 4, 6, 8, 10, 12, 14, 16]],
    ["1-16周(双)", [2, 4, 6, 8, 10, 12, 14, 16]],
    ["1-16（单周）", [1, 3, 5, 7, 9, 11, 13, 15]],
    ["3,5,7", [3, 5, 7]],
    ["1-4,3-6", [1, 2, 3, 4, 5, 6]],
    ["1~4 9", [1, 2, 3, 4, 9]],
    ["7", [7]],
  ])("%s", (text, weeks) => {
    expect(readWeeksInput(text)).toEqual(weeks);
  });

  it.each(["", " ", "abc", "0-3", "1-27", "8-1", "1-8,x", "1--3", "2-2单"])("refuses %j", (text) => {
    expect(readWeeksInput(text)).toBeNull();
  });
});

const course = (over: Partial<SyncedCourse> = {}): SyncedCourse => ({
  name: "数据结构",
  teacher: "王建华",
  location: "信息楼A301",
  weekday: 1,
  startPeriod: 1,
  endPeriod: 2,
  weeks: [1, 2, 3, 4],
  weeksText: "1-4周",
  ...over,
});

const edit = (over: Partial<TimetableEdit>): TimetableEdit => ({
  id: 1,
  kind: "override",
  courseKey: null,
  ...NO_CHANGE,
  ...over,
});

describe("mergeTimetable", () => {
  const physics = course({ name: "大学物理", teacher: "陈志刚", weekday: 2 });
  const synced = [course(), physics];

  it("keeps the school's courses untouched without changes", () => {
    const merged = mergeTimetable(synced, []);
    expect(merged.map((c) => [c.name, c.location, c.source, c.editId, c.syncedIndex, c.hidden])).toEqual([
      ["数据结构", "信息楼A301", "school", null, 0, false],
      ["大学物理", physics.location, "school", null, 1, false],
    ]);
  });

  it("applies an override by the course's key, whatever its position after a refresh", () => {
    const override = edit({ id: 7, courseKey: syncedCourseKey(course()), location: "信息楼B202", weekday: 4, startPeriod: 5, endPeriod: 6, weeks: [2, 4], note: "带实验报告", colour: 3 });
    // The school's refresh reorders the list: the override still finds its course.
    const merged = mergeTimetable([physics, course()], [override]);
    expect(merged[1]).toMatchObject({ name: "数据结构", location: "信息楼B202", weekday: 4, startPeriod: 5, endPeriod: 6, weeks: [2, 4], weeksText: "2,4周", editId: 7, syncedIndex: 1, note: "带实验报告", colour: 3 });
    expect(merged[0]).toMatchObject({ name: "大学物理", editId: null });
  });

  it("keeps unchanged fields from the school (null means keep)", () => {
    const merged = mergeTimetable(synced, [edit({ courseKey: syncedCourseKey(course()), location: "信息楼B202" })]);
    expect(merged[0]).toMatchObject({ location: "信息楼B202", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: [1, 2, 3, 4] });
  });

  it("lets the school's own change win when it moves the course (the key no longer matches)", () => {
    const override = edit({ courseKey: syncedCourseKey(course()), location: "信息楼B202" });
    const moved = course({ weekday: 3 });
    expect(mergeTimetable([moved], [override])[0]).toMatchObject({ location: "信息楼A301", editId: null });
  });

  it("marks hidden courses and ignores removed changes", () => {
    const merged = mergeTimetable(synced, [
      edit({ id: 1, courseKey: syncedCourseKey(course()), hidden: true }),
      edit({ id: 2, courseKey: syncedCourseKey(physics), location: "别处", removed: true }),
    ]);
    expect(merged[0].hidden).toBe(true);
    expect(merged[1]).toMatchObject({ location: physics.location, editId: null });
  });

  it("appends the student's own courses after the school's", () => {
    const own = edit({ id: 9, kind: "own", name: "考研英语", teacher: "", location: "图书馆", weekday: 6, startPeriod: 9, endPeriod: 10, weeks: [1, 3, 5] });
    const removed = edit({ id: 10, kind: "own", name: "已删", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: [1], removed: true });
    const merged = mergeTimetable(synced, [own, removed]);
    expect(merged).toHaveLength(3);
    expect(merged[2]).toMatchObject({ name: "考研英语", source: "own", editId: 9, syncedIndex: null, weeksText: "1-5周(单)", location: "图书馆" });
  });
});

describe("clashWith", () => {
  const merged = mergeTimetable(
    [course(), course({ name: "英语", teacher: "刘", startPeriod: 2, endPeriod: 3, weeks: [4, 5] }), course({ name: "体育", teacher: "钱", weeks: [9] })],
    [],
  );
  it.each([
    [0, "英语"],
    [1, "数据结构"],
    [2, null],
  ])("course %i clashes with %s", (index, name) => {
    expect(clashWith(merged, index)?.name ?? null).toBe(name);
  });
});
