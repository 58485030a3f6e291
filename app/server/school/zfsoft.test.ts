import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allowFake } from "../../../tests/fakes/allow";
import { FAKE_STUDENT, startFakeZfsoft, type FakeZfsoft } from "../../../tests/fakes/zfsoft-server";
import { createAcademicSystem } from "./index.server";
import { AcademicSystemError, isSessionExpired, type AcademicSession, type Timetable } from "./types";
import {
  IMAGE_CAPTCHA_MESSAGE,
  SLIDER_CAPTCHA_MESSAGE,
  createZfsoftSystem,
  failureFromTips,
  fromZfsoftTerm,
  parseSjkList,
  toZfsoftTerm,
  type ZfsoftOptions,
} from "./zfsoft.server";

// Mid-October 2025: the profile lookup after login asks for term 2025-2026-1.
const OCTOBER_2025 = () => new Date("2025-10-15T02:00:00Z");

let fake: FakeZfsoft;
beforeEach(async () => {
  fake = await startFakeZfsoft();
});
afterEach(async () => {
  await fake.close();
});

const zfsoft = (opts: Partial<ZfsoftOptions> = {}) =>
  createZfsoftSystem({ baseUrl: fake.baseUrl, now: OCTOBER_2025, timeoutMs: 5_000, outbound: allowFake(fake.baseUrl), ...opts });

async function loggedIn(): Promise<AcademicSession> {
  const result = await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
  if (!result.ok) throw new Error(`login failed: ${result.failure.kind}`);
  return result.session;
}

async function timetableOf(term: string): Promise<Timetable> {
  const result = await zfsoft().timetable(await loggedIn(), term);
  if (isSessionExpired(result)) throw new Error("session expired");
  return result;
}

describe("ZFsoft login", () => {
  it("logs in with the RSA-encrypted password and reads the profile", async () => {
    const result = await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toMatchObject({
      ok: true,
      profile: { name: "王小明", className: "软件工程2301班", college: "信息工程学院" },
      session: { system: "zfsoft", studentId: FAKE_STUDENT.id },
    });
    if (!result.ok) return;
    // The session holds the id the server rotated to on login, not the pre-login one.
    expect(fake.state.sessions.get(result.session.data.JSESSIONID)).toBe(FAKE_STUDENT.id);
    expect(result.session.data.route).toBeTruthy();
    expect(JSON.parse(JSON.stringify(result.session))).toEqual(result.session);
  });

  it("never sends the password in clear", async () => {
    await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(fake.state.loginBodies).toHaveLength(1);
    const body = fake.state.loginBodies[0];
    expect(body).not.toContain(FAKE_STUDENT.password);
    expect(body).not.toContain(encodeURIComponent(FAKE_STUDENT.password));
    expect(new URLSearchParams(body).get("yhm")).toBe(FAKE_STUDENT.id);
  });

  it("works for a school deployed at the root", async () => {
    const rootFake = await startFakeZfsoft({ basePath: "" });
    try {
      const result = await createZfsoftSystem({ baseUrl: `${rootFake.baseUrl}/`, now: OCTOBER_2025, outbound: allowFake(rootFake.baseUrl) }).login(
        FAKE_STUDENT.id,
        FAKE_STUDENT.password,
      );
      expect(result.ok).toBe(true);
    } finally {
      await rootFake.close();
    }
  });

  it.each([
    ["a wrong password", FAKE_STUDENT.id, "not-the-password"],
    // ZFsoft answers the same tip for an unknown account.
    ["an unknown account", "2099999999", FAKE_STUDENT.password],
  ])("maps %s to wrong_password with the school's tip", async (_, id, password) => {
    const result = await zfsoft().login(id, password);
    expect(result).toEqual({
      ok: false,
      failure: { kind: "wrong_password", schoolMessage: "用户名或密码不正确，请重新输入！" },
    });
  });

  it("maps a locked account", async () => {
    fake.state.mode = "locked";
    const result = await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toEqual({ ok: false, failure: { kind: "account_locked", schoolMessage: "账号已被锁定" } });
  });

  it.each<[string, string]>([
    ["用户名不存在", "account_missing"],
    ["验证码输入错误", "captcha_required"],
    ["您的账号已被锁定，请30分钟后再试", "account_locked"],
    ["当前时段不允许登录，请联系教务处", "failed"],
  ])("maps the tip %j to %s, keeping the school's words", async (tips, kind) => {
    fake.state.tipsOverride = tips;
    const result = await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toEqual({ ok: false, failure: { kind, schoolMessage: tips } });
  });

  it("reports an image captcha as captcha_required without posting the password", async () => {
    fake.state.mode = "captcha";
    const result = await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toEqual({
      ok: false,
      failure: { kind: "captcha_required", schoolMessage: IMAGE_CAPTCHA_MESSAGE },
    });
    expect(fake.state.loginBodies).toHaveLength(0);
  });

  it("reports the slider captcha as unsupported, clearly", async () => {
    fake.state.mode = "slider";
    const result = await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toEqual({
      ok: false,
      failure: { kind: "captcha_required", schoolMessage: SLIDER_CAPTCHA_MESSAGE },
    });
  });

  it.each(["down", "error503"] as const)("maps a school system that is %s to unavailable", async (mode) => {
    fake.state.mode = mode;
    const result = await zfsoft().login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toEqual({ ok: false, failure: { kind: "unavailable" } });
  });

  it("maps a closed port to unavailable", async () => {
    const { baseUrl } = fake;
    await fake.close();
    fake = await startFakeZfsoft(); // afterEach closes this one
    const result = await createZfsoftSystem({ baseUrl, outbound: allowFake(baseUrl) }).login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toEqual({ ok: false, failure: { kind: "unavailable" } });
  });

  it("maps a slow school to timeout after timeoutMs", async () => {
    fake.state.mode = "slow";
    const started = Date.now();
    const result = await zfsoft({ timeoutMs: 200 }).login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toEqual({ ok: false, failure: { kind: "timeout" } });
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe("ZFsoft timetable", () => {
  it("parses courses with teacher, room, weekday, periods and weeks", async () => {
    const { term, courses } = await timetableOf("2025-2026-1");
    expect(term).toBe("2025-2026-1");
    expect(courses.find((c) => c.name === "高等数学A(上)" && c.weekday === 1)).toEqual({
      name: "高等数学A(上)",
      teacher: "陈建国",
      location: "南教1-201",
      weekday: 1,
      startPeriod: 1,
      endPeriod: 2,
      weeks: Array.from({ length: 16 }, (_, i) => i + 1),
      weeksText: "1-16周",
      kind: "normal",
    });
    // Sorted by weekday then period.
    const order = courses.map((c) => c.weekday * 100 + c.startPeriod);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("keeps odd and even weeks and non-consecutive week lists", async () => {
    const { courses } = await timetableOf("2025-2026-1");
    const byName = (name: string) => courses.find((c) => c.name === name)!;
    expect(byName("线性代数").weeks).toEqual([1, 3, 5, 7, 9, 11, 13, 15]);
    expect(byName("大学物理实验").weeks).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
    expect(byName("大学英语(一)").weeks).not.toContain(9);
    expect(byName("大学英语(一)").weeks).toHaveLength(15);
    expect(byName("中国近现代史纲要").weeks).toEqual([1, 3, 5, 6, 7, 8, 9]);
    expect(byName("体育(篮球)").weekday).toBe(6);
  });

  it("marks experiment courses", async () => {
    const { courses } = await timetableOf("2025-2026-1");
    expect(courses.filter((c) => c.kind === "experiment").map((c) => c.name)).toEqual(["大学物理实验"]);
  });

  it("merges the same course's adjacent blocks but keeps separate days apart", async () => {
    const { courses } = await timetableOf("2025-2026-1");
    const programming = courses.filter((c) => c.name === "程序设计基础");
    expect(programming).toHaveLength(1);
    expect(programming[0]).toMatchObject({ weekday: 2, startPeriod: 5, endPeriod: 8 });
    expect(courses.filter((c) => c.name === "高等数学A(上)").map((c) => c.weekday)).toEqual([1, 3]);
  });

  it("keeps two courses sharing a cell in alternate weeks", async () => {
    const { courses } = await timetableOf("2025-2026-1");
    const cell = courses.filter((c) => c.weekday === 5 && c.startPeriod === 9);
    expect(cell.map((c) => [c.name, c.weeksText])).toEqual([
      ["形势与政策", "1-7周(单)"],
      ["心理健康教育", "2-8周(双)"],
    ]);
  });

  it("turns sjkList rows into practice notes", async () => {
    const { notes } = await timetableOf("2025-2026-1");
    expect(notes).toEqual([
      {
        name: "公益劳动白利波",
        teacher: "",
        location: "",
        weeks: [1],
        description: "公益劳动白利波(共1周)/1周",
      },
      {
        name: "金工实习",
        teacher: "马强",
        location: "",
        weeks: [19, 20],
        description: "金工实习马强(共2周)/19-20周",
      },
    ]);
  });

  it("asks for the second term with xqm 12", async () => {
    const { courses, notes } = await timetableOf("2024-2025-2");
    expect(courses.map((c) => c.name)).toEqual(["大学计算机基础", "思想道德与法治"]);
    expect(notes.map((n) => [n.name, n.weeks])).toEqual([["军事训练李海", [1, 2, 3]]]);
  });

  it("answers an empty timetable for a term without courses", async () => {
    expect(await timetableOf("2019-2020-2")).toEqual({ term: "2019-2020-2", courses: [], notes: [] });
  });

  it("reports an expired school session", async () => {
    const session = await loggedIn();
    fake.state.sessions.clear();
    expect(await zfsoft().timetable(session, "2025-2026-1")).toEqual({ sessionExpired: true });
  });

  it("rejects an invalid term code", async () => {
    await expect(zfsoft().timetable(await loggedIn(), "2025-1")).rejects.toThrow(RangeError);
  });

  it.each([
    ["down", "unavailable"],
    ["error503", "unavailable"],
    ["slow", "timeout"],
  ] as const)("throws %s as an AcademicSystemError of kind %s", async (mode, kind) => {
    const session = await loggedIn();
    fake.state.mode = mode;
    const error = await zfsoft({ timeoutMs: 200 })
      .timetable(session, "2025-2026-1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AcademicSystemError);
    expect((error as AcademicSystemError).kind).toBe(kind);
  });
});

describe("ZFsoft term info", () => {
  it("reads the selected term and the term list from the selectors", async () => {
    const info = await zfsoft().termInfo(await loggedIn());
    expect(info.currentTerm).toBe("2025-2026-1");
    expect(info.week1Start).toBe("2025-09-01");
    expect(info.terms).toHaveLength(12);
    expect(info.terms.slice(0, 4)).toEqual([
      { code: "2025-2026-3", label: "2025-2026学年第3学期" },
      { code: "2025-2026-2", label: "2025-2026学年第2学期" },
      { code: "2025-2026-1", label: "2025-2026学年第1学期" },
      { code: "2024-2025-3", label: "2024-2025学年第3学期" },
    ]);
  });

  it("uses the week-1 date from the school's configuration when it has one", async () => {
    const system = createAcademicSystem({
      code: "zf-test",
      name: "测试大学",
      system: "zfsoft",
      baseUrl: fake.baseUrl,
      week1Starts: { "2025-2026-1": "2025-09-08" },
    }, { outbound: allowFake(fake.baseUrl) });
    const info = await system.termInfo(await loggedIn());
    expect(info.week1Start).toBe("2025-09-08");
  });

  it("throws session_expired when the school's session is gone", async () => {
    const session = await loggedIn();
    fake.state.sessions.clear();
    const error = await zfsoft()
      .termInfo(session)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AcademicSystemError);
    expect((error as AcademicSystemError).kind).toBe("session_expired");
  });
});

describe("ZFsoft pure helpers", () => {
  it.each<[string, string, string]>([
    ["2025-2026-1", "2025", "3"],
    ["2025-2026-2", "2025", "12"],
    ["2025-2026-3", "2025", "16"],
  ])("term %s ↔ xnm %s xqm %s", (code, xnm, xqm) => {
    expect(toZfsoftTerm(code)).toEqual({ xnm, xqm });
    expect(fromZfsoftTerm(xnm, xqm)).toBe(code);
  });

  it("refuses unknown term codes", () => {
    expect(() => toZfsoftTerm("2025-2026-4")).toThrow(RangeError);
    expect(fromZfsoftTerm("2025", "1")).toBeNull();
  });

  it.each<[string, string]>([
    ["用户名或密码不正确，请重新输入！", "wrong_password"],
    ["密码错误", "wrong_password"],
    ["验证码不正确", "captcha_required"],
    ["用户名不存在", "account_missing"],
    ["密码错误次数过多，账号已锁定", "account_locked"],
    ["系统维护中", "failed"],
  ])("tip %j → %s", (tips, kind) => {
    expect(failureFromTips(tips)).toEqual({ kind, schoolMessage: tips });
  });

  it("reads practice notes with only partial fields", () => {
    expect(
      parseSjkList([{ qtkcgs: "毕业实习张三(共4周)/13-16周" }, { kcmc: "课程设计", qsjsz: "17周" }, {}, "x"]),
    ).toEqual([
      { name: "毕业实习张三", teacher: "", location: "", weeks: [13, 14, 15, 16], description: "毕业实习张三(共4周)/13-16周" },
      { name: "课程设计", teacher: "", location: "", weeks: [17], description: "" },
    ]);
  });

  it("needs a base URL for a ZFsoft school", () => {
    expect(() => createAcademicSystem({ code: "x", name: "x", system: "zfsoft" })).toThrow(/baseUrl/);
  });

  it("calls a school on loopback only when its exact host:port is allow-listed", async () => {
    const school = { code: "zf", name: "测试大学", system: "zfsoft" as const, baseUrl: fake.baseUrl };
    expect(await createAcademicSystem(school).login(FAKE_STUDENT.id, FAKE_STUDENT.password)).toEqual({ ok: false, failure: { kind: "unavailable" } });
    expect(fake.state.requests).toEqual([]);
    const allowed = await createAcademicSystem(school, { outbound: allowFake(fake.baseUrl) }).login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(allowed.ok).toBe(true);
    expect(fake.state.requests[0]).toBe("GET /jwglxt/xtgl/login_slogin.html");
  });
});
