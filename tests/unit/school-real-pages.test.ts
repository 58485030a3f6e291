// The adapters on real school pages (anonymised, sources in tests/fixtures/schools/README.md).
import { describe, expect, it } from "vitest";
import { fixture, qiangzhiGrades, qiangzhiTimetable, scoreAll, zfsoftTimetable } from "../fixtures/schools/score";

describe("real school pages", () => {
  it("reads every field of every fixture right", async () => {
    const wrong = (await scoreAll()).filter((check) => check.right !== check.total);
    expect(wrong).toEqual([]);
  });

  it("QiangZhi: '名称</br>(讲课学时)' gives the bare name, and (实验学时) marks the lab", async () => {
    const { courses } = await qiangzhiTimetable(fixture("qiangzhi-timetable-lecture-hours.html"));
    expect(courses.find((course) => course.weekday === 1 && course.startPeriod === 1)).toMatchObject({
      name: "中国近现代史纲要",
      teacher: "教师甲",
      location: "J7-205室",
      endPeriod: 2,
      weeksText: "1-12周",
      kind: "normal",
    });
    expect(courses.some((course) => course.name.includes("学时"))).toBe(false);
    expect(courses.find((course) => course.name === "大学物理实验（B）（2-1）" && course.weeks.join() === "7")?.kind).toBe("experiment");
  });

  it("QiangZhi: the 备注 row's practice weeks become notes", async () => {
    const { notes } = await qiangzhiTimetable(fixture("qiangzhi-timetable-lecture-hours.html"));
    expect(notes).toHaveLength(6);
    expect(notes[0]).toMatchObject({ name: "大学物理实验（B）（2-1）", teacher: "教师巳", weeks: [7] });
  });

  it("QiangZhi: a grade table headed 课程号 keeps every course code", async () => {
    const grades = await qiangzhiGrades(fixture("qiangzhi-grades-kch.html"));
    expect(grades).toHaveLength(12);
    expect(grades.find((grade) => grade.course === "分子生物学")).toMatchObject({ courseCode: "30010047a", score: "80", credit: 3, courseType: "required" });
    expect(grades.every((grade) => grade.courseCode)).toBe(true);
  });

  it("ZFsoft: a class the school marks as lab hours (xsdm 02) is a lab even without 实验 in its name", async () => {
    const { courses } = await zfsoftTimetable(fixture("zfsoft-timetable-xsdm.json"));
    expect(courses.find((course) => course.name === "农业昆虫学" && course.weeksText === "6周")?.kind).toBe("experiment");
    expect(courses.find((course) => course.name === "生物安全概论")?.kind).toBe("normal");
  });

  it("ZFsoft: xsbjList explains the marks; 未排地点 is no room", async () => {
    const { courses } = await zfsoftTimetable(fixture("zfsoft-timetable-unplaced.json"));
    expect(courses.find((course) => course.name === "电路分析")?.kind).toBe("experiment");
    expect(courses.find((course) => course.name === "高等数学")?.kind).toBe("normal");
    expect(courses.find((course) => course.name.startsWith("毛泽东思想"))?.location).toBe("");
  });
});
