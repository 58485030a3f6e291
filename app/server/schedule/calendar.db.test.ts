import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { currentWeek } from "~/lib/schedule";
import { defaultWeek1Start, termForDate } from "~/lib/term";
import { shanghaiToday } from "~/lib/time";
import { loader as calendarLoader } from "~/routes/schedule.calendar.$file";
import { action as scheduleAction, loader as scheduleLoader } from "~/routes/schedule._index/route";
import { accessRedirect } from "~/server/auth/guard.server";
import { resetConfig } from "~/server/config.server";
import { seal } from "~/server/crypto.server";
import { db } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { courseReminderUserIds, getScheduleSettings } from "./settings.server";

// The demo school (no network): student 20230001's autumn plan, current term from the clock.
const TERM = termForDate(new Date()).code;
const WEEK1 = defaultWeek1Start(TERM)!;

beforeAll(() => resetConfig());

/** A fresh demo student 20230001 (the demo system knows only its own ids); the previous one goes. */
async function demoStudent() {
  await db().deleteFrom("users").where("school_code", "=", "demo").where("student_id", "=", "20230001").execute();
  const user = await createStudent({ school_code: "demo", student_id: "20230001", real_name: "张明", password_enc: seal("demo1234") });
  return { user, cookie: await sessionCookieFor(user.id) };
}

function post(cookie: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields);
  return scheduleAction({ request: request("/schedule?index", { method: "POST", body, cookie }), params: {}, context: {} }) as Promise<Response>;
}

async function feed(path: string) {
  const file = path.split("/").pop()!;
  return (await calendarLoader({ request: request(path), params: { file }, context: {} })) as Response;
}

describe("the calendar feed", () => {
  it("has no address until the student makes one, then serves every class of the current term", async () => {
    const { user, cookie } = await demoStudent();
    expect((await getScheduleSettings(user.id)).calendarToken).toBeNull();

    const created = await post(cookie, { intent: "calendar", term: TERM, week: "3" });
    expect(created.headers.get("Location")).toBe(`/schedule?term=${TERM}&week=3&dialog=notify&notice=calendarCreated`);
    const { calendarToken } = await getScheduleSettings(user.id);
    expect(calendarToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=3`, { cookie }), params: {}, context: {} });
    expect(view.calendarUrl).toBe(`http://localhost/schedule/calendar/${calendarToken}.ics`);

    const response = await feed(`/schedule/calendar/${calendarToken}.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    const text = await response.text();
    expect(text).toContain("\r\n");

    const calendar = new ICAL.Component(ICAL.parse(text));
    ICAL.TimezoneService.register(calendar.getFirstSubcomponent("vtimezone")!);
    const all = calendar.getAllSubcomponents("vevent").map((vevent) => new ICAL.Event(vevent));
    // The term's exams join the classes: those from a week ago on, with a time.
    const exams = all.filter((event) => event.uid.endsWith("@exam"));
    expect(exams.map((event) => event.summary)).toEqual(["【考试】大学物理(上)", "【考试】离散数学", "【考试】计算机组成原理", "【考试】大学英语(三)"]);
    const events = all.filter((event) => !event.uid.endsWith("@exam"));
    // The autumn plan: 11 courses; weeks 1-16 ×6, 1-15 odd (8), 1-8+10-16 (15), 2-16 even (8), 2-8 even (4), 1-12 (12).
    expect(events).toHaveLength(16 * 6 + 8 + 15 + 8 + 4 + 12);
    expect(new Set(events.map((event) => event.uid)).size).toBe(events.length);

    const first = events.find((event) => event.summary === "数据结构" && event.startDate.toJSDate().getTime() === Date.parse(`${WEEK1}T00:10:00Z`));
    expect(first).toBeDefined();
    expect(first!.location).toBe("信息楼A301");
    expect(first!.description).toContain("王建华");
    expect(first!.endDate.toJSDate().toISOString()).toBe(`${WEEK1}T01:40:00.000Z`);

    // Odd-week 离散数学 meets in weeks 1, 3, … only.
    const discrete = events.filter((event) => event.summary === "离散数学");
    expect(discrete).toHaveLength(8);
  });

  it("resetting the address makes the old one a 404 at once", async () => {
    const { user, cookie } = await demoStudent();
    await post(cookie, { intent: "calendar", term: TERM, week: "1" });
    const old = (await getScheduleSettings(user.id)).calendarToken!;
    const reset = await post(cookie, { intent: "calendar", term: TERM, week: "1" });
    expect(reset.headers.get("Location")).toContain("notice=calendarReset");
    const fresh = (await getScheduleSettings(user.id)).calendarToken!;
    expect(fresh).not.toBe(old);
    expect((await feed(`/schedule/calendar/${old}.ics`)).status).toBe(404);
    expect((await feed(`/schedule/calendar/${fresh}.ics`)).status).toBe(200);
  });

  it.each(["nope.ics", "a".repeat(43), `${"a".repeat(43)}.txt`, `${"a".repeat(43)}.ics`, ".ics"])("answers 404 for %s", async (file) => {
    expect((await feed(`/schedule/calendar/${file}`)).status).toBe(404);
  });

  it("stops for an account waiting for deletion", async () => {
    const { user, cookie } = await demoStudent();
    await post(cookie, { intent: "calendar", term: TERM, week: "1" });
    const token = (await getScheduleSettings(user.id)).calendarToken!;
    await db().updateTable("users").set({ deletion_requested_at: new Date().toISOString() }).where("id", "=", user.id).execute();
    expect((await feed(`/schedule/calendar/${token}.ics`)).status).toBe(404);
  });

  it("is open without a login (its token is the check), while /schedule itself is not", async () => {
    expect(await accessRedirect(request("/schedule/calendar/abc.ics"))).toBeNull();
    expect(await accessRedirect(request("/schedule"))).toBe("/crLogin?redirectTo=%2Fschedule");
    expect(await accessRedirect(request("/schedule/calendar"))).toBe("/crLogin?redirectTo=%2Fschedule%2Fcalendar");
  });
});

describe("the notification switches", () => {
  it("are off at first, saved by the form, and shown again", async () => {
    const { user, cookie } = await demoStudent();
    const before = await scheduleLoader({ request: request("/schedule", { cookie }), params: {}, context: {} });
    expect(before.reminders).toEqual({ courseReminder: false, substituteReminder: false, announcementReminder: false });

    const saved = await post(cookie, { intent: "reminders", term: TERM, week: "5", courseReminder: "on", announcementReminder: "on" });
    expect(saved.headers.get("Location")).toBe(`/schedule?term=${TERM}&week=5&dialog=notify&notice=remindersSaved`);
    expect(await getScheduleSettings(user.id)).toMatchObject({ courseReminder: true, substituteReminder: false, announcementReminder: true });
    expect(await courseReminderUserIds()).toContain(user.id);

    // An unticked box is simply absent from the form: everything off again.
    await post(cookie, { intent: "reminders", term: TERM, week: "5" });
    expect(await getScheduleSettings(user.id)).toMatchObject({ courseReminder: false, substituteReminder: false, announcementReminder: false });
    expect(await courseReminderUserIds()).not.toContain(user.id);
  });

  it("keep the calendar address when saved, and the address keeps the switches", async () => {
    const { user, cookie } = await demoStudent();
    await post(cookie, { intent: "reminders", courseReminder: "on" });
    await post(cookie, { intent: "calendar" });
    await post(cookie, { intent: "reminders", courseReminder: "on", substituteReminder: "on" });
    const settings = await getScheduleSettings(user.id);
    expect(settings).toMatchObject({ courseReminder: true, substituteReminder: true });
    expect(settings.calendarToken).not.toBeNull();
  });
});

describe("the /schedule page data", () => {
  it("opens on this week of the current term, Monday to Sunday, with today marked", async () => {
    const { cookie } = await demoStudent();
    const view = await scheduleLoader({ request: request("/schedule", { cookie }), params: {}, context: {} });
    const today = shanghaiToday();
    expect(view.term.code).toBe(TERM);
    expect(view.week).toBe(currentWeek(today, WEEK1));
    expect(view.days.map((day) => day.label)).toEqual(["周一", "周二", "周三", "周四", "周五", "周六", "周日"]);
    expect(view.days.filter((day) => day.isToday).map((day) => day.date)).toEqual(view.todayWeek ? [today] : []);
    expect(view.grid).toHaveLength(5);
    expect(view.syncedAt).not.toBeNull();
  });

  it.each<[string, number]>([
    ["30", 26],
    ["0", 1],
    ["-4", 1],
    ["7", 7],
  ])("clamps ?week=%s to %i", async (week, expected) => {
    const { cookie } = await demoStudent();
    const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=${week}`, { cookie }), params: {}, context: {} });
    expect(view.week).toBe(expected);
  });

  it("shows odd-week courses in odd weeks only and practice notes in their weeks", async () => {
    const { cookie } = await demoStudent();
    const names = async (week: number) => {
      const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=${week}`, { cookie }), params: {}, context: {} });
      return { courses: view.courses.map((c) => c.name), notes: view.notes.map((n) => n.name) };
    };
    const week1 = await names(1);
    const week2 = await names(2);
    expect(week1.courses).toContain("离散数学");
    expect(week1.courses).not.toContain("大学物理实验");
    expect(week2.courses).toContain("大学物理实验");
    expect(week2.courses).not.toContain("离散数学");
    expect(week1.notes).toEqual(["公益劳动"]);
    expect((await names(17)).notes).toEqual(["认识实习"]);
    expect((await names(20)).courses).toEqual([]);
  });

  it("gives each course dialog the mutual-help link naming the class by its place in the timetable, not its text", async () => {
    const { cookie } = await demoStudent();
    const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=1`, { cookie }), params: {}, context: {} });
    const course = view.courses.find((c) => c.name === "数据结构" && c.weekday === "周一")!;
    const href = new URL(course.helpHref!, "http://app.test");
    expect(href.pathname).toBe("/schedule/mutual-help");
    expect(Object.fromEntries(href.searchParams)).toEqual({ term: TERM, week: "1", course: String(course.index) });
  });

  it("falls back to the current term for a bad ?term=", async () => {
    const { cookie } = await demoStudent();
    const view = await scheduleLoader({ request: request("/schedule?term=2025-2099-1&week=2", { cookie }), params: {}, context: {} });
    expect(view.term.code).toBe(TERM);
    expect(view.week).toBe(2);
  });
});

describe("another term", () => {
  it("opens on its first week when today is not inside it", async () => {
    const { cookie } = await demoStudent();
    const view = await scheduleLoader({ request: request("/schedule?term=2024-2025-2", { cookie }), params: {}, context: {} });
    expect(view.term.code).toBe("2024-2025-2");
    expect(view.isCurrentTerm).toBe(false);
    expect(view.week).toBe(1);
    expect(view.todayWeek).toBeNull();
  });
});
