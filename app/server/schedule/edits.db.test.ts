import { beforeEach, describe, expect, it } from "vitest";
import { action as editAction, loader as editLoader } from "~/routes/schedule.courses.edit";
import { action as newAction } from "~/routes/schedule.courses.new";
import { action as scheduleAction, loader as scheduleLoader } from "~/routes/schedule._index/route";
import { db } from "~/server/db/db.server";
import { call, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { calendarFeed } from "./calendar.server";
import { addCalendarEntry } from "./school-calendar.server";
import { scheduleView } from "~/routes/schedule._index/schedule-view.server";

// A student's own courses and overrides, by plain form posts (what a browser without JavaScript
// sends), over a cached timetable of the demo school: week 1 starts Monday 2025-09-01.
const TERM = "2025-2026-1";
const WEEK1 = "2025-09-01";
const COURSES = [
  { name: "数据结构", teacher: "王建华", location: "信息楼A301", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: [1, 2, 3, 4], weeksText: "1-4周" },
  { name: "大学物理实验", teacher: "孙立", location: "物理楼B203", weekday: 4, startPeriod: 7, endPeriod: 8, weeks: [2, 4], weeksText: "2-4周(双)" },
];

let user: Awaited<ReturnType<typeof createStudent>>;
let cookie: string;

async function cacheTimetable(courses = COURSES) {
  const data = JSON.stringify({ term: TERM, courses, notes: [] });
  const fetched_at = new Date().toISOString();
  await db()
    .insertInto("timetable_cache")
    .values({ user_id: user.id, term: TERM, data, fetched_at })
    .onConflict((oc) => oc.columns(["user_id", "term"]).doUpdateSet({ data, fetched_at }))
    .execute();
}

beforeEach(async () => {
  user = await createStudent();
  cookie = await sessionCookieFor(user.id);
  await db().deleteFrom("school_term_info").execute();
  await db().deleteFrom("school_calendar_entries").execute();
  await db()
    .insertInto("school_term_info")
    .values({ school_code: "demo", data: JSON.stringify({ currentTerm: TERM, week1Start: WEEK1, terms: [{ code: TERM, label: TERM }] }), fetched_at: new Date().toISOString() })
    .execute();
  await cacheTimetable();
});

const post = (path: string, fields: Record<string, string>) => request(path, { method: "POST", body: new URLSearchParams(fields), cookie });
const view = (week = 1) => scheduleLoader({ request: request(`/schedule?term=${TERM}&week=${week}`, { cookie }), params: {}, context: {} });
const cell = (grid: Awaited<ReturnType<typeof view>>["grid"], row: number, day: number) => grid[row][day].map((card) => [card.name, card.kind, card.clash, card.location]);
const own = { term: TERM, week: "1", name: "考研英语", teacher: "", location: "图书馆", weekday: "1", startPeriod: "1", endPeriod: "2", weeks: "1-8,10-16", note: "" };

describe("adding a course of one's own (form posts, no JavaScript)", () => {
  it("refuses bad input with Chinese messages beside the fields and keeps what was typed", async () => {
    const response = await call(newAction, post(`/schedule/courses/new?term=${TERM}&week=1`, { ...own, name: " ", weeks: "1-30", startPeriod: "5", endPeriod: "3" }));
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error).toMatchObject({ name: ["请填写课程名称"], weeks: ["周次格式不对，例如 1-8,10-16 或 1-15单"] });
    expect(reply.initialValue).toMatchObject({ location: "图书馆", weeks: "1-30" });
    expect(await db().selectFrom("timetable_edits").selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("names the end-before-start periods", async () => {
    const reply = await (await call(newAction, post(`/schedule/courses/new?term=${TERM}`, { ...own, startPeriod: "5", endPeriod: "3" }))).json();
    expect(reply.error).toMatchObject({ endPeriod: ["结束节次不能早于开始节次"] });
  });

  it("saves, lands on the week with the clash named, shows it in the grid, and 撤销 takes it away", async () => {
    const response = await call(newAction, post(`/schedule/courses/new?term=${TERM}&week=1`, own));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, "http://localhost");
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ term: TERM, week: "1", notice: "saved", clash: "数据结构" });
    const page = await view(1);
    expect(cell(page.grid, 0, 0)).toEqual([
      ["数据结构", "class", true, "信息楼A301"],
      ["考研英语", "class", true, "图书馆"],
    ]);
    expect(page.courses.find((c) => c.name === "考研英语")).toMatchObject({ source: "own", weeksText: "1-8周,10-16周", helpHref: null });

    const undo = await call(scheduleAction, post(`/schedule?index`, { intent: "undo", edit: location.searchParams.get("edit")!, term: TERM, week: "1" }));
    expect(undo.headers.get("Location")).toContain("notice=undone");
    expect(cell((await view(1)).grid, 0, 0)).toEqual([["数据结构", "class", false, "信息楼A301"]]);
  });
});

describe("overriding a school course", () => {
  it("changes its room and time, survives the school's refresh (even reordered), and goes back to the school's data", async () => {
    const response = await call(editAction, post(`/schedule/courses/edit?term=${TERM}&week=1&course=0`, { term: TERM, week: "1", location: "信息楼B999", weekday: "2", startPeriod: "3", endPeriod: "4", weeks: "1-4", note: "带电脑", colour: "3" }));
    expect(response.status).toBe(302);
    const edit = new URL(response.headers.get("Location")!, "http://localhost").searchParams.get("edit")!;
    const row = await db().selectFrom("timetable_edits").selectAll().where("id", "=", Number(edit)).executeTakeFirstOrThrow();
    // The weeks equal the school's: stored as "keep the school's".
    expect(row).toMatchObject({ kind: "override", location: "信息楼B999", weekday: 2, start_period: 3, end_period: 4, weeks: null, note: "带电脑", colour: 3 });
    let page = await view(1);
    expect(cell(page.grid, 0, 0)).toEqual([]);
    expect(cell(page.grid, 1, 1)).toEqual([["数据结构", "class", false, "信息楼B999"]]);

    // The school answers again, in another order: the override still finds its course.
    await cacheTimetable([COURSES[1], COURSES[0]]);
    page = await view(1);
    expect(cell(page.grid, 1, 1)).toEqual([["数据结构", "class", false, "信息楼B999"]]);
    const detail = page.courses.find((c) => c.name === "数据结构")!;
    expect(detail).toMatchObject({ edited: true, note: "带电脑" });
    // The mutual-help link keeps pointing at the school's list position.
    expect(detail.helpHref).toContain("course=1");

    const restored = await call(editAction, post(`/schedule/courses/edit?term=${TERM}&week=1&edit=${edit}`, { intent: "remove", term: TERM, week: "1" }));
    expect(restored.headers.get("Location")).toContain("notice=restored");
    expect(cell((await view(1)).grid, 0, 0)).toEqual([["数据结构", "class", false, "信息楼A301"]]);
  });

  it("hides a course and shows it again", async () => {
    const hide = await call(editAction, post(`/schedule/courses/edit?term=${TERM}&week=1&course=0`, { intent: "hide", term: TERM, week: "1" }));
    expect(hide.headers.get("Location")).toContain("notice=hidden");
    let page = await view(1);
    expect(cell(page.grid, 0, 0)).toEqual([]);
    expect(page.hiddenCourses).toEqual([{ name: "数据结构", editId: expect.any(Number) }]);
    await call(editAction, post(`/schedule/courses/edit?term=${TERM}&week=1&edit=${page.hiddenCourses[0].editId}`, { intent: "show", term: TERM, week: "1" }));
    page = await view(1);
    expect(cell(page.grid, 0, 0)).toEqual([["数据结构", "class", false, "信息楼A301"]]);
    expect(page.hiddenCourses).toEqual([]);
  });

  it("never reaches another student's change", async () => {
    const saved = await call(newAction, post(`/schedule/courses/new?term=${TERM}&week=1`, own));
    const edit = new URL(saved.headers.get("Location")!, "http://localhost").searchParams.get("edit")!;
    const other = await createStudent();
    const otherCookie = await sessionCookieFor(other.id);
    const asOther = (fields: Record<string, string>) => request(`/schedule/courses/edit?term=${TERM}&week=1&edit=${edit}`, { method: "POST", body: new URLSearchParams(fields), cookie: otherCookie });
    expect((await call(editLoader, request(`/schedule/courses/edit?term=${TERM}&edit=${edit}`, { cookie: otherCookie }))).status).toBe(404);
    expect((await call(editAction, asOther({ intent: "remove", term: TERM, week: "1" }))).status).toBe(404);
    await call(scheduleAction, request("/schedule?index", { method: "POST", body: new URLSearchParams({ intent: "undo", edit, term: TERM, week: "1" }), cookie: otherCookie }));
    const row = await db().selectFrom("timetable_edits").selectAll().where("id", "=", Number(edit)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ removed: 0, name: "考研英语" });
  });
});

describe("display settings, the 校历, exams and today", () => {
  it("greys another week's course when asked (form post)", async () => {
    expect(cell((await view(1)).grid, 3, 3)).toEqual([]);
    const saved = await call(scheduleAction, post("/schedule?index", { intent: "display", showOtherWeeks: "on", alarmMinutes: "30", term: TERM, week: "1" }));
    expect(saved.headers.get("Location")).toContain("notice=displaySaved");
    const page = await view(1);
    expect(cell(page.grid, 3, 3)).toEqual([["大学物理实验", "other-week", false, "物理楼B203"]]);
    expect(page.display).toEqual({ showOtherWeeks: true, alarmMinutes: 30 });
  });

  it("follows the school calendar in the grid and the feed, with an alarm per class", async () => {
    await addCalendarEntry({ schoolCode: "demo", term: TERM, kind: "holiday", from: "2025-09-01", to: "2025-09-01", runsDate: null, label: "校庆" });
    await addCalendarEntry({ schoolCode: "demo", term: TERM, kind: "makeup", from: "2025-09-06", to: "2025-09-06", runsDate: "2025-09-01", label: "调休" });
    const page = await view(1);
    expect(page.days[0]).toMatchObject({ holiday: "校庆" });
    expect(page.days[5]).toMatchObject({ makeup: "周一" });
    expect(cell(page.grid, 0, 0)).toEqual([]);
    expect(cell(page.grid, 0, 5)).toEqual([["数据结构", "class", false, "信息楼A301"]]);

    await call(scheduleAction, post("/schedule?index", { intent: "display", alarmMinutes: "30", term: TERM, week: "1" }));
    const feed = await calendarFeed(user, new Date("2025-09-01T00:00:00Z"));
    expect(feed).not.toContain("DTSTART;TZID=Asia/Shanghai:20250901T081000");
    expect(feed).toContain("DTSTART;TZID=Asia/Shanghai:20250906T081000");
    expect(feed).toContain("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:数据结构 @信息楼A301\r\nTRIGGER:-PT30M\r\nEND:VALARM");
  });

  it("shows exams on their day, marked and clashing with a class", async () => {
    await db().insertInto("exams_cache").values({ user_id: user.id, term: TERM, data: JSON.stringify({ term: TERM, exams: [{ term: TERM, course: "线性代数", date: "2025-09-01", start: "09:00", end: "11:00", place: "教一-101", seat: "12", kind: "期中考试" }] }), fetched_at: new Date().toISOString() }).execute();
    const page = await view(1);
    expect(cell(page.grid, 0, 0)).toEqual([
      ["数据结构", "class", true, "信息楼A301"],
      ["线性代数", "exam", true, "教一-101"],
    ]);
    expect(cell(page.grid, 1, 0)).toEqual([["线性代数", "exam", false, "教一-101"]]);
  });

  it("computes today in Shanghai time: the class under way, then the rest of the day", async () => {
    // 2025-09-01 08:30 in Shanghai is 00:30 UTC.
    const today = (await scheduleView(user, new URL(`http://localhost/schedule?term=${TERM}`), { now: new Date("2025-09-01T00:30:00Z") })).today!;
    expect(today.focus).toMatchObject({ state: "now", minutes: 70, item: { name: "数据结构", location: "信息楼A301", start: "08:10", end: "09:40" } });
    const evening = (await scheduleView(user, new URL(`http://localhost/schedule?term=${TERM}`), { now: new Date("2025-09-01T12:00:00Z") })).today!;
    expect(evening.focus).toBeNull();
    expect(evening.items.map((item) => item.state)).toEqual(["done"]);
  });
});
