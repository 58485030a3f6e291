// The inbox on SQLite and PostgreSQL: notify() writes items for replies, likes and order status
// changes; the unread count is the backpack's badge; opening an item marks it read; 'mark all
// read'; paging; duplicates, self-likes and accounts being deleted count nothing.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { loader as backpackLoader } from "~/routes/backpack._index";
import { action as inboxAction, loader as inboxLoader } from "~/routes/backpack.inbox";
import { loader as openLoader } from "~/routes/backpack.inbox_.$id";
import { db, now } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { unreadCount } from "./inbox.server";
import { notify } from "./notify.server";

type Loader = (args: LoaderFunctionArgs) => unknown;

async function load<T>(loader: Loader, path: string, cookie: string, params: Record<string, string> = {}): Promise<T> {
  return (await loader({ request: request(path, { cookie }), params, context: {} })) as T;
}

type InboxData = Awaited<ReturnType<typeof inboxLoader>>;
type BackpackData = Awaited<ReturnType<typeof backpackLoader>>;

async function thrown(run: () => unknown): Promise<Response> {
  try {
    const value = await run();
    return value as Response;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

describe("the inbox", () => {
  it("counts unread items, shows them newest first, and the backpack's badge follows", async () => {
    const me = await createStudent();
    const other = await createStudent({ nickname: "小李" });
    const cookie = await sessionCookieFor(me.id);

    let backpack = await load<BackpackData>(backpackLoader, "/backpack", cookie);
    expect(backpack.inbox).toBeNull();

    await notify({ kind: "post_reply", recipientUserId: me.id, data: { postId: 7, commentId: 70, actorUserId: other.id, actorName: "小李", excerpt: "周六一起去图书馆吗？\n带上资料" } });
    await notify({ kind: "post_liked", recipientUserId: me.id, data: { postId: 7, actorUserId: other.id, actorName: "小李", excerpt: "求组队复习高数" } });
    await notify({ kind: "comment_liked", recipientUserId: me.id, data: { postId: 8, commentId: 81, actorUserId: other.id, actorName: "匿名同学", excerpt: "谢谢分享" } });
    await notify({
      kind: "order_status",
      recipientUserId: me.id,
      data: { status: "delivering", orderNumber: "E20260302000042", amountFen: 300, parcelCount: 1, campusName: "瑶湖校区", dorm: "西苑3栋", room: "502" },
    });
    // The two likes of the day are one item (the latest named, and how many).
    expect(await unreadCount(me.id)).toBe(3);

    backpack = await load<BackpackData>(backpackLoader, "/backpack", cookie);
    expect(backpack.inbox).toEqual({ text: "3", label: "3 条未读" });

    const page = await load<InboxData>(inboxLoader, "/backpack/inbox", cookie);
    expect(page.unread).toBe(3);
    expect(page.items.map((item) => [item.title, item.body, item.icon, item.unread])).toEqual([
      ["订单 E20260302000042", "骑手正在配送，请留意", "order", true],
      ["今天收到 2 个赞（最新来自 匿名同学）", "谢谢分享", "heart", true],
      ["小李 评论了你的帖子", "周六一起去图书馆吗？ 带上资料", "chat", true],
    ]);
    // Nothing in the page data says who the actor is beyond the name the post shows.
    expect(JSON.stringify(page)).not.toContain(`"actorUserId"`);
    expect(JSON.stringify(page)).not.toContain(`"seen"`);

    // Opening the reply marks it read and goes to the comment.
    const reply = page.items[2];
    const opened = await thrown(() => openLoader({ request: request(reply.href, { cookie }), params: { id: String(reply.id) }, context: {} }));
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe("/post/7#comment-70");
    expect(await unreadCount(me.id)).toBe(2);
    // Opening it again changes nothing.
    await openLoader({ request: request(reply.href, { cookie }), params: { id: String(reply.id) }, context: {} });
    expect(await unreadCount(me.id)).toBe(2);

    // The order item leads to the order page.
    const orderItem = page.items[0];
    const toOrder = await thrown(() => openLoader({ request: request(orderItem.href, { cookie }), params: { id: String(orderItem.id) }, context: {} }));
    expect(toOrder.headers.get("Location")).toBe("/express/orders/E20260302000042");

    // Another student cannot open (or mark read) my items.
    const otherCookie = await sessionCookieFor(other.id);
    const foreign = await thrown(() => openLoader({ request: request(page.items[1].href, { cookie: otherCookie }), params: { id: String(page.items[1].id) }, context: {} }));
    expect(foreign.status).toBe(404);
    expect(await unreadCount(me.id)).toBe(1);

    // Mark all read.
    const done = (await inboxAction({ request: request("/backpack/inbox", { method: "POST", body: new URLSearchParams({ intent: "read-all" }), cookie }), params: {}, context: {} })) as Response;
    expect(done.status).toBe(302);
    expect(await unreadCount(me.id)).toBe(0);
    backpack = await load<BackpackData>(backpackLoader, "/backpack", cookie);
    expect(backpack.inbox).toBeNull();
    expect((await load<InboxData>(inboxLoader, "/backpack/inbox", cookie)).items.every((item) => !item.unread)).toBe(true);
  });

  it("counts an event once: the same like twice, the same order status twice; never my own like; nothing for an account being deleted", async () => {
    const me = await createStudent();
    const other = await createStudent();
    const like = { kind: "post_liked" as const, recipientUserId: me.id, data: { postId: 9, actorUserId: other.id, actorName: "小王", excerpt: "二手自行车" } };
    expect((await notify(like)).inboxItemId).not.toBeNull();
    expect(await notify(like)).toMatchObject({ inboxItemId: null, skipped: "duplicate" });
    expect(await notify({ ...like, data: { ...like.data, actorUserId: me.id } })).toMatchObject({ skipped: "self" });
    const paid = { status: "paid" as const, orderNumber: "E20260302000777", amountFen: 200, parcelCount: 1, campusName: "瑶湖校区", dorm: "西苑1栋", room: "101" };
    await notify({ kind: "order_status", recipientUserId: me.id, data: paid });
    expect(await notify({ kind: "order_status", recipientUserId: me.id, data: paid })).toMatchObject({ skipped: "duplicate", outboxIds: [] });
    await notify({ kind: "order_status", recipientUserId: me.id, data: { ...paid, status: "completed" } });
    expect(await unreadCount(me.id)).toBe(3);

    const leaving = await createStudent({ deletion_requested_at: now() });
    expect(await notify({ ...like, recipientUserId: leaving.id })).toMatchObject({ skipped: "no_recipient" });
    expect(await unreadCount(leaving.id)).toBe(0);
  });

  it("a student without a messenger identity gets the inbox item but no messenger message", async () => {
    const me = await createStudent({ openid: null });
    const result = await notify({
      kind: "order_status",
      recipientUserId: me.id,
      data: { status: "paid", orderNumber: "E20260302000888", amountFen: 200, parcelCount: 1, campusName: "瑶湖校区", dorm: "西苑1栋", room: "101" },
    });
    expect(result.inboxItemId).not.toBeNull();
    expect(await db().selectFrom("outbox_messages").select("id").where("user_id", "=", me.id).where("operator_id", "is", null).execute()).toHaveLength(0);
  });

  it("pages 20 at a time, newest first", async () => {
    const me = await createStudent();
    const other = await createStudent();
    const cookie = await sessionCookieFor(me.id);
    for (let i = 1; i <= 25; i += 1) {
      await notify({ kind: "post_reply", recipientUserId: me.id, data: { postId: 1, commentId: 1000 + i, actorUserId: other.id, actorName: "小赵", excerpt: `回复${i}` } });
    }
    const first = await load<InboxData>(inboxLoader, "/backpack/inbox", cookie);
    expect(first.items).toHaveLength(20);
    expect(first.items[0].body).toBe("回复25");
    expect(first.nextBefore).toBe(first.items[19].id);
    const second = await load<InboxData>(inboxLoader, `/backpack/inbox?before=${first.nextBefore}`, cookie);
    expect(second.items.map((item) => item.body)).toEqual(["回复5", "回复4", "回复3", "回复2", "回复1"]);
    expect(second.nextBefore).toBeNull();
    expect(second.unread).toBe(25);
  });

  it("needs a student login", async () => {
    const response = await thrown(() => inboxLoader({ request: request("/backpack/inbox"), params: {}, context: {} }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/crLogin\?redirectTo=%2Fbackpack%2Finbox/);
  });
});
