// The notification sheet's three switches (read by the notifications issue when it sends the
// reminders) and the secret token of the student's calendar feed.
import crypto from "node:crypto";
import { DEFAULT_ALARM_MINUTES } from "~/lib/ics";
import { db, now } from "../db/db.server";
import { compiledOnce } from "../db/compiled.server";

export type ReminderSettings = {
  courseReminder: boolean;
  substituteReminder: boolean;
  announcementReminder: boolean;
};

export type DisplaySettings = {
  /** Courses of other weeks shown greyed in the grid. */
  showOtherWeeks: boolean;
  /** The feed's alarm before each class, in minutes; 0 = none. */
  alarmMinutes: number;
};

export type ScheduleSettings = ReminderSettings & DisplaySettings & { calendarToken: string | null };

/** Everything is off until the student turns it on (the messenger asks for consent anyway). */
export const DEFAULT_SCHEDULE_SETTINGS: ScheduleSettings = {
  courseReminder: false,
  substituteReminder: false,
  announcementReminder: false,
  showOtherWeeks: false,
  alarmMinutes: DEFAULT_ALARM_MINUTES,
  calendarToken: null,
};

/** 32 random bytes, base64url: 43 characters. */
export const CALENDAR_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const settingsOf = compiledOnce((userId: number) => db().selectFrom("schedule_settings").selectAll().where("user_id", "=", userId));

export async function getScheduleSettings(userId: number): Promise<ScheduleSettings> {
  const row = await settingsOf.executeTakeFirst(userId);
  if (!row) return { ...DEFAULT_SCHEDULE_SETTINGS };
  return {
    courseReminder: row.course_reminder === 1,
    substituteReminder: row.substitute_reminder === 1,
    announcementReminder: row.announcement_reminder === 1,
    showOtherWeeks: row.show_other_weeks === 1,
    alarmMinutes: row.alarm_minutes,
    calendarToken: row.calendar_token,
  };
}

export async function saveReminderSettings(userId: number, settings: ReminderSettings) {
  const values = {
    course_reminder: settings.courseReminder ? 1 : 0,
    substitute_reminder: settings.substituteReminder ? 1 : 0,
    announcement_reminder: settings.announcementReminder ? 1 : 0,
    updated_at: now(),
  };
  await db()
    .insertInto("schedule_settings")
    .values({ user_id: userId, calendar_token: null, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}

/** The grid's other-weeks switch and the feed's alarm lead time. */
export async function saveDisplaySettings(userId: number, settings: DisplaySettings) {
  const values = { show_other_weeks: settings.showOtherWeeks ? 1 : 0, alarm_minutes: settings.alarmMinutes, updated_at: now() };
  await db()
    .insertInto("schedule_settings")
    .values({ user_id: userId, calendar_token: null, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}

/** A new secret for the feed; the old address stops working at once. */
export async function resetCalendarToken(userId: number): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  const values = { calendar_token: token, updated_at: now() };
  await db()
    .insertInto("schedule_settings")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
  return token;
}

/** The student a feed token belongs to (never an account waiting for deletion). */
export async function userByCalendarToken(token: string) {
  if (!CALENDAR_TOKEN_PATTERN.test(token)) return null;
  const row = await db()
    .selectFrom("schedule_settings")
    .innerJoin("users", "users.id", "schedule_settings.user_id")
    .selectAll("users")
    .where("schedule_settings.calendar_token", "=", token)
    .where("users.deletion_requested_at", "is", null)
    .executeTakeFirst();
  return row && row.student_id && row.school_code ? row : null;
}

/** Students who want the 15-minute course reminder (for the notifications issue). */
export async function courseReminderUserIds(): Promise<number[]> {
  const rows = await db().selectFrom("schedule_settings").select("user_id").where("course_reminder", "=", 1).execute();
  return rows.map((row) => row.user_id);
}
