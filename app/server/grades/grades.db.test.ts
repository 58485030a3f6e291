import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as msg from "~/lib/messages";
import { action as loginAction, loader as loginLoader } from "~/routes/crLogin";
import { action as examsAction, loader as examsLoader } from "~/routes/backpack.exams/route";
import { examsView } from "~/routes/backpack.exams/exams-page.server";
import { action as gradesAction, loader as gradesLoader } from "~/routes/backpack.grades/route";
import type { GradesView } from "~/routes/backpack.grades/grades-page.server";
import { loader as pointsLoader } from "~/routes/backpack.points";
import { getUser } from "~/server/auth/session.server";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { hostOf } from "../../../tests/fakes/allow";
import { FAKE_QZ_STUDENT, startFakeQiangzhi, type FakeQiangzhi } from "../../../tests/fakes/qiangzhi-server";
import { gradeRow, startFakeZfsoft, type FakeStudent, type FakeZfsoft } from "../../../tests/fakes/zfsoft-server";
import { cookieValue, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { captureLogs } from "../../../tests/setup/log-capture";
import { calendarFeed } from "../schedule/calendar.server";
import { loadTimetable } from "../schedule/timetable.server";
import { loadGrades } from "./grades.server";

const DAY = 24 * 60 * 60 * 1000;
const zfStudent: FakeStudent = { id: "2023990001", password: "Zf@grades1", name: "孙成绩" };
let zf: FakeZfsoft;
let qz: FakeQiangzhi;

beforeAll(async () => {
  process.env.CAPTCHA_FIXED_VALUE = "AB23";
  process.env.ACADEMIC_TIMEOUT_MS = "2000";
  resetConfig();
  zf = await startFakeZfsoft({ students: [zfStudent] });
  qz = await startFakeQiangzhi();
  // The fake listens on loopback: name it to the outbound client.
  process.env.OUTBOUND_ALLOW_HOSTS = `${hostOf(zf.baseUrl)},${hostOf(qz.baseUrl)}`;
  resetConfig();
  await db()
    .insertInto("schools")
    .values([
      { code: "zfg", name: "正方成绩大学", system: "zfsoft", base_url: zf.baseUrl, sort_order: 1, enabled: 1 },
      { code: "qzg", name: "强智成绩大学", system: "qiangzhi", base_url: qz.baseUrl, sort_order: 2, enabled: 1 },
    ])
    .execute();
});

afterAll(async () => {
  delete process.env.ACADEMIC_TIMEOUT_MS;
  await zf.close();
  await qz.close();
});

beforeEach(async () => {
  zf.state.mode = "ok";
  await db().deleteFrom("grades_cache").execute();
  await db().deleteFrom("exams_cache").execute();
  await db().deleteFrom("school_term_info").execute();
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function login(school: string, studentId: string, password: string) {
  const data = (await loginLoader({ request: request("/crLogin"), params: {}, context: {} })) as { captcha: { id: string } };
  const body = new URLSearchParams({ school, studentId, password, captcha: "AB23", captchaId: data.captcha.id });
  const response = (await loginAction({ request: request("/crLogin", { method: "POST", body }), params: {}, context: { clientIp: "192.0.2.77" } })) as Response;
  expect(response.status).toBe(302);
  const cookie = cookieValue(response.headers.get("Set-Cookie")!);
  return { cookie, user: (await getUser(request("/", { cookie })))! };
}

const loginZf = () => login("zfg", zfStudent.id, zfStudent.password);
const loginQz = () => login("qzg", FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password);

const gradesPage = async (cookie: string) => (await gradesLoader({ request: request("/backpack/grades", { cookie }), params: {}, context: {} })) as GradesView;
const gradeRequests = () => zf.state.requests.filter((line) => line.endsWith("/cjcx/cjcx_cxXsgrcj.html")).length;

function postGrades(cookie: string, fields: Record<string, string>) {
  return gradesAction({ request: request("/backpack/grades", { method: "POST", body: new URLSearchParams(fields), cookie }), params: {}, context: {} }) as Promise<Response>;
}

describe("the grades page on a ZFsoft school", () => {
  it("shows every term with the term, overall and 必修 GPA, says plainly there is no ranking, and caches a sealed copy", async () => {
    const { cookie, user } = await loginZf();
    const page = await gradesPage(cookie);
    expect(page).toMatchObject({ overall: "2.88", required: "2.96", credits: 19, ranking: null, error: null });
    expect(page.terms.map((term) => [term.term, term.gpa])).toEqual([
      // 线代 重修 3 × 3.3 + 程序 4 × 3.8
      ["2025-2026-1", "3.59"],
      // 高数 补考 5 × 1.0 + 书法 1 × 1.5 (线代's first attempt was replaced by its 重修)
      ["2024-2025-2", "1.08"],
      // 计算机 3 × 4.2 + 思修 3 × 3.5 (高数 replaced, 形势与政策 has no credit)
      ["2024-2025-1", "3.85"],
    ]);
    const firstTerm = page.terms[2].grades;
    expect(firstTerm.find((grade) => grade.course === "高等数学A(上)")).toMatchObject({ counts: false, replaced: true });
    expect(firstTerm.find((grade) => grade.course === "形势与政策")).toMatchObject({ counts: false, replaced: false });
    expect(page.chart.points.map((point) => point.value)).toEqual(["3.85", "1.08", "3.59"]);

    const row = await db().selectFrom("grades_cache").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.data_enc).not.toContain("大学计算机基础");
    expect(row.data_enc).not.toContain("4.2");
    // A second visit within 12 hours is served from the cache.
    const before = gradeRequests();
    expect((await gradesPage(cookie)).overall).toBe("2.88");
    expect(gradeRequests()).toBe(before);
  });

  it("refresh asks the school again; a new result writes an inbox item, and a template message only when opted in", async () => {
    const { cookie, user } = await loginZf();
    await db().updateTable("users").set({ openid: "oGradesOpenid000000000000001" }).where("id", "=", user.id).execute();
    await gradesPage(cookie);
    expect(await db().selectFrom("inbox_items").select("id").where("user_id", "=", user.id).execute()).toEqual([]);

    zf.state.grades.push(gradeRow("2025", "3", "数据结构", "4.0", "95", "4.50", "必修课"));
    const before = gradeRequests();
    const refreshed = await postGrades(cookie, { intent: "refresh" });
    expect(refreshed.status).toBe(302);
    expect(refreshed.headers.get("Location")).toBe("/backpack/grades?notice=synced");
    expect(gradeRequests()).toBe(before + 1);
    const inbox = await db().selectFrom("inbox_items").selectAll().where("user_id", "=", user.id).execute();
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ kind: "new_grades", link: "/backpack/grades" });
    expect(JSON.parse(inbox[0].data)).toEqual({ courses: "数据结构", count: 1 });
    // The inbox item names the course, never the score.
    expect(inbox[0].data).not.toContain("95");
    expect(await db().selectFrom("outbox_messages").select("id").where("user_id", "=", user.id).execute()).toEqual([]);

    const saved = await postGrades(cookie, { intent: "notify", notifyNewGrades: "on" });
    expect(saved.headers.get("Location")).toBe("/backpack/grades?notice=notifySaved#notify");
    expect((await gradesPage(cookie)).notifyNewGrades).toBe(true);
    zf.state.grades.push(gradeRow("2025", "3", "操作系统", "3.0", "88", "3.80", "必修课"));
    await postGrades(cookie, { intent: "refresh" });
    const outbox = await db().selectFrom("outbox_messages").selectAll().where("user_id", "=", user.id).execute();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ kind: "new_grades", template_key: "GRADE_RELEASED", channel: "template", link: "/backpack/grades" });
    expect(JSON.parse(outbox[0].data)).toMatchObject({ courses: "操作系统", count: "1 门" });
    expect(outbox[0].data).not.toContain("88");
    zf.state.grades.splice(-2);
  });

  it("shows the cached copy with its age when the school is down, and never logs a grade", async () => {
    const { cookie, user } = await loginZf();
    const first = await loadGrades(user);
    zf.state.mode = "down";
    const logs = captureLogs();
    const later = new Date(new Date(first.fetchedAt!).getTime() + 2 * DAY);
    const stale = await loadGrades(user, { now: later });
    expect(stale).toMatchObject({ source: "stale", fetchedAt: first.fetchedAt, failure: { reason: "failed", what: "grades", schoolMessage: null } });
    expect(stale.report).toEqual(first.report);
    const refused = await postGrades(cookie, { intent: "refresh" });
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ error: msg.grades.loadFailed });
    logs.restore();
    expect(logs.text()).toContain("grades-failed");
    for (const secret of ["大学计算机基础", "92", "4.2", zfStudent.password]) expect(logs.text()).not.toContain(secret);
  });

  it("an empty list of a term before the current one is history: the page is told so", async () => {
    const { user } = await loginZf();
    const now = { now: new Date("2026-01-09T02:00:00Z") };
    const past = await examsView(user, new URL("http://app/backpack/exams?term=2023-2024-1"), now);
    expect(past).toMatchObject({ term: { code: "2023-2024-1" }, pastTerm: true, exams: [] });
    expect((await examsView(user, new URL("http://app/backpack/exams"), now)).pastTerm).toBe(false);
  });

  it("lists the term's exams upcoming first with the days left, past ones marked", async () => {
    const { user } = await loginZf();
    const view = await examsView(user, new URL("http://app/backpack/exams"), { now: new Date("2026-01-09T02:00:00Z") });
    expect(view.term.code).toBe("2025-2026-1");
    expect(view.exams.map((exam) => [exam.course, exam.daysLeft, exam.past])).toEqual([
      ["高等数学A(下)", 3, false],
      ["大学物理实验", null, false],
      ["程序设计基础", -1, true],
    ]);
    expect(view.exams[0]).toMatchObject({ date: "2026-01-12", start: "09:00", end: "11:00", place: "南教1-201", seat: "23" });
  });

  it("a failed refresh of the exams answers 502 with the exams' failure, and the page still shows", async () => {
    const { cookie, user } = await loginZf();
    zf.state.mode = "down";
    const body = new URLSearchParams({ intent: "refresh", term: "2025-2026-1" });
    const refused = (await examsAction({ request: request("/backpack/exams", { method: "POST", body, cookie }), params: {}, context: {} })) as Response;
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ error: "加载考试安排失败，请稍后重试" });
    // The page: the school, down for the term information too, is told as the timetable's failure.
    const view = await examsView(user, new URL("http://app/backpack/exams?term=2025-2026-1"));
    expect(view).toMatchObject({ loaded: false, error: "加载课表失败，请稍后重试", errorKind: "failed" });
  });

  it("puts the exams into the calendar feed", async () => {
    const { user } = await loginZf();
    const ics = await calendarFeed(user, new Date("2026-01-09T02:00:00Z"));
    expect(ics).toContain("SUMMARY:【考试】高等数学A(下)");
    expect(ics).toContain("DTSTART;TZID=Asia/Shanghai:20260112T090000");
    expect(ics).toContain("LOCATION:南校区 南教1-201");
    // An exam without a time has no place in a calendar.
    expect(ics).not.toContain("【考试】大学物理实验");
  });
});

describe("the grades and exams pages on a QiangZhi school", () => {
  it("logs in, shows the timetable, the grades and the exams", async () => {
    const { cookie, user } = await loginQz();
    expect(user.real_name).toBe("赵小川");
    const timetable = await loadTimetable(user, "2025-2026-1");
    expect(timetable.timetable!.courses.map((course) => course.name)).toContain("数据结构");

    const page = await gradesPage(cookie);
    expect(page.ranking).toBeNull();
    expect(page.terms.map((term) => term.term)).toEqual(["2025-2026-1", "2024-2025-2", "2024-2025-1"]);
    expect(page.overall).toBe("2.71");

    const exams = (await examsLoader({ request: request("/backpack/exams?term=2025-2026-1", { cookie }), params: {}, context: {} })) as Awaited<ReturnType<typeof examsView>>;
    expect(exams.exams.map((exam) => exam.course).sort()).toEqual(["大学物理", "数据结构"]);
    const refreshed = (await examsAction({
      request: request("/backpack/exams", { method: "POST", body: new URLSearchParams({ intent: "refresh", term: "2025-2026-1" }), cookie }),
      params: {},
      context: {},
    })) as Response;
    expect(refreshed.headers.get("Location")).toBe("/backpack/exams?term=2025-2026-1&notice=synced");
  });
});

describe("the school's own way of counting", () => {
  it("a scale stored on the school changes the GPA the page shows", async () => {
    const { cookie } = await login("demo", "20230002", "demo1234");
    const standard = await gradesPage(cookie);
    // 20230002's results: 86, 92, 良, 优 / 78, 88, 及格 — the words count more on this school's table.
    await db().updateTable("schools").set({ grade_scale: JSON.stringify({ words: { 优: 4.5, 良: 3.5, 中: 2.5, 及格: 1.5, 不及格: 0 } }) }).where("code", "=", "demo").execute();
    const own = await gradesPage(cookie);
    // (3×3 + 3×4 + 2×3.5 + 1×4.5 + 3×2 + 3×3 + 1×1.5) / 16 = 49 / 16
    expect(own.overall).toBe("3.06");
    expect(standard.overall).toBe("2.94");
    await db().updateTable("schools").set({ grade_scale: null }).where("code", "=", "demo").execute();
  });

  it("the GPA rule the operator chose for the school (score/10−5, 优 4.5) is the one the page counts by", async () => {
    const { cookie } = await login("demo", "20230002", "demo1234");
    await db().updateTable("schools").set({ gpa_formula: "score10" }).where("code", "=", "demo").execute();
    try {
      const page = await gradesPage(cookie);
      // (3×3.6 + 3×4.2 + 2×3.5 + 1×4.5 + 3×2.8 + 3×3.8 + 1×1.5) / 16 = 56.2 / 16
      expect(page.overall).toBe("3.51");
      // The chart's scale follows the rule's top point (5).
      expect(page.chart.gridlines.map((line) => line.gpa)).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await db().updateTable("schools").set({ gpa_formula: "standard4" }).where("code", "=", "demo").execute();
    }
    expect((await gradesPage(cookie)).overall).toBe("2.94");
  });
});

describe("privacy", () => {
  it("each student sees only their own grades", async () => {
    const a = await login("demo", "20230001", "demo1234");
    const b = await login("demo", "20230002", "demo1234");
    const pageA = await gradesPage(a.cookie);
    const pageB = await gradesPage(b.cookie);
    const courses = (page: GradesView) => page.terms.flatMap((term) => term.grades.map((grade) => grade.course));
    expect(courses(pageA)).toContain("数据结构");
    expect(courses(pageB)).not.toContain("数据结构");
    expect(pageA.ranking).toEqual({ scope: "专业排名", rank: 12, total: 86 });
    expect(pageB.ranking).toBeNull();
  });

  it("without stored credentials the page says so and offers to log in again", async () => {
    const user = await createStudent({ school_code: "demo", student_id: "20239901" });
    const cookie = await sessionCookieFor(user.id);
    const page = await gradesPage(cookie);
    expect(page).toMatchObject({ loaded: false, error: msg.schedule.missingCredentials, errorKind: "credentials_missing" });
    const response = await postGrades(cookie, { intent: "relogin" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fbackpack%2Fgrades");
    expect(response.headers.get("Set-Cookie")).toContain("__session=");
  });

  it("the old 'coming soon' address leads to the grades", () => {
    const response = pointsLoader();
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/backpack/grades");
  });

  it("a visitor without a login is sent to the login page", async () => {
    await expect(gradesLoader({ request: request("/backpack/grades"), params: {}, context: {} })).rejects.toMatchObject({ status: 302 });
  });
});
