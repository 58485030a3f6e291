// The in-app inbox (/backpack/inbox): the user's items newest first, the unread count the
// backpack shows as its badge, and marking read. Every query is scoped by the owner, so another
// user's item id is simply not found.
import { INBOX_PAGE_SIZE, badgeText, inboxText, type InboxText } from "~/lib/notify";
import { commentTime } from "~/lib/relative-time";
import { db } from "../db/db.server";

/** The unread count (inbox_items_unread_idx; the query-plan test reads it). */
export function unreadCountQuery(userId: number) {
  return db()
    .selectFrom("inbox_items")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("read_at", "is", null);
}

export async function unreadCount(userId: number): Promise<number> {
  const row = await unreadCountQuery(userId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The backpack's badge: '7' (or '99+') and the count it stands for (the page words it for screen readers); null without unread items. */
export async function inboxBadge(userId: number): Promise<{ text: string; count: number } | null> {
  const count = await unreadCount(userId);
  const text = badgeText(count);
  return text ? { text, count } : null;
}

export type InboxView = InboxText & { id: number; unread: boolean; time: string; at: string; href: string };

function parse(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One page of a user's items, newest first, below `before` (inbox_items_list_idx; the query-plan test reads it). */
export function inboxQuery(userId: number, options: { before?: number | null; limit: number }) {
  let query = db()
    .selectFrom("inbox_items")
    .select(["id", "kind", "data", "read_at", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(options.limit);
  if (options.before) query = query.where("id", "<", options.before);
  return query;
}

/** One page, newest first; `before` is the id the previous page ended at. */
export async function listInbox(userId: number, options: { before?: number | null; now?: Date; limit?: number } = {}) {
  const limit = options.limit ?? INBOX_PAGE_SIZE;
  const now = options.now ?? new Date();
  const rows = await inboxQuery(userId, { before: options.before, limit: limit + 1 }).execute();
  const items: InboxView[] = rows.slice(0, limit).map((row) => ({
    id: row.id,
    ...inboxText(row.kind, parse(row.data)),
    unread: row.read_at === null,
    time: commentTime(row.created_at, now),
    at: row.created_at,
    href: `/backpack/inbox/${row.id}`,
  }));
  return { items, nextBefore: rows.length > limit ? items[items.length - 1].id : null };
}

/** Opening an item marks it read; answers where it leads (null: not this user's item). */
export async function openItem(userId: number, id: number, now = new Date()): Promise<{ link: string | null } | null> {
  const row = await db().selectFrom("inbox_items").select(["link", "read_at"]).where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (!row) return null;
  if (!row.read_at) {
    await db()
      .updateTable("inbox_items")
      .set({ read_at: now.toISOString() })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .where("read_at", "is", null)
      .execute();
  }
  return { link: row.link };
}

export async function markAllRead(userId: number, now = new Date()) {
  const result = await db()
    .updateTable("inbox_items")
    .set({ read_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
