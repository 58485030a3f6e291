// Importing a timetable file (decision 053) through the route's action on a real database, by the
// posts a browser without JavaScript sends: the file as multipart/form-data, then the preview's
// confirm form. The courses become the student's own courses: the grid shows them (clashing with
// the school's), 撤销 takes one back, the calendar feed carries them; nobody else's rows move.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { action as importAction, loader as importLoader } from "~/routes/schedule.import";
import { action as scheduleAction, loader as scheduleLoader } from "~/routes/schedule._index/route";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { FIXTURES } from "../../../tests/fixtures/timetable-exports";
import { call, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { calendarFeed } from "./calendar.server";

const TERM = "2025-2026-1";
const WEEK1 = "2025-09-01";
const SCHOOL = [{ name: "数据结构", teacher: "王建华", location: "信息楼A301", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: [1, 2, 3, 4], weeksText: "1-4周" }];
const ZF_V9 = FIXTURES.find((fixture) => fixture.name === "zfsoft-v9")!;

let user: Awaited<ReturnType<typeof createStudent>>;
let cookie: string;

beforeEach(async () => {
  user = await createStudent();
  cookie = await sessionCookieFor(user.id);
  await db().deleteFrom("school_term_info").execute();
  await db()
    .insertInto("school_term_info")
    .values({ school_code: "demo", data: JSON.stringify({ currentTerm: TERM, week1Start: WEEK1, terms: [{ code: TERM, label: TERM }] }), fetched_at: new Date().toISOString() })
    .execute();
  await db().insertInto("timetable_cache").values({ user_id: user.id, term: TERM, data: JSON.stringify({ term: TERM, courses: SCHOOL, notes: [] }), fetched_at: new Date().toISOString() }).execute();
});

afterEach(() => {
  delete process.env.RATE_LIMIT_TIMETABLE_IMPORT;
  resetConfig();
});

/** The upload form as a browser posts it. */
function upload(data: Buffer | null, who = cookie, filename = "课表.xlsx", headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set("term", TERM);
  form.set("week", "1");
  if (data) form.set("file", new File([new Uint8Array(data)], filename, { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }));
  return request(`/schedule/import?term=${TERM}&week=1`, { method: "POST", body: form, cookie: who, headers });
}

const confirm = (token: string, who = cookie) => request(`/schedule/import?term=${TERM}&week=1`, { method: "POST", body: new URLSearchParams({ term: TERM, week: "1", token }), cookie: who });
const ownRows = (userId = user.id) => db().selectFrom("timetable_edits").selectAll().where("user_id", "=", userId).where("kind", "=", "own").where("removed", "=", 0).orderBy("id").execute();

async function preview(data: Buffer) {
  const response = await call(importAction, upload(data));
  expect(response.status).toBe(200);
  return (await response.json()) as { kind: "preview"; courses: { name: string }[]; unread: { text: string }[]; token: string };
}

describe("upload → preview → confirm", () => {
  it("previews without storing, then adds the courses as the student's own, shown in the grid, undoable, in the feed", async () => {
    expect(await call(importLoader, request(`/schedule/import?term=${TERM}&week=1`, { cookie })).then((r) => r.json())).toEqual({ term: TERM, week: 1 });
    const shown = await preview(await ZF_V9.build());
    expect(shown.kind).toBe("preview");
    expect(shown.courses.map((course) => course.name).sort()).toEqual(["高等数学A(2)", "马克思主义基本原理", "动画基础", "大学英语(三)", "大学英语听说", "体育4", "生理学(甲)"].sort());
    expect(shown.unread.map((piece) => piece.text)).toEqual(["其他课程：形势与政策4 陈老师 12-15周 无上课时间"]);
    expect(await ownRows()).toEqual([]);

    const done = await call(importAction, confirm(shown.token));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/schedule?term=${TERM}&week=1&notice=imported`);
    const rows = await ownRows();
    expect(rows.map((row) => [row.name, row.teacher, row.location, row.weekday, row.start_period, row.end_period])).toContainEqual(["高等数学A(2)", "肖小芳", "D219", 1, 1, 2]);
    expect(rows).toHaveLength(7);

    // The grid: Monday 1-2 holds the school's course and the imported one, both marked as a clash.
    const page = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=1`, { cookie }), params: {}, context: {} });
    expect(page.grid[0]![0]!.map((card) => [card.name, card.clash])).toEqual([
      ["数据结构", true],
      ["高等数学A(2)", true],
    ]);

    // The feed carries an imported course on its first day (Wednesday 2025-09-03, periods 1-5).
    expect(await calendarFeed(user, new Date("2025-09-01T00:00:00Z"))).toContain("SUMMARY:动画基础");

    // 撤销 of one imported course takes it away, like any own course.
    const first = rows[0]!;
    await call(scheduleAction, request("/schedule?index", { method: "POST", cookie, body: new URLSearchParams({ intent: "undo", edit: String(first.id), term: TERM, week: "1" }) }));
    expect((await ownRows()).map((row) => row.id)).not.toContain(first.id);
  });

  it("confirming the same preview twice adds nothing twice", async () => {
    const shown = await preview(await ZF_V9.build());
    await call(importAction, confirm(shown.token));
    await call(importAction, confirm(shown.token));
    expect(await ownRows()).toHaveLength(7);
  });

  it("another student cannot confirm someone's preview: refused, nobody's rows change", async () => {
    const shown = await preview(await ZF_V9.build());
    const other = await createStudent();
    const otherCookie = await sessionCookieFor(other.id);
    const refused = await call(importAction, confirm(shown.token, otherCookie));
    expect(refused.status).toBe(400);
    expect((await refused.json()).reply.error).toEqual({ file: ["预览已失效，请重新上传文件"] });
    expect(await ownRows(other.id)).toEqual([]);
    expect(await ownRows()).toEqual([]);
  });

  it("an import past the term's bound of changes is refused whole", async () => {
    const at = new Date().toISOString();
    await db()
      .insertInto("timetable_edits")
      .values(Array.from({ length: 75 }, (_, i) => ({ user_id: user.id, term: TERM, kind: "own" as const, course_key: null, hidden: 0, removed: 0, name: `课${i}`, teacher: "", location: "", weekday: 7, start_period: 11, end_period: 12, weeks: "[20]", note: "", colour: null, previous: null, created_at: at, updated_at: at })))
      .execute();
    const shown = await preview(await ZF_V9.build());
    const refused = await call(importAction, confirm(shown.token));
    expect(refused.status).toBe(409);
    expect((await refused.json()).reply.error).toEqual({ file: ["本学期的课程修改太多了，请先删除一些"] });
    expect(await ownRows()).toHaveLength(75);
  });
});

describe("bad files get a Chinese message next to the file field", () => {
  it.each([
    ["the old binary .xls", Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]), 415, "这是旧版 Excel（.xls）文件，暂不支持。请用 Excel 或 WPS 打开后「另存为」.xlsx 格式，再上传。"],
    ["a web page named .xls", Buffer.from("<html><body>课表</body></html>"), 415, "这个文件其实是网页，不是 Excel 表格。请用 Excel 或 WPS 打开后「另存为」.xlsx 格式，再上传。"],
    ["a picture", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]), 415, "只能上传 Excel 课表文件（.xlsx）"],
  ])("%s", async (_, data, status, message) => {
    const response = await call(importAction, upload(data));
    expect(response.status).toBe(status);
    expect((await response.json()).reply.error).toEqual({ file: [message] });
    expect(await ownRows()).toEqual([]);
  });

  it("no file chosen", async () => {
    const response = await call(importAction, upload(null));
    expect(response.status).toBe(400);
    expect((await response.json()).reply.error).toMatchObject({ file: ["请选择课表文件"] });
  });

  it("a body declared over the limit is refused before it is read", async () => {
    const response = await call(importAction, upload(await ZF_V9.build(), cookie, "课表.xlsx", { "Content-Length": String(2 * 1024 * 1024) }));
    expect(response.status).toBe(413);
    expect((await response.json()).reply.error).toEqual({ file: ["文件太大了，课表文件不能超过 1 MB"] });
  });

  it("reading files is rate limited per student and network", async () => {
    process.env.RATE_LIMIT_TIMETABLE_IMPORT = "2,100/600";
    resetConfig();
    const data = await ZF_V9.build();
    expect((await call(importAction, upload(data))).status).toBe(200);
    expect((await call(importAction, upload(data))).status).toBe(200);
    const refused = await call(importAction, upload(data));
    expect(refused.status).toBe(429);
    expect((await refused.json()).reply.error.file[0]).toMatch(/^操作太频繁，请\d+ (秒|分钟)后再试$/);
  });
});
