// Course reminders on SQLite and PostgreSQL: scheduled from the cached timetable and the school's
// term calendar, queued 15 minutes before class once per occurrence (also with two runs at once),
// cancelled when the class disappears from the timetable or the switch goes off.
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/server/db/db.server";
import type { Course, TermInfo } from "~/server/school/index.server";
import { createStudent } from "../../../tests/setup/helpers";
import { saveOverride, saveOwnCourse } from "../schedule/edits.server";
import { addCalendarEntry } from "../schedule/school-calendar.server";
import { processOutbox } from "./outbox.server";
import { logProvider } from "./providers.server";
import { runCourseReminders } from "./reminders.server";

// Term 2025-2026-2 starts on Monday 2026-03-02. Times below are UTC; Shanghai is UTC+8.
const TERM: TermInfo = { currentTerm: "2025-2026-2", week1Start: "2026-03-02", terms: [{ code: "2025-2026-2", label: "2025-2026学年第二学期" }] };
const ENGLISH: Course = { name: "大学英语", teacher: "李老师", location: "教二203", weekday: 1, startPeriod: 9, endPeriod: 10, weeks: [1, 2], weeksText: "1-2周" };
const MATHS: Course = { name: "高等数学", teacher: "张老师", location: "教一101", weekday: 2, startPeriod: 1, endPeriod: 2, weeks: [1, 2], weeksText: "1-2周" };

const MONDAY_2PM = new Date("2026-03-02T06:00:00.000Z"); // 14:00 Monday in Shanghai
const ENGLISH_REMIND = new Date("2026-03-02T10:45:00.000Z"); // 18:45, class at 19:00
const ENGLISH_START = new Date("2026-03-02T11:00:00.000Z");
const MATHS_REMIND = new Date("2026-03-02T23:55:00.000Z"); // Tuesday 07:55, class at 08:10

const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);

async function setTimetable(userId: number, courses: Course[]) {
  const data = JSON.stringify({ term: TERM.currentTerm, courses, notes: [] });
  await db()
    .insertInto("timetable_cache")
    .values({ user_id: userId, term: TERM.currentTerm, data, fetched_at: MONDAY_2PM.toISOString() })
    .onConflict((oc) => oc.columns(["user_id", "term"]).doUpdateSet({ data }))
    .execute();
}

async function setSwitch(userId: number, on: boolean) {
  const values = { course_reminder: on ? 1 : 0, updated_at: MONDAY_2PM.toISOString() };
  await db()
    .insertInto("schedule_settings")
    .values({ user_id: userId, calendar_token: null, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}

let counter = 0;
async function student(options: { openid?: boolean; on?: boolean; courses?: Course[] } = {}) {
  counter += 1;
  const user = await createStudent({ openid: options.openid === false ? null : `oReminder${process.pid}x${counter}`, wechat_authorized_at: MONDAY_2PM.toISOString() });
  await setSwitch(user.id, options.on ?? true);
  await setTimetable(user.id, options.courses ?? [ENGLISH, MATHS]);
  return user;
}

async function reminders(userId: number) {
  return db().selectFrom("course_reminders").selectAll().where("user_id", "=", userId).orderBy("starts_at").execute();
}

async function messages(userId: number) {
  return db().selectFrom("outbox_messages").selectAll().where("user_id", "=", userId).orderBy("id").execute();
}

beforeEach(async () => {
  await db().deleteFrom("course_reminders").execute();
  await db().deleteFrom("outbox_messages").execute();
  await db().deleteFrom("schedule_settings").execute();
  await db().deleteFrom("timetable_edits").execute();
  await db().deleteFrom("school_calendar_entries").execute();
  await db()
    .insertInto("school_term_info")
    .values({ school_code: "demo", data: JSON.stringify(TERM), fetched_at: MONDAY_2PM.toISOString() })
    .onConflict((oc) => oc.column("school_code").doUpdateSet({ data: JSON.stringify(TERM) }))
    .execute();
});

describe("course reminders", () => {
  it("schedules the next day's classes once, and queues each reminder once 15 minutes before class — also with two runs at once", async () => {
    const user = await student();
    expect(await runCourseReminders(MONDAY_2PM)).toMatchObject({ scheduled: 2, queued: 0 });
    expect(await runCourseReminders(minutes(MONDAY_2PM, 1))).toMatchObject({ scheduled: 0, queued: 0 });
    const scheduled = await reminders(user.id);
    expect(scheduled).toMatchObject([
      { course_name: "大学英语", place: "教二203", time_text: "3月2日 周一 19:00-20:40", state: "scheduled", remind_at: ENGLISH_REMIND.toISOString(), starts_at: ENGLISH_START.toISOString() },
      { course_name: "高等数学", place: "教一101", time_text: "3月3日 周二 08:10-09:40", state: "scheduled", remind_at: MATHS_REMIND.toISOString() },
    ]);

    // One minute early: nothing yet.
    expect(await runCourseReminders(minutes(ENGLISH_REMIND, -1))).toMatchObject({ queued: 0 });
    // Two instances at the reminder time.
    const [a, b] = await Promise.all([runCourseReminders(ENGLISH_REMIND), runCourseReminders(ENGLISH_REMIND)]);
    expect(a.queued + b.queued).toBe(1);
    expect(await runCourseReminders(minutes(ENGLISH_REMIND, 5))).toMatchObject({ queued: 0 });

    const queued = await messages(user.id);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: "course_reminder", template_key: "COURSE_REMINDER", channel: "template", openid: user.openid, link: "/schedule", expires_at: ENGLISH_START.toISOString() });
    expect(JSON.parse(queued[0].data)).toEqual({ course: "大学英语", time: "3月2日 周一 19:00-20:40", place: "教二203" });
    expect((await reminders(user.id))[0]).toMatchObject({ state: "queued", outbox_id: queued[0].id });
    // Course reminders go to the messenger only, not to the inbox.
    expect(await db().selectFrom("inbox_items").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);

    expect(await processOutbox({ now: minutes(ENGLISH_REMIND, 1), provider: logProvider })).toMatchObject({ sent: 1 });

    // The next morning's class.
    expect(await runCourseReminders(MATHS_REMIND)).toMatchObject({ queued: 1 });
    expect(await messages(user.id)).toHaveLength(2);
  });

  it("cancels the reminder of a class that disappeared from the timetable, before and after it was queued", async () => {
    const user = await student();
    await runCourseReminders(MONDAY_2PM);

    // Maths is dropped before its reminder was due.
    await setTimetable(user.id, [ENGLISH]);
    expect(await runCourseReminders(minutes(MONDAY_2PM, 30))).toMatchObject({ cancelled: 1 });
    expect((await reminders(user.id)).map((row) => [row.course_name, row.state])).toEqual([
      ["大学英语", "scheduled"],
      ["高等数学", "cancelled"],
    ]);

    // English is queued, then dropped before the worker sent it: its message is withdrawn.
    await runCourseReminders(ENGLISH_REMIND);
    await setTimetable(user.id, []);
    expect(await runCourseReminders(minutes(ENGLISH_REMIND, 2))).toMatchObject({ cancelled: 1 });
    expect((await reminders(user.id)).map((row) => row.state)).toEqual(["cancelled", "cancelled"]);
    expect((await messages(user.id)).map((row) => row.state)).toEqual(["cancelled"]);
    expect(await processOutbox({ now: minutes(ENGLISH_REMIND, 3), provider: logProvider })).toMatchObject({ claimed: 0 });

    // Nothing is queued at Maths' time.
    expect(await runCourseReminders(MATHS_REMIND)).toMatchObject({ queued: 0 });
    expect(await messages(user.id)).toHaveLength(1);
  });

  it("a class that moved to another room is a new reminder with the new place; a class that comes back is scheduled again", async () => {
    const user = await student();
    await runCourseReminders(MONDAY_2PM);
    await setTimetable(user.id, [ENGLISH, { ...MATHS, location: "实验楼305" }]);
    expect(await runCourseReminders(minutes(MONDAY_2PM, 10))).toMatchObject({ scheduled: 1, cancelled: 1 });
    await setTimetable(user.id, [ENGLISH, MATHS]);
    expect(await runCourseReminders(minutes(MONDAY_2PM, 20))).toMatchObject({ scheduled: 1, cancelled: 1 });
    const rows = await reminders(user.id);
    expect(rows.filter((row) => row.state === "scheduled").map((row) => [row.course_name, row.place])).toEqual([
      ["大学英语", "教二203"],
      ["高等数学", "教一101"],
    ]);
    await runCourseReminders(MATHS_REMIND);
    expect((await messages(user.id)).map((row) => JSON.parse(row.data).place)).toEqual(["教一101"]);
  });

  it("only for students with the switch on and a messenger identity; turning the switch off cancels what was scheduled", async () => {
    const off = await student({ on: false });
    const noIdentity = await student({ openid: false });
    const on = await student();
    await runCourseReminders(MONDAY_2PM);
    expect(await reminders(off.id)).toHaveLength(0);
    expect(await reminders(noIdentity.id)).toHaveLength(0);
    expect(await reminders(on.id)).toHaveLength(2);

    await setSwitch(on.id, false);
    expect(await runCourseReminders(minutes(MONDAY_2PM, 5))).toMatchObject({ cancelled: 2 });
    expect(await runCourseReminders(ENGLISH_REMIND)).toMatchObject({ queued: 0 });
    expect(await messages(on.id)).toHaveLength(0);
  });

  it("a reminder whose class began while no job ran is recorded as missed, not sent late", async () => {
    const user = await student();
    await runCourseReminders(MONDAY_2PM);
    expect(await runCourseReminders(minutes(ENGLISH_START, 5))).toMatchObject({ queued: 0, missed: 1 });
    expect((await reminders(user.id)).find((row) => row.course_name === "大学英语")?.state).toBe("missed");
  });

  it("follows the student's changes (a moved room, a hidden course, an own course) and the 校历 (a holiday, a 调休 day)", async () => {
    const user = await student();
    const term = TERM.currentTerm;
    const keep = { weekday: null, startPeriod: null, endPeriod: null, weeks: null, note: "", colour: null };
    await saveOverride(user.id, term, ENGLISH, { ...keep, location: "图书馆报告厅", hidden: false });
    await saveOverride(user.id, term, MATHS, { ...keep, location: null, hidden: true });
    const own = { name: "考研英语", teacher: "", location: "自习室", weekday: 2, startPeriod: 3, endPeriod: 4, weeks: [1], note: "", colour: null };
    expect(await saveOwnCourse(user.id, term, own)).toMatchObject({ ok: true });

    await runCourseReminders(MONDAY_2PM);
    const scheduled = async () =>
      (await reminders(user.id)).filter((row) => row.state === "scheduled").map((row) => [row.course_name, row.place, row.time_text]);
    expect(await scheduled()).toEqual([
      ["大学英语", "图书馆报告厅", "3月2日 周一 19:00-20:40"],
      ["考研英语", "自习室", "3月3日 周二 10:00-11:40"],
    ]);

    // Tuesday becomes a holiday: its class (the own one) is cancelled before it is due.
    await addCalendarEntry({ schoolCode: "demo", term, kind: "holiday", from: "2026-03-03", to: "2026-03-03", runsDate: null, label: "校庆" });
    expect(await runCourseReminders(minutes(MONDAY_2PM, 5))).toMatchObject({ cancelled: 1 });
    expect(await scheduled()).toEqual([["大学英语", "图书馆报告厅", "3月2日 周一 19:00-20:40"]]);

    // Tuesday runs Monday's classes instead (调休): English again on Tuesday evening, in its new room.
    await addCalendarEntry({ schoolCode: "demo", term, kind: "makeup", from: "2026-03-03", to: "2026-03-03", runsDate: "2026-03-02", label: "调休" });
    const tuesday8am = new Date("2026-03-03T00:00:00.000Z");
    await runCourseReminders(tuesday8am);
    expect(await scheduled()).toEqual([["大学英语", "图书馆报告厅", "3月3日 周二 19:00-20:40"]]);
    await runCourseReminders(new Date("2026-03-03T10:45:00.000Z"));
    // (No run happened at Monday 18:45 here, so Monday's went unsent: only Tuesday's is queued.)
    expect((await messages(user.id)).map((row) => [JSON.parse(row.data).course, JSON.parse(row.data).place, JSON.parse(row.data).time])).toEqual([
      ["大学英语", "图书馆报告厅", "3月3日 周二 19:00-20:40"],
    ]);
  });

  it("without a cached timetable of the current term there is nothing to remind of", async () => {
    const user = await student({ courses: [] });
    await db().deleteFrom("timetable_cache").where("user_id", "=", user.id).execute();
    expect(await runCourseReminders(MONDAY_2PM)).toMatchObject({ scheduled: 0 });
  });
});
