import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { action as loginAction, loader as loginLoader } from "~/routes/crLogin";
import { action as scheduleInitAction } from "~/routes/info.schedule_init";
import { action as scheduleAction, loader as scheduleLoader } from "~/routes/schedule._index/route";
import { getUser, lookupSession } from "~/server/auth/session.server";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { hostOf } from "../../../tests/fakes/allow";
import { startFakeZfsoft, type FakeStudent, type FakeZfsoft } from "../../../tests/fakes/zfsoft-server";
import { cookieValue, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { domainErrorAnswer } from "~/server/http/remix";
import { StoredCredentialsRejected } from "~/server/school/types";
import { loadTermInfo, loadTimetable } from "./timetable.server";

// A ZFsoft school on a fake server: its current term is 2025-2026-1 (xnm 2025, xqm 3), whose
// timetable starts with 高等数学A(上) on Monday morning.
const TERM = "2025-2026-1";
const DAY = 24 * 60 * 60 * 1000;
const student: FakeStudent = { id: "2023880001", password: "Zf@cache1", name: "钱多多", className: "软件2302班", college: "软件学院" };
let fake: FakeZfsoft;

beforeAll(async () => {
  process.env.CAPTCHA_FIXED_VALUE = "AB23";
  process.env.ACADEMIC_TIMEOUT_MS = "2000";
  resetConfig();
  fake = await startFakeZfsoft({ students: [student] });
  // The fake listens on loopback: name it to the outbound client.
  process.env.OUTBOUND_ALLOW_HOSTS = hostOf(fake.baseUrl);
  resetConfig();
  await db().insertInto("schools").values({ code: "zf", name: "正方缓存大学", system: "zfsoft", base_url: fake.baseUrl, sort_order: 1, enabled: 1 }).execute();
});

afterAll(async () => {
  delete process.env.ACADEMIC_TIMEOUT_MS;
  await fake.close();
});

beforeEach(async () => {
  fake.state.mode = "ok";
  fake.state.tipsOverride = null;
  student.password = "Zf@cache1";
  await db().deleteFrom("timetable_cache").execute();
  await db().deleteFrom("school_term_info").execute();
});

/** A real login through the login page: stores the sealed password and the school's session. */
async function login() {
  const data = (await loginLoader({ request: request("/crLogin"), params: {}, context: {} })) as { captcha: { id: string } };
  const body = new URLSearchParams({ school: "zf", studentId: student.id, password: student.password, captcha: "AB23", captchaId: data.captcha.id });
  const response = (await loginAction({ request: request("/crLogin", { method: "POST", body }), params: {}, context: { clientIp: "192.0.2.44" } })) as Response;
  expect(response.status).toBe(302);
  const cookie = cookieValue(response.headers.get("Set-Cookie")!);
  return { cookie, user: (await getUser(request("/", { cookie })))! };
}

const timetableRequests = () => fake.state.requests.filter((line) => line.endsWith("/kbcx/xskbcx_cxXsgrkb.html")).length;

async function cacheRows(userId: number) {
  return db().selectFrom("timetable_cache").selectAll().where("user_id", "=", userId).execute();
}

describe("the timetable cache", () => {
  it("fetches on a miss, stores it per user and term, and serves it from the cache for 7 days", async () => {
    const { user } = await login();
    const before = timetableRequests();
    const first = await loadTimetable(user, TERM);
    expect(first.source).toBe("fresh");
    expect(first.timetable!.courses.map((c) => c.name)).toContain("高等数学A(上)");
    expect(timetableRequests()).toBe(before + 1);
    const rows = await cacheRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ term: TERM, fetched_at: first.fetchedAt });

    const sixDaysLater = new Date(Date.now() + 6 * DAY);
    const hit = await loadTimetable(user, TERM, { now: sixDaysLater });
    expect(hit).toMatchObject({ source: "cache", fetchedAt: first.fetchedAt, failure: null });
    expect(hit.timetable).toEqual(first.timetable);
    expect(timetableRequests()).toBe(before + 1);
  });

  it("fetches again once the copy is 7 days old", async () => {
    const { user } = await login();
    const first = await loadTimetable(user, TERM);
    const before = timetableRequests();
    const weekLater = new Date(new Date(first.fetchedAt!).getTime() + 7 * DAY);
    const again = await loadTimetable(user, TERM, { now: weekLater });
    expect(again.source).toBe("fresh");
    expect(again.fetchedAt).toBe(weekLater.toISOString());
    expect(timetableRequests()).toBe(before + 1);
    expect(await cacheRows(user.id)).toHaveLength(1);
  });

  it("keeps terms apart", async () => {
    const { user } = await login();
    await loadTimetable(user, TERM);
    const spring = await loadTimetable(user, "2024-2025-2");
    expect(spring.timetable!.courses.map((c) => c.name)).toEqual(["大学计算机基础", "思想道德与法治"]);
    expect((await cacheRows(user.id)).map((row) => row.term).sort()).toEqual(["2024-2025-2", TERM]);
  });

  it("refresh bypasses a fresh cache and replaces it", async () => {
    const { cookie, user } = await login();
    await loadTimetable(user, TERM);
    await db().updateTable("timetable_cache").set({ data: JSON.stringify({ term: TERM, courses: [], notes: [] }) }).where("user_id", "=", user.id).execute();
    expect((await loadTimetable(user, TERM)).timetable!.courses).toEqual([]);

    const before = timetableRequests();
    const body = new URLSearchParams({ intent: "refresh", term: TERM, week: "3" });
    const response = (await scheduleAction({ request: request("/schedule?index", { method: "POST", body, cookie }), params: {}, context: {} })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/schedule?term=${TERM}&week=3&notice=synced`);
    expect(timetableRequests()).toBe(before + 1);
    const [row] = await cacheRows(user.id);
    expect(JSON.parse(row.data).courses.length).toBeGreaterThan(5);
  });

  it("serves the cached copy with its age when the school's system is down", async () => {
    const { user } = await login();
    const first = await loadTimetable(user, TERM);
    fake.state.mode = "down";
    const tenDaysLater = new Date(new Date(first.fetchedAt!).getTime() + 10 * DAY);
    const stale = await loadTimetable(user, TERM, { now: tenDaysLater });
    expect(stale).toMatchObject({ source: "stale", fetchedAt: first.fetchedAt, failure: { reason: "failed", what: "timetable", schoolMessage: null } });
    expect(stale.timetable).toEqual(first.timetable);
    // The copy stays for next time.
    expect(await cacheRows(user.id)).toHaveLength(1);
  });

  it("a failed refresh keeps the page usable and says why", async () => {
    const { cookie, user } = await login();
    await loadTimetable(user, TERM);
    fake.state.mode = "error503";
    const body = new URLSearchParams({ intent: "refresh", term: TERM, week: "3" });
    const response = (await scheduleAction({ request: request("/schedule?index", { method: "POST", body, cookie }), params: {}, context: {} })) as Response;
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ intent: "refresh", error: msg.schedule.loadFailed });
    expect(await cacheRows(user.id)).toHaveLength(1);
  });

  it("shows '加载课表失败，请稍后重试' with no cache and the school down", async () => {
    const { cookie, user } = await login();
    fake.state.mode = "down";
    expect(await loadTimetable(user, TERM)).toEqual({ timetable: null, fetchedAt: null, source: "none", failure: { reason: "failed", what: "timetable", schoolMessage: null } });
    const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=3`, { cookie }), params: {}, context: {} });
    expect(view).toMatchObject({ loaded: false, error: "加载课表失败，请稍后重试", errorKind: "failed" });
  });

  it("passes on the school's own reason: '获取课表失败: …'", async () => {
    const { cookie, user } = await login();
    fake.state.sessions.clear(); // the school's session expired: a silent re-login is needed
    fake.state.tipsOverride = "系统维护中，请稍后再试";
    const load = await loadTimetable(user, TERM);
    expect(load.failure).toEqual({ reason: "failed", what: "timetable", schoolMessage: "系统维护中，请稍后再试" });
    const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=3`, { cookie }), params: {}, context: {} });
    expect(view).toMatchObject({ error: "获取课表失败: 系统维护中，请稍后再试", errorKind: "failed" });
  });

  it("invalid credentials clear the cache and send the student to login with the reason", async () => {
    const { cookie, user } = await login();
    await loadTimetable(user, TERM);
    await loadTimetable(user, "2024-2025-2");
    expect(await cacheRows(user.id)).toHaveLength(2);

    fake.state.sessions.clear();
    student.password = "Changed@pass9";
    const url = `/schedule?term=${TERM}&week=3`;
    const thrown = await scheduleLoader({ request: request(url, { cookie }), params: {}, context: {} }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(StoredCredentialsRejected);
    // Every loader's errors reach the browser through the HTTP layer's answer (guardedBuild).
    expect((domainErrorAnswer(thrown) as Response).headers.get("Location")).toBe(`/crLogin?redirectTo=${encodeURIComponent(url)}&reason=credentials`);
    expect(await cacheRows(user.id)).toHaveLength(0);
    expect(await lookupSession(request("/", { cookie }))).toEqual({ state: "ended", reason: "credentials_invalid" });
  });

  it("an expired copy that cannot be renewed for bad credentials is cleared too", async () => {
    const { user } = await login();
    await loadTimetable(user, TERM);
    fake.state.sessions.clear();
    student.password = "Changed@pass8";
    const eightDaysLater = new Date(Date.now() + 8 * DAY);
    const thrown = await loadTimetable(user, TERM, { now: eightDaysLater, returnTo: "/schedule" }).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ name: "StoredCredentialsRejected", returnTo: "/schedule" });
    expect(await cacheRows(user.id)).toHaveLength(0);
  });

  it("without stored credentials says '缺少登录凭据，请重新登录' and still shows a cached copy", async () => {
    const user = await createStudent({ school_code: "zf", password_enc: null });
    expect(await loadTimetable(user, TERM)).toMatchObject({ timetable: null, failure: { reason: "credentials_missing" } });
    await db().insertInto("timetable_cache").values({ user_id: user.id, term: TERM, data: JSON.stringify({ term: TERM, courses: [], notes: [] }), fetched_at: new Date(Date.now() - 9 * DAY).toISOString() }).execute();
    expect(await loadTimetable(user, TERM)).toMatchObject({ source: "stale", failure: { reason: "credentials_missing" } });
    const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=3`, { cookie: await sessionCookieFor(user.id) }), params: {}, context: {} });
    expect(view).toMatchObject({ loaded: true, error: "缺少登录凭据，请重新登录", errorKind: "credentials_missing" });
  });

  it("'重新登录' ends the session and opens the login page", async () => {
    const user = await createStudent({ school_code: "zf", password_enc: null });
    const cookie = await sessionCookieFor(user.id);
    const body = new URLSearchParams({ intent: "relogin", term: TERM, week: "4" });
    const response = (await scheduleAction({ request: request("/schedule?index", { method: "POST", body, cookie }), params: {}, context: {} })) as Response;
    expect(response.headers.get("Location")).toBe(`/crLogin?redirectTo=${encodeURIComponent(`/schedule?term=${TERM}&week=4`)}`);
    expect(await lookupSession(request("/", { cookie }))).toEqual({ state: "ended", reason: "logout" });
  });
});

describe("the school's term information", () => {
  it("is asked of the school once a day and shared by its students", async () => {
    const { user } = await login();
    const first = await loadTermInfo(user);
    expect(first.source).toBe("fresh");
    expect(first.info.currentTerm).toBe(TERM);
    expect(first.info.terms.map((t) => t.code)).toContain(TERM);
    expect((await loadTermInfo(user, { now: new Date(Date.now() + 23 * 60 * 60 * 1000) })).source).toBe("cache");
    expect((await loadTermInfo(user, { now: new Date(Date.now() + 25 * 60 * 60 * 1000) })).source).toBe("fresh");
  });

  it("falls back to the product rules' default term when it was never loaded and the school is down", async () => {
    const { user } = await login();
    fake.state.mode = "down";
    const result = await loadTermInfo(user);
    expect(result.source).toBe("fallback");
    expect(result.info.currentTerm).toBe("2025-2026-1");
    expect(result.info.week1Start).toBe("2025-09-01");
    expect(result.info.terms.map((t) => t.code)).toEqual(["2025-2026-2", "2025-2026-1", "2024-2025-2", "2024-2025-1"]);
  });

  it("keeps the last known term information when the school is down later", async () => {
    const { user } = await login();
    await loadTermInfo(user);
    fake.state.mode = "down";
    const result = await loadTermInfo(user, { now: new Date(Date.now() + 2 * DAY) });
    expect(result.source).toBe("stale");
    expect(result.info.currentTerm).toBe(TERM);
  });

  it("the term summary counts the week's class periods (节), not its courses", async () => {
    const { cookie } = await login();
    const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=1`, { cookie }), params: {}, context: {} });
    expect(view.courses.length).toBeGreaterThan(0);
    const periods = view.courses.reduce((sum, course) => {
      const [first, last = first] = course.period.split("-").map(Number);
      return sum + last! - first! + 1;
    }, 0);
    expect(view.weekPeriods).toBe(periods);
    expect(view.weekPeriods).toBeGreaterThan(view.courses.length);
  });

  it("the page says so and still shows the default term's week", async () => {
    const { cookie } = await login();
    fake.state.mode = "down";
    const view = await scheduleLoader({ request: request("/schedule", { cookie }), params: {}, context: {} });
    expect(view.termFallback).toBe(true);
    expect(view.term.code).toBe("2025-2026-1");
    expect(view.week1Start).toBe("2025-09-01");
    expect(view.week).toBe(26); // 2025-09-01 is long past: clamped to the last week
    expect(view.error).toBe(msg.schedule.loadFailed);
  });
});

describe("POST /info/schedule_init", () => {
  const init = (body: BodyInit, type = "application/json") =>
    scheduleInitAction({ request: request("/info/schedule_init", { method: "POST", body, headers: { "Content-Type": type } }), params: {}, context: {} }) as Promise<Response>;

  it("answers the product rules' default until the school's system has answered, then what it said", async () => {
    const before = await (await init(JSON.stringify({ school_code: "zf" }))).json();
    expect(before.data).toMatchObject({ current_semester: "2025-2026-1", school_start_date: "2025-09-01", fallback: true });
    expect(before.data.week_list).toHaveLength(26);
    expect(before.data.week_list[0]).toEqual({ value: 1, label: "第1周" });

    const { user } = await login();
    await loadTermInfo(user);
    const after = await (await init(new URLSearchParams({ school_code: "zf" }), "application/x-www-form-urlencoded")).json();
    expect(after).toMatchObject({ success: true, data: { school_code: "zf", current_semester: TERM, fallback: false } });
    expect(after.data.semester_list).toContainEqual({ value: TERM, label: "2025-2026学年第1学期" });
  });

  it("refuses a missing or unknown school", async () => {
    expect((await init(JSON.stringify({}))).status).toBe(400);
    expect((await init("not json")).status).toBe(400);
    const unknown = await init(JSON.stringify({ school_code: "nope" }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ success: false, message: msg.login.unknownSchool });
  });
});
