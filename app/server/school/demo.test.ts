import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_SCHOOL, createDemoSystem } from "./demo.server";
import { createAcademicSystem } from "./index.server";
import { isSessionExpired, type AcademicSession, type Timetable } from "./types";

// Today in the brief: 22 November 2026 (Shanghai) → term 2026-2027-1.
const NOV_2026 = () => new Date("2026-11-22T04:00:00Z");
const demo = createDemoSystem({ now: NOV_2026 });

async function sessionOf(studentId: string): Promise<AcademicSession> {
  const result = await demo.login(studentId, DEMO_PASSWORD);
  if (!result.ok) throw new Error(result.failure.kind);
  return result.session;
}

async function timetableOf(studentId: string, term: string): Promise<Timetable> {
  const result = await demo.timetable(await sessionOf(studentId), term);
  if (isSessionExpired(result)) throw new Error("expired");
  return result;
}

describe("demo login", () => {
  it.each([
    ["20230001", { name: "张明", className: "计算机科学与技术2301班", college: "计算机学院" }],
    ["20230002", { name: "李雪", className: "汉语言文学2302班", college: "文学院" }],
  ])("logs %s in", async (studentId, profile) => {
    expect(await demo.login(studentId, DEMO_PASSWORD)).toEqual({
      ok: true,
      profile,
      session: { system: "demo", studentId, data: {} },
    });
  });

  it("refuses another password", async () => {
    expect(await demo.login("20230001", "demo12345")).toEqual({ ok: false, failure: { kind: "wrong_password" } });
  });

  it("reports an unknown student id", async () => {
    expect(await demo.login("20239999", DEMO_PASSWORD)).toEqual({ ok: false, failure: { kind: "account_missing" } });
  });

  it("is what createAcademicSystem gives for the demo school", async () => {
    const system = createAcademicSystem(DEMO_SCHOOL);
    expect((await system.login("20230002", DEMO_PASSWORD)).ok).toBe(true);
  });
});

describe("demo term info follows the clock", () => {
  it.each([
    ["2026-11-22T04:00:00Z", "2026-2027-1", "2026-09-07", ["2026-2027-1", "2025-2026-2", "2025-2026-1", "2024-2025-2"]],
    ["2025-10-01T04:00:00Z", "2025-2026-1", "2025-09-01", ["2025-2026-1", "2024-2025-2", "2024-2025-1", "2023-2024-2"]],
    ["2026-04-10T04:00:00Z", "2025-2026-2", "2026-03-02", ["2025-2026-2", "2025-2026-1", "2024-2025-2", "2024-2025-1"]],
  ])("at %s the current term is %s from %s", async (instant, currentTerm, week1Start, codes) => {
    const info = await createDemoSystem({ now: () => new Date(instant) }).termInfo(await sessionOf("20230001"));
    expect(info.currentTerm).toBe(currentTerm);
    expect(info.week1Start).toBe(week1Start);
    expect(info.terms.map((t) => t.code)).toEqual(codes);
    expect(info.terms[0].label).toBe(`${currentTerm.slice(0, 9)}学年第${currentTerm.slice(10)}学期`);
  });
});

const SLOT_STARTS = [1, 3, 5, 7, 9];

describe.each(["20230001", "20230002"])("demo timetable of %s", (studentId) => {
  // The current term (from the clock), the previous one, and the product rules' default semester.
  describe.each(["2026-2027-1", "2025-2026-2", "2025-2026-1", "2024-2025-2"])("in %s", (term) => {
    it("is a realistic week", async () => {
      const timetable = await timetableOf(studentId, term);
      expect(timetable.term).toBe(term);
      const { courses, notes } = timetable;
      expect(courses.length).toBeGreaterThanOrEqual(8);
      expect(courses.length).toBeLessThanOrEqual(12);
      for (const course of courses) {
        expect(SLOT_STARTS).toContain(course.startPeriod);
        expect(course.endPeriod).toBe(course.startPeriod + 1);
        expect(course.weeks.length).toBeGreaterThan(0);
        expect(course.teacher).not.toBe("");
        expect(course.location).not.toBe("");
      }
      expect(courses.some((c) => c.kind === "experiment" && c.name.includes("实验"))).toBe(true);
      expect(courses.some((c) => c.weekday >= 6)).toBe(true);
      expect(courses.some((c) => c.weeksText.endsWith("(单)"))).toBe(true);
      expect(courses.some((c) => c.weeksText.endsWith("(双)"))).toBe(true);
      expect(courses.some((c) => c.weeksText === "1-8周,10-16周" && !c.weeks.includes(9))).toBe(true);
      expect(notes.length).toBeGreaterThan(0);
      for (const note of notes) expect(note.weeks.length).toBeGreaterThan(0);
    });
  });
});

describe("demo timetable details", () => {
  it("gives 张明 a physics lab in even weeks", async () => {
    const { courses } = await timetableOf("20230001", "2025-2026-1");
    expect(courses.find((c) => c.name === "大学物理实验")).toMatchObject({
      weekday: 4,
      startPeriod: 7,
      endPeriod: 8,
      weeks: [2, 4, 6, 8, 10, 12, 14, 16],
      weeksText: "2-16周(双)",
      kind: "experiment",
    });
  });

  it("varies between terms", async () => {
    const autumn = await timetableOf("20230001", "2025-2026-1");
    const spring = await timetableOf("20230001", "2025-2026-2");
    const nextAutumn = await timetableOf("20230001", "2026-2027-1");
    expect(autumn.courses).not.toEqual(spring.courses);
    expect(autumn.courses).not.toEqual(nextAutumn.courses);
    expect(autumn.courses.map((c) => c.name).sort()).toEqual(nextAutumn.courses.map((c) => c.name).sort());
  });

  it("sorts courses by weekday then period", async () => {
    const { courses } = await timetableOf("20230002", "2026-2027-1");
    const order = courses.map((c) => c.weekday * 100 + c.startPeriod);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("lists only practice notes in a short term", async () => {
    const { courses, notes } = await timetableOf("20230002", "2025-2026-3");
    expect(courses).toEqual([]);
    expect(notes.map((n) => n.name)).toEqual(["军事训练"]);
  });

  it("treats a session of another system or student as expired", async () => {
    expect(await demo.timetable({ system: "zfsoft", studentId: "20230001", data: {} }, "2025-2026-1")).toEqual({
      sessionExpired: true,
    });
    expect(await demo.timetable({ system: "demo", studentId: "nobody", data: {} }, "2025-2026-1")).toEqual({
      sessionExpired: true,
    });
  });

  it("rejects an invalid term code", async () => {
    await expect(demo.timetable(await sessionOf("20230001"), "2025")).rejects.toThrow(RangeError);
  });
});

describe("demo grades and exams", () => {
  it("gives past terms' results with a 补考, a 重修, grade words and a 0-credit course", async () => {
    const result = await demo.grades(await sessionOf("20230001"));
    if (isSessionExpired(result)) throw new Error("expired");
    const terms = [...new Set(result.grades.map((grade) => grade.term))];
    expect(terms).toEqual(["2025-2026-2", "2025-2026-1", "2024-2025-2"]);
    expect(result.grades.some((grade) => grade.examKind === "makeup")).toBe(true);
    expect(result.grades.some((grade) => grade.examKind === "retake")).toBe(true);
    expect(result.grades.some((grade) => grade.score === "良")).toBe(true);
    expect(result.grades.some((grade) => grade.credit === 0)).toBe(true);
    expect(result.ranking).toEqual({ scope: "专业排名", rank: 12, total: 86 });
  });

  it("has no ranking for a student whose school page shows none", async () => {
    const result = await demo.grades(await sessionOf("20230002"));
    if (isSessionExpired(result)) throw new Error("expired");
    expect(result.ranking).toBeNull();
  });

  it("places this term's exams around today, one not scheduled yet", async () => {
    const result = await demo.exams(await sessionOf("20230001"), "2026-2027-1");
    if (isSessionExpired(result)) throw new Error("expired");
    expect(result.exams.map((exam) => exam.date)).toEqual(["2026-11-10", "2026-11-19", "2026-11-24", "2026-12-01", "2026-12-08", null]);
    const earlier = await demo.exams(await sessionOf("20230001"), "2025-2026-2");
    expect(isSessionExpired(earlier) ? null : earlier.exams).toEqual([]);
  });
});
