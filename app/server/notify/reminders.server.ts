// Course reminders: for every student whose course-reminder switch is on (the timetable's
// notification sheet) and who has a messenger identity, a COURSE_REMINDER is queued 15 minutes
// before each class occurrence of the school's current term, as /schedule shows it: the cached
// timetable with the student's changes (moved, hidden, own courses) on the days the 校历 runs them.
//
// Each run (every minute, on every instance):
//   1. schedules the occurrences of the next 24 hours: one course_reminders row per occurrence,
//      unique per user — a second run or a second instance inserts nothing;
//   2. cancels the scheduled (and still unsent) reminders of classes that are no longer in the
//      timetable, and those of students who turned the switch off or lost their identity;
//   3. queues the due ones: a row is claimed by one conditional UPDATE, in the same transaction
//      as its outbox message, so exactly one instance queues it.
// The week maths is the timetable's (remindedClasses in app/lib/course-reminders.ts).
import crypto from "node:crypto";
import * as msg from "~/lib/messages";
import { remindedClasses } from "~/lib/course-reminders";
import { COURSE_REMINDER_MINUTES, FALLBACK_TERM_INFO, classTime, weekdayLabel } from "~/lib/schedule";
import type { CalendarEntry } from "~/lib/school-calendar";
import { fillTemplate } from "~/lib/template";
import { shanghaiDate } from "~/lib/time";
import { db } from "../db/db.server";
import { log } from "../log.server";
import { listEdits } from "../schedule/edits.server";
import { schoolCalendar } from "../schedule/school-calendar.server";
import type { Course, TermInfo, Timetable } from "../school/index.server";
import { notify } from "./notify.server";
import { cancelMessage } from "./outbox.server";

/** Reminders are scheduled this far ahead (a changed timetable cancels them until they are due). */
export const REMINDER_HORIZON_MS = 24 * 60 * 60_000;
export const REMINDER_LEAD_MS = COURSE_REMINDER_MINUTES * 60_000;
/** Finished reminders are kept a week, then removed. */
export const REMINDER_RETENTION_MS = 7 * 24 * 60 * 60_000;

export type ReminderRun = { scheduled: number; cancelled: number; queued: number; missed: number };

function parse<T>(text: string | undefined): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The key of one class meeting: a changed name, room, periods or date is another class. */
export function occurrenceKey(term: string, course: Pick<Course, "name" | "location" | "startPeriod" | "endPeriod">, date: string) {
  const text = [term, course.name, course.location, course.startPeriod, course.endPeriod, date].join("|");
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** '11月24日 周一 08:10-09:40' */
export function reminderTimeText(course: Pick<Course, "startPeriod" | "endPeriod">, startsAt: Date) {
  const { start, end } = classTime(course);
  const date = shanghaiDate(startsAt);
  return fillTemplate(msg.notify.message.reminderTime, { month: date.month, day: date.day, weekday: weekdayLabel(date.weekday), start, end });
}

type ReminderCourse = Pick<Course, "name" | "location" | "startPeriod" | "endPeriod">;
type Planned = { key: string; course: ReminderCourse; startsAt: Date; endsAt: Date };
/** One run's reads shared by its students: a school's term info and 校历. */
type RunMemo = Map<string, Promise<{ info: TermInfo; calendar: CalendarEntry[] }>>;

function schoolTerm(schoolCode: string | null, memo: RunMemo) {
  const key = schoolCode ?? "";
  let found = memo.get(key);
  if (!found) {
    found = (async () => {
      const termRow = schoolCode
        ? await db().selectFrom("school_term_info").select("data").where("school_code", "=", schoolCode).executeTakeFirst()
        : undefined;
      const info = parse<TermInfo>(termRow?.data) ?? FALLBACK_TERM_INFO;
      return { info, calendar: await schoolCalendar(schoolCode, info.currentTerm) };
    })();
    memo.set(key, found);
  }
  return found;
}

/** The student's class meetings starting within the horizon, as /schedule shows the current term. */
async function upcoming(userId: number, schoolCode: string | null, now: Date, memo: RunMemo): Promise<Planned[]> {
  const { info, calendar } = await schoolTerm(schoolCode, memo);
  const cache = await db().selectFrom("timetable_cache").select("data").where("user_id", "=", userId).where("term", "=", info.currentTerm).executeTakeFirst();
  const timetable = parse<Timetable>(cache?.data);
  const synced = timetable && Array.isArray(timetable.courses) ? timetable.courses : [];
  // Own courses count without a cached timetable; with neither there is nothing to remind of.
  const edits = await listEdits(userId, info.currentTerm);
  if (synced.length === 0 && edits.length === 0) return [];
  return remindedClasses(synced, edits, info.week1Start, calendar, now, new Date(now.getTime() + REMINDER_HORIZON_MS)).map((occurrence) => ({
    key: occurrenceKey(info.currentTerm, occurrence.course, occurrence.date),
    course: occurrence.course,
    startsAt: occurrence.startsAt,
    endsAt: occurrence.endsAt,
  }));
}

/** Students who want the reminder and can receive it. */
function eligibleUsers() {
  return db()
    .selectFrom("schedule_settings")
    .innerJoin("users", "users.id", "schedule_settings.user_id")
    .select(["users.id", "users.school_code"])
    .where("schedule_settings.course_reminder", "=", 1)
    .where("users.openid", "is not", null)
    .where("users.deletion_requested_at", "is", null);
}

export async function runCourseReminders(now = new Date()): Promise<ReminderRun> {
  const run: ReminderRun = { scheduled: 0, cancelled: 0, queued: 0, missed: 0 };
  const nowIso = now.toISOString();

  const memo: RunMemo = new Map();
  for (const user of await eligibleUsers().execute()) {
    const planned = await upcoming(user.id, user.school_code, now, memo);
    for (const item of planned) {
      const values = {
        user_id: user.id,
        occurrence_key: item.key,
        course_name: item.course.name,
        place: item.course.location || msg.notify.message.placeUnknown,
        time_text: reminderTimeText(item.course, item.startsAt),
        starts_at: item.startsAt.toISOString(),
        ends_at: item.endsAt.toISOString(),
        remind_at: new Date(item.startsAt.getTime() - REMINDER_LEAD_MS).toISOString(),
        state: "scheduled" as const,
        outbox_id: null,
        created_at: nowIso,
        updated_at: nowIso,
      };
      const inserted = await db()
        .insertInto("course_reminders")
        .values(values)
        // A class that came back after a change is scheduled again.
        .onConflict((oc) => oc.columns(["user_id", "occurrence_key"]).doUpdateSet({ state: "scheduled", updated_at: nowIso }).where("course_reminders.state", "=", "cancelled"))
        .executeTakeFirst();
      run.scheduled += Number(inserted.numInsertedOrUpdatedRows ?? 0);
    }
    run.cancelled += await cancelVanished(user.id, planned.map((item) => item.key), now);
  }

  // Switch off, identity gone, account being deleted: their scheduled reminders are cancelled.
  const dropped = await db()
    .updateTable("course_reminders")
    .set({ state: "cancelled", updated_at: nowIso })
    .where("state", "=", "scheduled")
    .where("user_id", "not in", eligibleUsers().clearSelect().select("users.id"))
    .executeTakeFirst();
  run.cancelled += Number(dropped.numUpdatedRows);

  const due = await db()
    .selectFrom("course_reminders")
    .selectAll()
    .where("state", "=", "scheduled")
    .where("remind_at", "<=", nowIso)
    .orderBy("remind_at")
    .execute();
  for (const reminder of due) {
    if (reminder.starts_at <= nowIso) {
      const missed = await db().updateTable("course_reminders").set({ state: "missed", updated_at: nowIso }).where("id", "=", reminder.id).where("state", "=", "scheduled").executeTakeFirst();
      run.missed += Number(missed.numUpdatedRows);
      continue;
    }
    const queued = await db()
      .transaction()
      .execute(async (trx) => {
        const claimed = await trx
          .updateTable("course_reminders")
          .set({ state: "queued", updated_at: nowIso })
          .where("id", "=", reminder.id)
          .where("state", "=", "scheduled")
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) return false; // another instance has it
        const result = await notify(
          {
            kind: "course_reminder",
            recipientUserId: reminder.user_id,
            data: {
              reminderId: reminder.id,
              course: reminder.course_name,
              time: reminder.time_text,
              place: reminder.place,
              startsAt: reminder.starts_at,
              endsAt: reminder.ends_at,
            },
          },
          { executor: trx, now },
        );
        await trx.updateTable("course_reminders").set({ outbox_id: result.outboxIds[0] ?? null }).where("id", "=", reminder.id).execute();
        return true;
      });
    if (queued) run.queued += 1;
  }

  await db().deleteFrom("course_reminders").where("ends_at", "<", new Date(now.getTime() - REMINDER_RETENTION_MS).toISOString()).execute();
  if (run.queued + run.cancelled + run.missed > 0) log("info", "course-reminders", run);
  return run;
}

/** Reminders of this user's classes (still ahead) that the timetable no longer has. */
async function cancelVanished(userId: number, keys: string[], now: Date): Promise<number> {
  const nowIso = now.toISOString();
  let query = db()
    .selectFrom("course_reminders")
    .select(["id", "state", "outbox_id"])
    .where("user_id", "=", userId)
    .where("state", "in", ["scheduled", "queued"])
    .where("starts_at", ">", nowIso);
  if (keys.length > 0) query = query.where("occurrence_key", "not in", keys);
  let cancelled = 0;
  for (const row of await query.execute()) {
    const done = await db().transaction().execute(async (trx) => {
      // A queued reminder is withdrawn only while its message has not gone out.
      if (row.state === "queued" && !(row.outbox_id && (await cancelMessage(trx, row.outbox_id, now)))) return false;
      const result = await trx
        .updateTable("course_reminders")
        .set({ state: "cancelled", updated_at: nowIso })
        .where("id", "=", row.id)
        .where("state", "=", row.state)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
    if (done) cancelled += 1;
  }
  return cancelled;
}
