// notify(event): the only way other code sends anything. It writes the recipient's inbox item
// (for the kinds the inbox shows) and queues the outbox messages the event's kind sends — in
// the caller's transaction when one is passed (so an order's status change and its messages
// commit together), else in its own. An event with the same natural key (the same like, the same
// order status) counts once: the second call changes nothing.
//
//   await notify({ kind: "post_reply", recipientUserId: post.user_id,
//                  data: { postId, commentId, actorUserId: me.id, actorName: "匿名同学", excerpt } });
//   await notify({ kind: "order_status", recipientUserId: order.user_id,
//                  data: { status: "paid", orderNumber, amountFen, parcelCount, campusName, dorm, room } }, { executor: trx });
import {
  EXCERPT_MAX,
  circleLink,
  clip,
  consentUsable,
  isInboxKind,
  noticeSwitchOf,
  newGradesCourses,
  plannedMessages,
  type NotifyEvent,
  type PlannedMessage,
} from "~/lib/notify";
import { shanghaiToday } from "~/lib/time";
import { db, type Executor } from "../db/db.server";
import { log } from "../log.server";
import { enqueue } from "./outbox.server";

export type { NotifyEvent, NotifyKind, OrderEventData, CircleEventData } from "~/lib/notify";

export type NotifyResult = {
  /** The inbox item written (null: not an inbox kind, or this event was already recorded). */
  inboxItemId: number | null;
  /** Outbox messages queued. */
  outboxIds: number[];
  /** Why nothing happened, when nothing did. */
  skipped?: "no_recipient" | "self" | "duplicate" | "switched_off";
};

/** The event's natural key: a second report of the same thing is recognised by it. */
export function eventKey(event: NotifyEvent, now = new Date()): string {
  switch (event.kind) {
    case "post_reply":
    case "comment_reply":
    case "comment_mention":
      return `${event.kind}:${event.data.commentId ?? event.data.postId}`;
    case "post_liked":
    case "comment_liked":
      // The likes of a day gather in one item (see recordLike).
      return `likes:${shanghaiToday(now)}`;
    case "order_status":
      return `order:${event.data.orderNumber}:${event.data.status}`;
    case "course_reminder":
      return `course_reminder:${event.data.reminderId}`;
    case "announcement":
      return `announcement:${event.data.announcementId}`;
    case "new_grades":
      return `new_grades:${event.data.discoveryKey}`;
    case "help_offered":
      return `help_offered:${event.data.postId}:${event.data.actorUserId}`;
    case "help_contact":
      return `help_contact:${event.data.postId}`;
  }
}

/** What the inbox item keeps: the fields it renders, never the actor's identity. */
function inboxEntry(event: NotifyEvent): { data: Record<string, unknown>; link: string | null; actorUserId: number | null } | null {
  switch (event.kind) {
    case "post_reply":
    case "comment_reply":
    case "comment_mention":
    case "post_liked":
    case "comment_liked": {
      const { postId, commentId, actorName, excerpt, actorUserId } = event.data;
      return {
        data: { postId, commentId: commentId ?? null, actorName: clip(actorName, 32), excerpt: clip(excerpt.replace(/\s+/g, " ").trim(), EXCERPT_MAX) },
        link: circleLink(event.data),
        actorUserId,
      };
    }
    case "order_status":
      return {
        data: { orderNumber: event.data.orderNumber, status: event.data.status, ...(event.data.supplement ? { supplement: event.data.supplement } : {}) },
        link: `/express/orders/${encodeURIComponent(event.data.orderNumber)}`,
        actorUserId: null,
      };
    case "announcement":
      return {
        data: { title: clip(event.data.title, 40), content: clip(event.data.content, 200) },
        link: event.data.link ?? null,
        actorUserId: null,
      };
    case "new_grades":
      return { data: { courses: newGradesCourses(event.data), count: event.data.count }, link: "/backpack/grades", actorUserId: null };
    case "help_offered":
    case "help_contact": {
      const { postId, actorName, course, contact, actorUserId } = event.data;
      return {
        data: { postId, actorName: clip(actorName, 32), course: clip(course, 40), contact },
        link: `/post/${postId}/help`,
        // Deleting either account takes the item (and the contact it carries) with it.
        actorUserId,
      };
    }
    default:
      return null;
  }
}

export async function notify(event: NotifyEvent, options: { executor?: Executor; now?: Date } = {}): Promise<NotifyResult> {
  const now = options.now ?? new Date();
  if ("actorUserId" in event.data && event.data.actorUserId === event.recipientUserId) {
    return { inboxItemId: null, outboxIds: [], skipped: "self" };
  }
  const run = (executor: Executor) => record(executor, event, now);
  const result = options.executor ? await run(options.executor) : await db().transaction().execute((trx) => run(trx));
  if (result.outboxIds.length > 0) log("info", "notify-queued", { kind: event.kind, messages: result.outboxIds.length });
  return result;
}

async function record(executor: Executor, event: NotifyEvent, now: Date): Promise<NotifyResult> {
  const recipient = await executor
    .selectFrom("users")
    .select(["id", "openid", "deletion_requested_at"])
    .where("id", "=", event.recipientUserId)
    .executeTakeFirst();
  if (!recipient || recipient.deletion_requested_at) return { inboxItemId: null, outboxIds: [], skipped: "no_recipient" };

  // The circle's notices each have a switch in the settings (on unless switched off).
  const noticeSwitch = noticeSwitchOf(event.kind);
  if (noticeSwitch && !(await noticeOn(executor, recipient.id, noticeSwitch))) return { inboxItemId: null, outboxIds: [], skipped: "switched_off" };
  const key = eventKey(event, now);
  let inboxItemId: number | null = null;
  const entry = isInboxKind(event.kind) ? inboxEntry(event) : null;
  if (entry && (event.kind === "post_liked" || event.kind === "comment_liked")) {
    inboxItemId = await recordLike(executor, recipient.id, event.data.actorUserId, `${event.kind}:${event.data.commentId ?? event.data.postId}`, key, entry, now);
    return inboxItemId === null ? { inboxItemId, outboxIds: [], skipped: "duplicate" } : { inboxItemId, outboxIds: [] };
  }
  if (entry) {
    inboxItemId = await insertInboxItem(executor, { userId: recipient.id, actorUserId: entry.actorUserId, kind: event.kind, data: entry.data, link: entry.link, key }, now);
    if (inboxItemId === null) return { inboxItemId: null, outboxIds: [], skipped: "duplicate" };
  }

  const outboxIds: number[] = [];
  // Announcements reach the messenger only when the 'announcement reminder' switch is on.
  if (event.kind === "announcement" && !(await announcementSwitchOn(executor, recipient.id))) return { inboxItemId, outboxIds };
  // New grades reach the messenger only when the student opted in on the grades page.
  if (event.kind === "new_grades" && !(await gradeNoticeOn(executor, recipient.id))) return { inboxItemId, outboxIds };
  for (const planned of plannedMessages(event, now)) {
    for (const target of await targets(executor, planned, recipient, now)) {
      const id = await enqueue(
        executor,
        {
          user_id: recipient.id,
          operator_id: target.operatorId,
          openid: target.openid,
          kind: event.kind,
          template_key: planned.templateKey,
          subscribe_key: planned.subscribeKey,
          channel: planned.templateKey ? "template" : "subscribe",
          data: JSON.stringify(planned.fields),
          link: planned.path,
          dedupe_key: `${recipient.id}:${key}:${planned.templateKey ?? planned.subscribeKey}:${target.operatorId ?? "user"}`,
          expires_at: planned.expiresAt ?? null,
        },
        now,
      );
      if (id !== null) outboxIds.push(id);
    }
  }
  return { inboxItemId, outboxIds };
}

async function noticeOn(executor: Executor, userId: number, which: "replies" | "mentions" | "likes") {
  const row = await executor.selectFrom("notice_settings").select(["replies", "mentions", "likes"]).where("user_id", "=", userId).executeTakeFirst();
  return !row || row[which] === 1;
}

/** At most this many likes are remembered in a day's item (a like taken back and given again counts once). */
const LIKES_REMEMBERED = 200;

/**
 * A like joins the recipient's item of the day: the latest liker named, the count of different
 * likes (a like taken back and given again counts once). The item moves to the top as new (a new
 * row replaces the day's, so the list's order by id stays the order of news). Null: already counted.
 */
async function recordLike(
  executor: Executor,
  userId: number,
  actorUserId: number,
  target: string,
  key: string,
  entry: { data: Record<string, unknown>; link: string | null; actorUserId: number | null },
  now: Date,
): Promise<number | null> {
  const seenKey = `${actorUserId}:${target}`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const today = await executor.selectFrom("inbox_items").select(["id", "data"]).where("user_id", "=", userId).where("dedupe_key", "=", key).executeTakeFirst();
    const before = today ? parseData(today.data) : {};
    const seen = Array.isArray(before.seen) ? (before.seen as unknown[]).filter((item): item is string => typeof item === "string") : [];
    if (seen.includes(seenKey)) return null;
    const count = (typeof before.count === "number" ? before.count : 0) + 1;
    if (today) await executor.deleteFrom("inbox_items").where("id", "=", today.id).execute();
    const inserted = await insertInboxItem(
      executor,
      {
        userId,
        // The latest liker: deleting their account takes the day's item with it (it names them).
        actorUserId: entry.actorUserId,
        kind: target.startsWith("comment_liked") ? "comment_liked" : "post_liked",
        data: { ...entry.data, count, seen: [...seen, seenKey].slice(-LIKES_REMEMBERED) },
        link: entry.link,
        key,
      },
      now,
    );
    if (inserted !== null) return inserted;
    // Another like of the same moment wrote the day's item first: join it.
  }
  return null;
}

/** A new unread inbox item; null when the recipient already has one under `key`. */
async function insertInboxItem(
  executor: Executor,
  item: { userId: number; actorUserId: number | null; kind: NotifyEvent["kind"]; data: Record<string, unknown>; link: string | null; key: string },
  now: Date,
): Promise<number | null> {
  const inserted = await executor
    .insertInto("inbox_items")
    .values({
      user_id: item.userId,
      actor_user_id: item.actorUserId,
      kind: item.kind,
      data: JSON.stringify(item.data),
      link: item.link,
      dedupe_key: item.key,
      read_at: null,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(["user_id", "dedupe_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted?.id ?? null;
}

function parseData(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function announcementSwitchOn(executor: Executor, userId: number) {
  const row = await executor.selectFrom("schedule_settings").select("announcement_reminder").where("user_id", "=", userId).executeTakeFirst();
  return row?.announcement_reminder === 1;
}

async function gradeNoticeOn(executor: Executor, userId: number) {
  const row = await executor.selectFrom("grade_settings").select("notify_new_grades").where("user_id", "=", userId).executeTakeFirst();
  return row?.notify_new_grades === 1;
}

type Target = { openid: string; operatorId: number | null };

/** The operators the operators' messages (a new paid order) reach: enabled, with a linked messenger. */
function linkedOperators(executor: Pick<Executor, "selectFrom">) {
  return executor.selectFrom("operators").where("openid", "is not", null).where("disabled", "=", 0);
}

/** How many operators a new order's message reaches now (0: nobody hears of new orders). */
export async function linkedOperatorCount(): Promise<number> {
  const row = await linkedOperators(db()).select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Who receives a planned message: the recipient's messenger identity (a subscribe-only message
 * only while they hold an unused consent), or every enabled operator with a linked openid.
 */
async function targets(
  executor: Executor,
  planned: PlannedMessage,
  recipient: { id: number; openid: string | null },
  now: Date,
): Promise<Target[]> {
  if (planned.to === "operators") {
    const operators = await linkedOperators(executor).select(["id", "openid"]).orderBy("id").execute();
    return operators.map((operator) => ({ openid: operator.openid!, operatorId: operator.id }));
  }
  if (!recipient.openid) return [];
  if (!planned.templateKey && planned.subscribeKey) {
    const consent = await executor
      .selectFrom("subscribe_consents")
      .select(["confirmed_at", "used_at"])
      .where("user_id", "=", recipient.id)
      .where("template_key", "=", planned.subscribeKey)
      .executeTakeFirst();
    if (!consentUsable(consent ? { confirmedAt: consent.confirmed_at, usedAt: consent.used_at } : null, now)) return [];
  }
  return [{ openid: recipient.openid, operatorId: null }];
}
