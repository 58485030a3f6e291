import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { summariseGrades } from "~/lib/grades";
import { allowFake } from "../../../tests/fakes/allow";
import { FAKE_STUDENT, gradeRow, startFakeZfsoft, type FakeZfsoft } from "../../../tests/fakes/zfsoft-server";
import { isSessionExpired, type AcademicSession, type ExamList, type GradeReport } from "./types";
import { createZfsoftSystem, examKindOf, parseZfsoftGrades } from "./zfsoft.server";

const OCTOBER_2025 = () => new Date("2025-10-15T02:00:00Z");

let fake: FakeZfsoft;
beforeEach(async () => {
  fake = await startFakeZfsoft();
});
afterEach(async () => {
  await fake.close();
});

const zfsoft = () => createZfsoftSystem({ baseUrl: fake.baseUrl, now: OCTOBER_2025, timeoutMs: 5_000, outbound: allowFake(fake.baseUrl) });

async function loggedIn(): Promise<AcademicSession> {
  const result = await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
  if (!result.ok) throw new Error(`login failed: ${result.failure.kind}`);
  return result.session;
}

async function gradesOf(session?: AcademicSession): Promise<GradeReport> {
  const result = await zfsoft().grades(session ?? (await loggedIn()));
  if (isSessionExpired(result)) throw new Error("session expired");
  return result;
}

describe("ZFsoft grades", () => {
  it("reads every term's results with credit, score, the school's point, course and exam type", async () => {
    const { grades, ranking } = await gradesOf();
    expect(grades).toHaveLength(9);
    expect(grades[0]).toMatchObject({
      term: "2024-2025-1",
      course: "大学计算机基础",
      credit: 3,
      score: "92",
      schoolPoint: 4.2,
      courseType: "required",
      examKind: "normal",
      teacher: "任课教师",
    });
    expect(grades.find((grade) => grade.course === "思想道德与法治")).toMatchObject({ score: "良", schoolPoint: 3.5 });
    expect(grades.find((grade) => grade.course === "书法鉴赏")).toMatchObject({ term: "2024-2025-2", courseType: "elective" });
    // An empty jd is no point at all (the word table decides), not 0.
    expect(grades.find((grade) => grade.course === "形势与政策")).toMatchObject({ credit: 0, schoolPoint: null });
    expect(grades.filter((grade) => grade.examKind !== "normal").map((grade) => [grade.course, grade.examKind])).toEqual([
      ["高等数学A(上)", "makeup"],
      ["线性代数", "retake"],
    ]);
    // ZFsoft's grade query has no ranking: none is invented.
    expect(ranking).toBeNull();
  });

  it("asks the grade module for all terms at once, as an XHR", async () => {
    await gradesOf();
    expect(fake.state.requests).toContain("POST /jwglxt/cjcx/cjcx_cxXsgrcj.html");
  });

  it("follows the pages when the school caps the page size", async () => {
    const capped = await startFakeZfsoft({ maxPageSize: 4 });
    try {
      const system = createZfsoftSystem({ baseUrl: capped.baseUrl, now: OCTOBER_2025, outbound: allowFake(capped.baseUrl) });
      const login = await system.login(FAKE_STUDENT.id, FAKE_STUDENT.password);
      if (!login.ok) throw new Error("login failed");
      const result = await system.grades(login.session);
      if (isSessionExpired(result)) throw new Error("expired");
      expect(result.grades).toHaveLength(9);
      expect(capped.state.requests.filter((line) => line.includes("cjcx_cxXsgrcj"))).toHaveLength(3);
    } finally {
      await capped.close();
    }
  });

  it("computes the GPA from the school's own points, with the 补考 and 重修 replacing the originals", async () => {
    const summary = summariseGrades((await gradesOf()).grades);
    // Counted: 计算机 3×4.2, 高数(补考) 5×1.0, 思修 3×3.5, 书法 1×1.5, 线代(重修) 3×3.3, 程序 4×3.8 → 54.7/19
    expect(summary.overall).toBe(2.88);
    expect(summary.credits).toBe(19);
    expect(summary.required).toBe(Math.round((53.2 / 18) * 100) / 100);
  });

  it("sees a newly published result on the next query", async () => {
    const session = await loggedIn();
    fake.state.grades.push(gradeRow("2025", "3", "数据结构", "4.0", "95", "4.50", "必修课"));
    expect((await gradesOf(session)).grades.map((grade) => grade.course)).toContain("数据结构");
  });

  it("reports an expired school session", async () => {
    const session = await loggedIn();
    fake.state.sessions.clear();
    expect(await zfsoft().grades(session)).toEqual({ sessionExpired: true });
  });

  it("maps the exam natures", () => {
    expect(["正常考试", "补考一", "补考", "重修", "重修考试"].map(examKindOf)).toEqual(["normal", "makeup", "makeup", "retake", "retake"]);
    expect(parseZfsoftGrades([{ kcmc: "无学期", cj: "90" }, { xnmmc: "2023-2024", xqmmc: "2", kcmc: "旧格式", cj: "90", xf: "2" }])).toEqual([
      { term: "2023-2024-2", course: "旧格式", credit: 2, score: "90", schoolPoint: null, courseType: "elective", examKind: "normal" },
    ]);
  });
});

describe("ZFsoft exams", () => {
  async function examsOf(term: string): Promise<ExamList> {
    const result = await zfsoft().exams(await loggedIn(), term);
    if (isSessionExpired(result)) throw new Error("session expired");
    return result;
  }

  it("reads course, date, time, place, seat and exam name of the term", async () => {
    const { exams } = await examsOf("2025-2026-1");
    expect(exams).toHaveLength(3);
    expect(exams[0]).toEqual({
      term: "2025-2026-1",
      course: "高等数学A(下)",
      date: "2026-01-12",
      start: "09:00",
      end: "11:00",
      place: "南教1-201",
      seat: "23",
      kind: "2025-2026-1期末考试",
      campus: "南校区",
    });
    // Not scheduled yet: no date, no place, still listed.
    expect(exams[2]).toMatchObject({ course: "大学物理实验", date: null, start: null, place: "" });
  });

  it("answers an empty list for a term without exams", async () => {
    expect((await examsOf("2024-2025-2")).exams).toEqual([]);
  });

  it("reports an expired school session", async () => {
    const session = await loggedIn();
    fake.state.sessions.clear();
    expect(await zfsoft().exams(session, "2025-2026-1")).toEqual({ sessionExpired: true });
  });
});
