import { afterEach, describe, expect, it } from "vitest";
import { summariseGrades } from "~/lib/grades";
import { allowFake } from "../../../tests/fakes/allow";
import { FAKE_QZ_STUDENT, startFakeQiangzhi, type FakeQiangzhi, type FakeQiangzhiOptions } from "../../../tests/fakes/qiangzhi-server";
import { createAcademicSystem } from "./index.server";
import {
  CAPTCHA_MESSAGE,
  createQiangzhiSystem,
  encodeBase64,
  encodeInterleaved,
  failureFromError,
  parseSess,
  weeksTextOf,
  type QiangzhiOptions,
} from "./qiangzhi.server";
import { AcademicSystemError, isSessionExpired, type AcademicSession, type Timetable } from "./types";

const OCTOBER_2025 = () => new Date("2025-10-15T02:00:00Z");

let fake: FakeQiangzhi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: FakeQiangzhiOptions = {}) {
  fake = await startFakeQiangzhi(options);
  return fake;
}

const qz = (opts: Partial<QiangzhiOptions> = {}) => createQiangzhiSystem({ baseUrl: fake!.baseUrl, now: OCTOBER_2025, timeoutMs: 5_000, outbound: allowFake(fake!.baseUrl), ...opts });

async function loggedIn(): Promise<AcademicSession> {
  const result = await qz().login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password);
  if (!result.ok) throw new Error(`login failed: ${result.failure.kind}`);
  return result.session;
}

describe("QiangZhi login", () => {
  it.each(["base64", "interleave"] as const)("logs in with the %s `encoded` and reads the name", async (variant) => {
    await start({ variant });
    const result = await qz().login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password);
    expect(result).toMatchObject({ ok: true, profile: { name: "赵小川" }, session: { system: "qiangzhi", studentId: FAKE_QZ_STUDENT.id } });
    if (!result.ok) return;
    expect(fake!.state.sessions.get(result.session.data.JSESSIONID)).toBe(FAKE_QZ_STUDENT.id);
    // The password never travels in clear (variant A is base64, B is interleaved with scode).
    const body = fake!.state.loginBodies[0];
    expect(body).not.toContain(FAKE_QZ_STUDENT.password);
    expect(body).not.toContain(encodeURIComponent(FAKE_QZ_STUDENT.password));
    expect(new URLSearchParams(body).get("userPassword")).toBe("");
  });

  it.each(["base64", "interleave"] as const)("maps a wrong password (%s) to wrong_password with the school's words", async (variant) => {
    await start({ variant });
    expect(await qz().login(FAKE_QZ_STUDENT.id, "wrong")).toEqual({ ok: false, failure: { kind: "wrong_password", schoolMessage: "用户名或密码错误" } });
  });

  it("accepts the base 'host/jsxsd' as well as the host", async () => {
    await start();
    const result = await createQiangzhiSystem({ baseUrl: `${fake!.baseUrl}/jsxsd/`, now: OCTOBER_2025, outbound: allowFake(fake!.baseUrl) }).login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password);
    expect(result.ok).toBe(true);
  });

  it("hands the school's captcha to the student, then logs in with the answer in the same school session", async () => {
    await start({ captcha: true });
    const first = await qz().login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password);
    if (first.ok || !first.failure.challenge) throw new Error("expected a captcha challenge");
    expect(first.failure).toMatchObject({ kind: "captcha_required", schoolMessage: CAPTCHA_MESSAGE });
    expect(first.failure.challenge.contentType).toBe("image/gif");
    expect(Buffer.from(first.failure.challenge.image, "base64").subarray(0, 3).toString()).toBe("GIF");
    // Nothing was posted before the student answered.
    expect(fake!.state.loginBodies).toEqual([]);
    const wrong = await qz().login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password, { answer: "ZZZZ", state: first.failure.challenge.state });
    expect(wrong).toMatchObject({ ok: false, failure: { kind: "captcha_required", schoolMessage: "验证码错误!!" } });

    const again = await qz().login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password);
    if (again.ok || !again.failure.challenge) throw new Error("expected a captcha challenge");
    const answer = fake!.state.captchas.get(again.failure.challenge.state.JSESSIONID)!;
    const result = await qz().login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password, { answer, state: again.failure.challenge.state });
    expect(result).toMatchObject({ ok: true, profile: { name: "赵小川" } });
  });

  it("uses a configured captcha reader instead of asking", async () => {
    await start({ captcha: true, variant: "interleave" });
    const seen: string[] = [];
    const system = qz({
      captchaSolver: async (image, contentType) => {
        seen.push(`${contentType}:${image.length}`);
        return [...fake!.state.captchas.values()].at(-1)!;
      },
    });
    expect((await system.login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password)).ok).toBe(true);
    expect(seen).toEqual(["image/gif:34"]);
  });

  it("maps an unreachable school to unavailable and a slow one to timeout", async () => {
    const closed = await startFakeQiangzhi();
    const url = closed.baseUrl;
    await closed.close();
    expect(await createQiangzhiSystem({ baseUrl: url, outbound: allowFake(url) }).login("x", "y")).toEqual({ ok: false, failure: { kind: "unavailable" } });
    await start({ slowMs: 1_000 });
    expect(await qz({ timeoutMs: 200 }).login("x", "y")).toEqual({ ok: false, failure: { kind: "timeout" } });
  });

  it.each([
    ["用户名或密码错误", "wrong_password"],
    ["账号或密码不正确", "wrong_password"],
    ["密码错误", "wrong_password"],
    ["验证码错误!!", "captcha_required"],
    ["该账号已被锁定", "account_locked"],
    ["用户不存在", "account_missing"],
    ["系统维护中", "failed"],
  ])("maps '%s' to %s", (text, kind) => {
    expect(failureFromError(text)).toEqual({ kind, schoolMessage: text });
  });
});

describe("QiangZhi encoded", () => {
  it("variant A is base64 of each part", () => {
    expect(encodeBase64("2023", "pa%ss")).toBe("MjAyMw==%%%cGElc3M=");
  });

  it("variant B interleaves the first 20 characters with scode by the digits of sxh", () => {
    expect(encodeInterleaved("ab", "cd", "XYZW", "1201")).toBe("aXbYZ%%W%cd");
    // Beyond 20 characters the rest follows as it is.
    const encoded = encodeInterleaved("123456789012345", "secret-password", "S".repeat(20), "1".repeat(20));
    expect(encoded).toBe(`${[..."123456789012345%%%se"].map((c) => `${c}S`).join("")}cret-password`);
  });

  it("reads scode#sxh plain or wrapped in JSON", () => {
    expect(parseSess("abcDEF12#1231")).toEqual({ scode: "abcDEF12", sxh: "1231" });
    expect(parseSess('{"flag":"1","data":"abc#12"}')).toEqual({ scode: "abc", sxh: "12" });
    expect(parseSess("<html>404</html>")).toBeNull();
  });
});

describe("QiangZhi timetable and terms", () => {
  async function timetableOf(term: string, options: FakeQiangzhiOptions = {}): Promise<Timetable> {
    await start(options);
    const result = await qz().timetable(await loggedIn(), term);
    if (isSessionExpired(result)) throw new Error("expired");
    return result;
  }

  it("reads name, teacher, room, weekday, periods and weeks from table#kbtable", async () => {
    const { courses } = await timetableOf("2025-2026-1");
    expect(courses.map((c) => [c.name, c.weekday, c.startPeriod, c.endPeriod, c.weeksText])).toEqual([
      // Two adjacent blocks of the same course become one.
      ["数据结构", 1, 1, 4, "1-16周"],
      // Two courses in one cell, separated by the line of dashes.
      ["形势与政策", 3, 5, 6, "1-15周(单)"],
      ["心理健康", 3, 5, 6, "2-16周(双)"],
      ["大学物理实验", 5, 3, 4, "1-3,6,11-12周"],
      ["篮球", 7, 1, 2, "1-12周"],
    ]);
    expect(courses[0]).toMatchObject({ teacher: "王建华", location: "明德楼A301" });
    expect(courses.find((c) => c.name === "大学物理实验")).toMatchObject({ weeks: [1, 2, 3, 6, 11, 12], kind: "experiment" });
    expect(courses.find((c) => c.name === "形势与政策")!.weeks).toEqual([1, 3, 5, 7, 9, 11, 13, 15]);
  });

  it("reads the weekday from the header when Sunday comes first", async () => {
    const { courses } = await timetableOf("2025-2026-1", { sundayFirst: true });
    expect(courses.find((c) => c.name === "篮球")!.weekday).toBe(7);
    expect(courses.find((c) => c.name === "数据结构")!.weekday).toBe(1);
  });

  it("asks for another term by xnxq01id", async () => {
    const { courses } = await timetableOf("2024-2025-2");
    expect(courses.map((c) => c.name)).toEqual(["线性代数"]);
  });

  it("reads the current term and the list from select[name=xnxq01id]", async () => {
    await start({ currentTerm: "2025-2026-1" });
    const info = await qz({ week1Starts: { "2025-2026-1": "2025-09-08" } }).termInfo(await loggedIn());
    expect(info.currentTerm).toBe("2025-2026-1");
    expect(info.week1Start).toBe("2025-09-08");
    expect(info.terms[0]).toEqual({ code: "2025-2026-2", label: "2025-2026学年第2学期" });
    expect(info.terms.map((t) => t.code)).toContain("2022-2023-1");
  });

  it("reports the expired session on every page", async () => {
    await start();
    const session = await loggedIn();
    fake!.state.sessions.clear();
    expect(await qz().timetable(session, "2025-2026-1")).toEqual({ sessionExpired: true });
    expect(await qz().grades(session)).toEqual({ sessionExpired: true });
    expect(await qz().exams(session, "2025-2026-1")).toEqual({ sessionExpired: true });
    await expect(qz().termInfo(session)).rejects.toMatchObject({ kind: "session_expired" });
    await expect(qz().termInfo(session)).rejects.toBeInstanceOf(AcademicSystemError);
  });

  it.each([
    ["1-16(周)", "1-16周"],
    ["1-15(单周)", "1-15周(单)"],
    ["2-16(双周)", "2-16周(双)"],
    ["1-3,6,11-12(周)", "1-3,6,11-12周"],
    ["", ""],
  ])("weeks '%s' → '%s'", (text, expected) => {
    expect(weeksTextOf(text)).toBe(expected);
  });
});

describe("QiangZhi grades and exams", () => {
  it("reads the grade table by its header names", async () => {
    await start();
    const result = await qz().grades(await loggedIn());
    if (isSessionExpired(result)) throw new Error("expired");
    expect(result.ranking).toBeNull();
    expect(result.grades).toHaveLength(6);
    expect(result.grades[1]).toEqual({
      term: "2024-2025-1",
      course: "大学英语(一)",
      courseCode: "B1002",
      credit: 3,
      score: "良好",
      schoolPoint: 3.5,
      courseType: "required",
      examKind: "normal",
    });
    expect(result.grades.find((g) => g.course === "摄影基础")).toMatchObject({ courseType: "elective", schoolPoint: null });
    expect(result.grades[3]).toMatchObject({ examKind: "makeup", courseCode: "B1001" });
    // 高数 补考 (5 × 1), 英语 (3 × 3.5), 摄影 (2 × 4 from the table), 数据结构 (4 × 3.6); 军事理论 has no credit.
    expect(summariseGrades(result.grades).overall).toBe(Math.round(((5 + 10.5 + 8 + 14.4) / 14) * 100) / 100);
  });

  it("reads exams with date, time, room and seat", async () => {
    await start();
    const result = await qz().exams(await loggedIn(), "2025-2026-1");
    if (isSessionExpired(result)) throw new Error("expired");
    expect(result.exams[0]).toEqual({
      term: "2025-2026-1",
      course: "数据结构",
      date: "2026-01-10",
      start: "09:00",
      end: "11:00",
      place: "明德楼A301",
      seat: "18",
      kind: "2025-2026-1期末考试",
      campus: "本部",
    });
    const none = await qz().exams(await loggedIn(), "2024-2025-1");
    expect(isSessionExpired(none) ? null : none.exams).toEqual([]);
  });

  it("is chosen by the school's system kind", async () => {
    await start();
    const system = createAcademicSystem({ code: "qz", name: "强智大学", system: "qiangzhi", baseUrl: fake!.baseUrl }, { outbound: allowFake(fake!.baseUrl) });
    expect((await system.login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password)).ok).toBe(true);
    expect(() => createAcademicSystem({ code: "qz", name: "强智大学", system: "qiangzhi" })).toThrow(/baseUrl/);
  });
});
