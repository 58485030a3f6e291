// Every list a page reads is served by an index. This file compiles the very query
// builders the loaders execute (feedQuery, commentsQuery, customerOrdersQuery, listQuery, …) and
// asks each database for its plan.
//
// SQLite: `EXPLAIN QUERY PLAN` names the access path of each table ("SEARCH t USING INDEX i",
// "SCAN t" for a full scan, "USE TEMP B-TREE FOR ORDER BY" for a sort after the lookup). Its
// planner decides from the schema alone unless sqlite_stat1 exists (the app never runs ANALYZE on
// its own), so the plans here are the plans production gets.
//
// PostgreSQL: the planner chooses by cost, and on a test table of a few hundred rows a sequential
// scan is honestly the cheapest, which would say nothing about the campus-size tables. So each
// EXPLAIN runs in a transaction with `SET LOCAL enable_seqscan = off` and
// `SET LOCAL enable_sort = off` (the latter only for lists whose order must come from the index):
// both only add a huge cost to those nodes, they never forbid them. A "Seq Scan" or a "Sort" that
// still appears therefore means no index can serve the query (or its order), which is exactly
// the property under test; when an index can, the plan shows which.
// The tables are filled and ANALYZEd first (autovacuum does it in production), so the
// statistics are not the empty-table defaults.
import { CompiledQuery, sql, type Insertable } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { statusesOf } from "~/lib/order-status";
import { createStudent } from "../../../tests/setup/helpers";
import { listQuery, storedCountsQuery } from "../admin/orders.server";
import { sessionQuery } from "../auth/session.server";
import { usableCouponsQuery, walletQuery } from "../coupons/wallet.server";
import { addressesQuery } from "../market/addresses.server";
import { favouritesQuery, feedQuery, hotFeedQuery, likedCommentsQuery, replyCountsQuery, threadRepliesQuery, topCommentsQuery, likedPostsQuery, myPostsQuery, postImagesQuery } from "../forum/posts.server";
import { inboxQuery, unreadCountQuery } from "../notify/inbox.server";
import { dueQuery } from "../notify/outbox.server";
import { customerOrdersQuery } from "../orders/orders.server";
import { timetableCacheQuery } from "../schedule/timetable.server";
import { riderLoadQuery, rosterQuery } from "../riders/riders.server";
import { picksOfOrdersQuery, riderOrdersQuery, riderSlotsQuery, slotOrdersQuery, slotPicksQuery, slotsQuery } from "../riders/run.server";
import { db, dialect, now } from "./db.server";
import type { Database } from "./schema";

const PAGE = 21;
const isPostgres = dialect() === "postgres";

async function plan(query: { compile(): CompiledQuery }, options: { sortAllowed?: boolean } = {}): Promise<string[]> {
  const compiled = query.compile();
  if (!isPostgres) {
    const result = await db().executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    return result.rows.map((row) => row.detail);
  }
  return db()
    .transaction()
    .execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      if (!options.sortAllowed) await sql`SET LOCAL enable_sort = off`.execute(trx);
      const result = await trx.executeQuery<{ "QUERY PLAN": string }>(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]));
      return result.rows.map((row) => row["QUERY PLAN"].trim());
    });
}

type Expectation = {
  /** The index (or primary key) that must serve the table the list is about. */
  index: string | RegExp;
  /** The order comes from the index: no sort step. False only for lists bounded per user (≤ 20 rows). */
  noSort?: boolean;
};

/** Full scans of any table, and sorts, in a plan. */
function problems(lines: string[], expectation: Expectation) {
  const text = lines.join("\n");
  const found: string[] = [];
  for (const line of lines) {
    if (isPostgres ? /Seq Scan on/.test(line) : /^SCAN \w+/.test(line) && !/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/.test(line)) {
      found.push(`full scan: ${line}`);
    }
    // PostgreSQL: a "Sort" or an "Incremental Sort" (an index giving only the first keys of the order).
    if ((expectation.noSort ?? true) && (isPostgres ? /^(->\s*)?(Incremental )?Sort\s+\(/.test(line) : /TEMP B-TREE/.test(line))) {
      found.push(`sort: ${line}`);
    }
  }
  const index = typeof expectation.index === "string" ? new RegExp(`\\b${expectation.index}\\b`) : expectation.index;
  if (!index.test(text)) found.push(`index ${String(index)} not used`);
  return found;
}

async function expectIndexed(name: string, query: { compile(): CompiledQuery }, expectation: Expectation) {
  const lines = await plan(query, { sortAllowed: expectation.noSort === false });
  if (process.env.SHOW_PLANS) process.stderr.write(`PLAN ${dialect()} ${name}:\n  ${lines.join("\n  ")}\n`);
  expect(problems(lines, expectation), `${name}:\n${lines.join("\n")}`).toEqual([]);
}

/**
 * The index a list must use; on PostgreSQL also `alternatives`: other indexes the cost-based
 * planner may prefer when its statistics and the table's physical order say so — an index that
 * delivers the list's order, walked until the limit (a common category, orders stored in date
 * order), or the viewer's few likes. Either way no table scan and no full sort.
 */
function served(index: string | RegExp, ...alternatives: string[]): RegExp {
  const main = typeof index === "string" ? `\\b${index}\\b` : index.source;
  return new RegExp(isPostgres && alternatives.length > 0 ? `${main}|${alternatives.map((name) => `\\b${name}\\b`).join("|")}` : main);
}

// A primary key: PostgreSQL names it <table>_pkey (or the migration's <table>_pk); SQLite reports
// a rowid lookup or sqlite_autoindex_<table>_N.
const pk = (table: string) =>
  isPostgres ? new RegExp(`\\b${table}_pk(ey)?\\b`) : new RegExp(`sqlite_autoindex_${table}_\\d|${table} USING INTEGER PRIMARY KEY`);

let userId: number;
let postId: number;
let rootCommentId: number;

/** Inserts rows 500 at a time (under both databases' limits on bound parameters); answers their ids. */
async function bulk<
  T extends "users" | "posts" | "comments" | "post_likes" | "inbox_items" | "user_coupons" | "addresses" | "orders" | "outbox_messages" | "sessions"
>(table: T, rows: Insertable<Database[T]>[]): Promise<{ id: number }[]> {
  const ids: { id: number }[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500) as never;
    if (table === "post_likes" || table === "sessions") await db().insertInto(table).values(chunk).execute();
    else
      ids.push(
        ...((await db()
          .insertInto(table)
          .values(chunk)
          .returning(sql<number>`id`.as("id"))
          .execute()) as { id: number }[])
      );
  }
  return ids;
}

beforeAll(async () => {
  const at = now();
  // Thousands of rows of 200 owners in several states: one user's rows are a small part of each
  // table (as on a campus), and PostgreSQL's costs tell a lookup from a walk through a whole index.
  const users = [await createStudent({ nickname: "计划" })];
  const others = await bulk(
    "users",
    Array.from({ length: 199 }, (_, i) => ({ nickname: `同学${i}`, openid: `plan-openid-${i}`, created_at: at, updated_at: at }))
  );
  const ids = [users[0]!.id, ...others.map((row) => row.id)];
  userId = ids[0]!;
  const owner = (i: number) => ids[i % ids.length]!;
  const posts = await bulk(
    "posts",
    Array.from({ length: 4000 }, (_, i) => ({
      user_id: owner(i),
      // Category 2 is a small one (1 post in 20): its page must come from posts_category_idx.
      category_id: i % 20 ? 1 : 2,
      content: `帖子 ${i}`,
      visibility: "public",
      is_anonymous: 0,
      view_count: 0,
      comment_count: 0,
      like_count: 0,
      moderation: i % 10 ? ("visible" as const) : ("pending" as const),
      created_at: at,
      updated_at: at,
    }))
  );
  postId = posts[0]!.id;
  const comments = await bulk(
    "comments",
    posts.flatMap((post, i) =>
      [0, 1, 2].map((k) => ({
        post_id: post.id,
        user_id: owner(i + k),
        content: "评论",
        is_anonymous: 0,
        like_count: 0,
        moderation: "visible" as const,
        created_at: at,
      }))
    )
  );
  // One long thread: 600 replies under the first post's first comment.
  rootCommentId = comments[0]!.id;
  await bulk(
    "comments",
    Array.from({ length: 600 }, (_, i) => ({
      post_id: postId,
      user_id: owner(i),
      parent_id: rootCommentId,
      root_id: rootCommentId,
      content: "回复",
      is_anonymous: 0,
      like_count: 0,
      moderation: "visible" as const,
      created_at: at,
    }))
  );
  await db()
    .insertInto("post_favourites")
    .values(posts.slice(0, 400).map((post, i) => ({ user_id: owner(i), post_id: post.id, created_at: new Date(Date.UTC(2026, 8, 1) + i * 60_000).toISOString() })))
    .execute();
  await bulk(
    "post_likes",
    posts.flatMap((post, i) => [1, 2].map((k) => ({ post_id: post.id, user_id: owner(i + k), created_at: at })))
  );
  await bulk(
    "inbox_items",
    Array.from({ length: 4000 }, (_, i) => ({ user_id: owner(i), kind: "comment", data: "{}", read_at: i % 3 ? at : null, created_at: at }))
  );
  await bulk(
    "user_coupons",
    Array.from({ length: 2000 }, (_, i) => ({
      user_id: owner(i),
      name: "5折券",
      type: "percentage" as const,
      percent_paid: 50,
      min_amount_fen: 0,
      status: i % 3 ? ("unused" as const) : ("used" as const),
      expires_at: new Date(Date.now() + i * 3_600_000).toISOString(),
      created_at: at,
      updated_at: at,
    }))
  );
  await bulk(
    "addresses",
    Array.from({ length: 1000 }, (_, i) => ({
      user_id: owner(i),
      name: "张三",
      phone: "13800001234",
      campus_code: "yuntang",
      building: "1栋",
      room: "101",
      is_default: i < ids.length ? 1 : 0,
      created_at: at,
      updated_at: at,
    }))
  );
  await bulk(
    "orders",
    Array.from({ length: 6000 }, (_, i) => ({
      order_number: `E20260302${String(100000 + i)}`,
      user_id: owner(i),
      campus_code: i % 2 ? "jinpenling" : "yuntang",
      campus_name: "校区",
      recipient_name: "张三",
      recipient_phone: "13800001234",
      package_counts: "{}",
      parcel_count: 1,
      original_fen: 300,
      amount_fen: 300,
      // Mostly finished orders; refunds are rare (1 in 100), as on a campus.
      status: i % 100 === 50 ? ("refunded" as const) : (["completed", "completed", "completed", "cancelled", "paid", "created", "delivering"] as const)[i % 7]!,
      payment_status: "paid" as const,
      estimated_delivery_at: at,
      expires_at: at,
      created_at: new Date(Date.UTC(2026, 2, 1) + i * 60_000).toISOString(),
      updated_at: at,
    }))
  );
  await bulk(
    "outbox_messages",
    Array.from({ length: 3000 }, (_, i) => ({
      channel: "template" as const,
      kind: "NEW_ORDER",
      template_key: "NEW_ORDER",
      openid: "plan-openid",
      data: "{}",
      user_id: owner(i),
      state: i % 10 ? ("sent" as const) : ("pending" as const),
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    }))
  );
  await bulk(
    "sessions",
    ids.map((id, i) => ({
      id: `plan-session-${i}`,
      user_id: id,
      device_id: `device-${i}`,
      platform: "web",
      created_at: at,
      expires_at: at,
      ended_at: null,
      end_reason: null,
    }))
  );
  if (isPostgres) await sql`ANALYZE`.execute(db());
});

describe("every list a page reads is served by an index", () => {
  it("the circle: the feed (all and per category, first and later pages), images, likes, comments, a user's posts", async () => {
    for (const before of [null, postId + 2000]) {
      // Nearly every post is visible, so PostgreSQL may as well walk the primary key backwards and
      // skip the few others: the order still comes from an index and the walk stops at the limit.
      await expectIndexed(`feed before=${before}`, feedQuery({ before, limit: PAGE }), { index: served("posts_list_idx", "posts_pkey") });
      await expectIndexed(`feed category before=${before}`, feedQuery({ categoryId: 2, before, limit: PAGE }), {
        index: served("posts_category_idx", "posts_pkey"),
      });
      await expectIndexed(`my posts before=${before}`, myPostsQuery({ userId, before, limit: PAGE }), { index: "posts_user_idx" });
    }
    // 热门: the stored score's index gives the order, also after a cursor (a row-value comparison).
    for (const after of [null, { score: 1.5, id: postId + 2000 }]) {
      await expectIndexed(`hot after=${JSON.stringify(after)}`, hotFeedQuery({ after, limit: PAGE }), { index: "posts_hot_idx" });
      await expectIndexed(`hot category after=${JSON.stringify(after)}`, hotFeedQuery({ categoryId: 2, after, limit: PAGE }), { index: "posts_category_hot_idx" });
    }
    // 收藏: one person's favourites, newest kept first (their list index), then each post by its key.
    for (const after of [null, { at: new Date().toISOString(), postId: postId + 10 }]) {
      await expectIndexed(`favourites after=${after ? "cursor" : "null"}`, favouritesQuery({ userId, after, limit: PAGE }), { index: "post_favourites_list_idx" });
    }
    const ids = Array.from({ length: 20 }, (_, i) => postId + i);
    // The viewer's likes among a page: by the (post, user) key, or on PostgreSQL the viewer's own
    // likes (post_likes_user_idx) when they are few.
    await expectIndexed("card images", postImagesQuery(ids), { index: "uploads_post_idx" });
    await expectIndexed("likes of a page", likedPostsQuery(userId, ids), { index: served(pk("post_likes"), "post_likes_user_idx") });
    // Comments: a page of top-level comments, a thread's replies, their counts.
    for (const after of [null, rootCommentId]) {
      await expectIndexed(`top comments after=${after}`, topCommentsQuery(postId, userId, after), { index: "comments_top_idx" });
    }
    for (const from of [null, rootCommentId + 4000]) {
      await expectIndexed(`thread replies from=${from}`, threadRepliesQuery(rootCommentId, userId, from), { index: "comments_root_idx" });
    }
    await expectIndexed("reply counts", replyCountsQuery([rootCommentId, rootCommentId + 1], userId), { index: "comments_root_idx", noSort: false });
    await expectIndexed("comment likes", likedCommentsQuery(userId, [1, 2, 3]), { index: served(pk("comment_likes"), "comment_likes_user_idx") });
  });

  it("orders: the customer's list and every tab and campus filter of /admin/orders", async () => {
    for (const beforeId of [null, 3000]) {
      await expectIndexed(`customer orders before=${beforeId}`, customerOrdersQuery(userId, { beforeId, limit: 11 }), { index: "orders_user_idx" });
    }
    for (const campus of [null, "jinpenling"]) {
      for (const group of [null, "pending_payment", "in_progress", "completed", "cancelled", "refunded"] as const) {
        const name = `admin ${campus} ${group}`;
        const single = !group || statusesOf(group).length === 1;
        // 'In progress' is four statuses: their rows come from the index and are then put in date
        // order (the open orders, a small set), or the campus's rows are read newest first. A
        // common tab may walk all orders newest first on PostgreSQL; a rare one (refunds) must
        // use its own index (0010_list_order_indexes; SQLite may equally take 0007's orders_status_idx,
        // status, created_at and its rowid: the same order).
        const expected =
          !campus && !group
            ? served("orders_created_idx")
            : campus && !group
            ? served("orders_admin_campus_all_idx", "orders_created_idx")
            : campus
            ? served(/orders_admin_campus(_all)?_idx/, ...(group === "refunded" ? [] : ["orders_created_idx"]))
            : served(/orders_(admin_)?status_idx/, ...(group === "refunded" ? [] : ["orders_created_idx"]));
        await expectIndexed(name, listQuery({ campus, ids: null }, group, 11), { index: expected, noSort: single });
      }
    }
    // A search narrows the list to at most SEARCH_MAX_MATCHES ids: any index will do, no full scan.
    await expectIndexed("admin search ids", listQuery({ campus: null, ids: [1, 2, 3] }, "completed", 11), {
      index: /USING (COVERING )?INDEX|INTEGER PRIMARY KEY|Index Cond/,
      noSort: false,
    });
  });

  it("the tab counts of /admin/orders read order_counts, which the triggers keep exact", async () => {
    // One row per campus and status: all of them without a campus filter, else the campus's by the key.
    expect((await plan(storedCountsQuery(null), { sortAllowed: true })).join("\n")).not.toMatch(/\borders\b/);
    await expectIndexed("stored counts of a campus", storedCountsQuery("jinpenling"), { index: pk("order_counts"), noSort: false });
    const actual = async () =>
      Object.fromEntries(
        (
          await db()
            .selectFrom("orders")
            .select(["campus_code", "status", (eb) => eb.fn.countAll<number | string>().as("n")])
            .where("deleted_at", "is", null)
            .groupBy(["campus_code", "status"])
            .execute()
        ).map((row) => [`${row.campus_code}/${row.status}`, Number(row.n)])
      );
    const stored = async () =>
      Object.fromEntries(
        (await db().selectFrom("order_counts").selectAll().where("n", ">", 0).execute()).map((row) => [`${row.campus_code}/${row.status}`, Number(row.n)])
      );
    expect(await stored()).toEqual(await actual());
    // Every way a row changes: status, campus, soft delete and back, delete, an unrelated column.
    const first = await db().selectFrom("orders").select("id").orderBy("id").limit(5).execute();
    const [a, b, c, d, e] = first.map((row) => row.id);
    await db().updateTable("orders").set({ status: "completed" }).where("id", "=", a!).execute();
    await db().updateTable("orders").set({ campus_code: "jinpenling", status: "paid" }).where("id", "=", b!).execute();
    await db().updateTable("orders").set({ deleted_at: now() }).where("id", "in", [c!, d!]).execute();
    await db().updateTable("orders").set({ deleted_at: null }).where("id", "=", d!).execute();
    await db().updateTable("orders").set({ remark: "改备注" }).where("id", "=", e!).execute();
    await db().deleteFrom("orders").where("id", "=", e!).execute();
    expect(await stored()).toEqual(await actual());
  });

  it("the inbox, the coupons, the addresses", async () => {
    for (const before of [null, 3000])
      await expectIndexed(`inbox before=${before}`, inboxQuery(userId, { before, limit: 21 }), { index: "inbox_items_list_idx" });
    await expectIndexed("unread count", unreadCountQuery(userId), { index: "inbox_items_unread_idx" });
    // A user holds a handful of coupons and at most 20 addresses: their index finds them, the
    // few rows are then put in order.
    await expectIndexed("wallet", walletQuery(userId), { index: "user_coupons_wallet_idx", noSort: false });
    await expectIndexed("usable coupons", usableCouponsQuery(db(), userId, new Date()), { index: "user_coupons_wallet_idx", noSort: false });
    await expectIndexed("addresses", addressesQuery(userId), { index: "addresses_user_idx", noSort: false });
  });

  it("riders: the slots, a slot's pick list and its marks, a rider's run, the roster", async () => {
    const slot = "2026-03-02T05:30:00.000Z";
    // The open orders are few; their slots are grouped after the lookup.
    await expectIndexed("open slots", slotsQuery(new Date("2026-03-01T00:00:00.000Z")), { index: served(/orders_slot_created_idx|orders_admin_status_idx|orders_status_idx/), noSort: false });
    await expectIndexed("a slot's orders", slotOrdersQuery(slot), { index: served("orders_slot_created_idx"), noSort: false });
    await expectIndexed("a slot's marks", slotPicksQuery(slot), { index: served("orders_slot_created_idx"), noSort: false });
    await expectIndexed("a rider's slots", riderSlotsQuery(1), { index: "orders_rider_idx" });
    await expectIndexed("a rider's orders", riderOrdersQuery(1, slot), { index: served("orders_rider_idx", "orders_slot_created_idx"), noSort: false });
    await expectIndexed("marks of orders", picksOfOrdersQuery([1, 2, 3]), { index: pk("parcel_picks") });
    await expectIndexed("the roster", rosterQuery(), { index: served(/operators_role_idx/) });
    // One index leads with the promised instant: the slot lists share it.
    const leading = isPostgres
      ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'orders' and indexdef like '%(estimated_delivery_at%'`.execute(db())).rows.map((row) => row.name)
      : (await sql<{ name: string }>`select m.name as name from sqlite_master m, pragma_index_info(m.name) i where m.type = 'index' and m.tbl_name = 'orders' and i.seqno = 0 and i.name = 'estimated_delivery_at'`.execute(db())).rows.map((row) => row.name);
    expect(leading).toEqual(["orders_slot_created_idx"]);
    await expectIndexed("riders' open orders", riderLoadQuery([1, 2]), { index: "orders_rider_idx", noSort: false });
  });

  it("the timetable cache, the session lookup, the outbox claim", async () => {
    await expectIndexed("timetable cache", timetableCacheQuery(userId, "2025-2026-1"), { index: pk("timetable_cache") });
    await expectIndexed("session", sessionQuery("abc"), { index: pk("sessions") });
    // The claim: pending and due (outbox_due_idx on state, next_attempt_at) or a lapsed claim
    // (state = 'sending', the same index); the two small sets are merged and ordered.
    await expectIndexed("outbox claim", dueQuery(now(), 20), { index: "outbox_due_idx", noSort: false });
  });
});
