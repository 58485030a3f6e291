// The operators' pages on both dialects: every admin endpoint refuses anonymous users, students
// and cross-site posts; the tab counts match the rows; the search finds an order by each field;
// complete and cancel follow the status table (a paid order's cancel ends 'refund succeeded'
// through the pay provider); the completion message is queued once with the operator as the
// courier; refund requests are approved and rejected; delete is soft; every action is in the
// audit log, and account deletion takes the operators' reasons out of it; the CSV export; the
// daily summary; and, on SQLite, the query plans of the lists.
import type { Insertable } from "kysely";
import { CompiledQuery } from "kysely";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminOrderData as m } from "~/lib/messages/adminOrderData";
import { adminOps } from "~/lib/messages/adminOps";
import { STATUS_TABLE, statusesOf, type OrderGroup, type OrderStatus } from "~/lib/order-status";
import { readSearch } from "~/lib/admin-orders";
import { formatShanghai } from "~/lib/time";
import { action as ordersAction, loader as ordersLoader } from "~/routes/admin.orders";
import { loader as auditLoader } from "~/routes/admin.audit";
import { action as moderationAction, loader as moderationLoader } from "~/routes/admin.moderation";
import { action as settingsAction, loader as settingsLoader } from "~/routes/admin.settings";
import { loader as exportLoader } from "~/routes/admin.export[.csv]";
import { loader as newOrdersLoader } from "~/routes/admin.new-orders[.json]";
import { loader as reconciliationLoader } from "~/routes/admin.reconciliation";
import { action as refundsAction, loader as refundsLoader } from "~/routes/admin.refunds";
import { db, now } from "~/server/db/db.server";
import type { OrdersTable } from "~/server/db/schema";
import { requestRefund } from "~/server/orders/refunds.server";
import { deleteUserData } from "~/server/users/deletion.server";
import { sharedSimulatedStore } from "~/server/pay/simulated.server";
import { call, routeArgs as args, createMessengerUser, createStudent, request, sessionCookieFor, postSameOrigin as post } from "../../../tests/setup/helpers";
import { insertTestOrder, providerHoldsTrade, signedInOperator } from "../../../tests/setup/orders";
import { adminOrderPage, countsQuery, dailySummary, listQuery, searchOrderIds } from "./orders.server";

// ---------------------------------------------------------------------------------------------
// Helpers


// An admin by default: this suite also deletes orders, which only the admin role may (decision 030).
async function operatorCookie(displayName = "配送员小周", role: "operator" | "admin" = "admin") {
  const { cookie, id } = await signedInOperator(role, displayName);
  return { cookie, operatorId: id, displayName };
}

let orderCount = 0;
const START = Date.now() - 3_600_000;
type OrderInput = Partial<Insertable<OrdersTable>> & { status?: OrderStatus };

/** An order row as the orders issue writes it; paid statuses are paid unless told otherwise. */
async function makeOrder(input: OrderInput = {}) {
  orderCount += 1;
  const status = input.status ?? "paid";
  // Recent by default (the pickup-code search looks at the last 30 days), one millisecond apart.
  const at = input.created_at ?? new Date(START + orderCount).toISOString();
  const paid = !["created", "cancelled"].includes(status);
  return insertTestOrder({
    recipient_phone: `1380000${String(orderCount).padStart(4, "0")}`,
    pickup_codes: JSON.stringify([{ company: "中通快递", pickupCode: `9-9-${1000 + orderCount}`, trackingNumber: `ZT7000${orderCount}`, stationName: "梨园菜鸟驿站", pickupType: "code" }]),
    status,
    payment_status: status === "refunded" ? "refunded" : paid ? "paid" : status === "cancelled" ? "closed" : "pending",
    refund_state: status === "refunded" ? "refunded" : null,
    estimated_delivery_at: "2026-03-02T05:30:00.000Z",
    expires_at: new Date(Date.parse(at) + 86_400_000).toISOString(),
    paid_at: paid ? at : null,
    completed_at: status === "completed" ? at : null,
    created_at: at,
    updated_at: at,
    ...input,
  });
}

/** The simulated pay provider learns that the order was paid (what its 1.5 s would do). */
function paidAtProvider(order: { order_number: string; amount_fen: number }, openid = "oSimPayer0000000000000000001") {
  providerHoldsTrade(order, openid, "2026-03-02T12:00:00+08:00");
}

async function orderRow(number: string) {
  return db().selectFrom("orders").selectAll().where("order_number", "=", number).executeTakeFirstOrThrow();
}

type Page = Awaited<ReturnType<typeof ordersLoader>>;
async function page(cookie: string, query = ""): Promise<Page> {
  return (await ordersLoader(args(request(`/admin/orders${query}`, { cookie })))) as Page;
}

/** What the loader lists for a query (the same function, its cards and counts as data). */
async function list(query = "") {
  const params = new URLSearchParams(query.replace(/^\?/, ""));
  return adminOrderPage({ group: (params.get("status") as OrderGroup | null) ?? null, campus: params.get("campus"), slot: params.get("slot"), q: params.get("q") ?? "" }, Number(params.get("page") ?? 1));
}

async function act(cookie: string, fields: Record<string, string>, query = "") {
  return call(ordersAction as never, post(`/admin/orders${query}`, fields, cookie));
}

async function auditRows() {
  return db().selectFrom("admin_audit").selectAll().orderBy("id").execute();
}

afterEach(async () => {
  // Each test starts with no orders (the operators and users stay).
  await db().deleteFrom("admin_audit").execute();
  await db().deleteFrom("outbox_messages").execute();
  await db().deleteFrom("inbox_items").execute();
  await db().deleteFrom("refunds").execute();
  await db().deleteFrom("order_events").execute();
  await db().deleteFrom("payments").execute();
  await db().deleteFrom("orders").execute();
});

let op: Awaited<ReturnType<typeof operatorCookie>>;
beforeAll(async () => {
  op = await operatorCookie();
});

// ---------------------------------------------------------------------------------------------

describe("who may use the admin endpoints", () => {
  const pages = [
    "/admin/orders",
    "/admin/orders?status=in_progress&order=E20260302000001",
    "/admin/refunds",
    "/admin/audit",
    "/admin/export.csv",
    "/admin/moderation",
    "/admin/settings",
    "/admin/new-orders.json?since=2026-03-02T00:00:00.000Z",
    "/admin/reconciliation",
  ];
  const loaders: Record<string, (a: ReturnType<typeof args>) => Promise<unknown>> = {
    "/admin/orders": ordersLoader as never,
    "/admin/refunds": refundsLoader as never,
    "/admin/audit": auditLoader as never,
    "/admin/export.csv": exportLoader as never,
    "/admin/moderation": moderationLoader as never,
    "/admin/settings": settingsLoader as never,
    "/admin/new-orders.json": newOrdersLoader as never,
    "/admin/reconciliation": reconciliationLoader as never,
  };
  const loaderOf = (path: string) => loaders[path.split("?")[0]!]!;

  it("anonymous visitors and students get the operator login, never data", async () => {
    await makeOrder({ recipient_name: "不该看到" });
    const student = await createStudent();
    const studentCookie = await sessionCookieFor(student.id);
    for (const path of pages) {
      for (const cookie of [undefined, studentCookie]) {
        const response = await call(loaderOf(path), request(path, { cookie }));
        expect(response.status, path).toBe(302);
        expect(response.headers.get("Location"), path).toMatch(/^\/admin\/login/);
        expect(await response.text()).not.toContain("不该看到");
      }
    }
  });

  it("every action refuses anonymous users and students (the login redirect, for every caller: single fetch) and changes nothing", async () => {
    const order = await makeOrder({ status: "paid" });
    const student = await createMessengerUser();
    const studentCookie = await sessionCookieFor(student.id);
    const posts: [(a: ReturnType<typeof args>) => Promise<unknown>, string, Record<string, string>][] = [
      [ordersAction, "/admin/orders", { intent: "complete", order: order.order_number }],
      [ordersAction, "/admin/orders", { intent: "cancel", order: order.order_number }],
      [ordersAction, "/admin/orders", { intent: "delete", order: order.order_number }],
      [ordersAction, "/admin/orders", { intent: "assigned", order: order.order_number }],
      [refundsAction, "/admin/refunds", { intent: "approve", refund: "1" }],
      [refundsAction, "/admin/refunds", { intent: "reject", refund: "1", reason: "不行" }],
      [moderationAction as never, "/admin/moderation", { intent: "hide", target: "post", id: "1" }],
      [settingsAction as never, "/admin/settings", { intent: "link-messenger" }],
    ];
    for (const [fn, path, fields] of posts) {
      for (const cookie of [undefined, studentCookie]) {
        const asForm = await call(fn as never, post(path, fields, cookie));
        expect(asForm.status).toBe(302);
        expect(asForm.headers.get("Location")).toMatch(/^\/admin\/login/);
        const asClient = await call(
          fn as never,
          request(path, { method: "POST", cookie, body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" } }),
        );
        expect(asClient.status).toBe(302);
        expect(asClient.headers.get("Location")).toMatch(/^\/admin\/login/);
      }
    }
    expect(await orderRow(order.order_number)).toMatchObject({ status: "paid", deleted_at: null, refund_state: null });
    expect(await auditRows()).toHaveLength(0);
  });
});

describe("the list, its tabs and the search", () => {
  it("counts per tab match the rows listed under each tab, with and without a campus; deleted orders count nowhere", async () => {
    const plan: [OrderStatus, string, number][] = [
      ["created", "jinpenling", 3],
      ["paid", "jinpenling", 2],
      ["assigned", "yuntang", 2],
      ["picking", "jinpenling", 1],
      ["delivering", "yuntang", 1],
      ["completed", "jinpenling", 12],
      ["completed", "yuntang", 2],
      ["cancelled", "yuntang", 2],
      ["refunded", "jinpenling", 1],
    ];
    for (const [status, campus, n] of plan) {
      for (let i = 0; i < n; i++) await makeOrder({ status, campus_code: campus, campus_name: campus === "yuntang" ? "云塘校区" : "金盆岭校区" });
    }
    await makeOrder({ status: "completed", deleted_at: now(), deleted_by: op.operatorId });

    for (const campus of [null, "jinpenling", "yuntang"]) {
      const campusQuery = campus ? `campus=${campus}` : "";
      const first = await list(campus ? `?${campusQuery}` : "");
      const expected = (group: OrderGroup | null) =>
        plan.filter(([status, c]) => (!campus || c === campus) && (!group || STATUS_TABLE[status].group === group)).reduce((sum, [, , n]) => sum + n, 0);
      expect(first.counts.all).toBe(expected(null));
      for (const group of [null, ...(["pending_payment", "in_progress", "completed", "cancelled", "refunded"] as const)]) {
        const query = [group ? `status=${group}` : "", campusQuery, "page=5"].filter(Boolean).join("&");
        const listed = await list(`?${query}`);
        expect(listed.counts[group ?? "all"], `${campus} ${group}`).toBe(expected(group));
        expect(listed.items.length, `${campus} ${group}`).toBe(expected(group));
        expect(listed.items.every((item) => !group || item.group === group)).toBe(true);
      }
    }
  });

  it("filters by delivery slot (the promised instant), with the slot's own counts, in the list and the CSV", async () => {
    const noon = "2026-03-02T05:30:00.000Z";
    const evening = "2026-03-02T11:30:00.000Z";
    const a = await makeOrder({ status: "paid", estimated_delivery_at: noon });
    await makeOrder({ status: "delivering", estimated_delivery_at: evening });
    const c = await makeOrder({ status: "completed", estimated_delivery_at: noon });
    const listed = await list(`?slot=${encodeURIComponent(noon)}`);
    expect(listed.items.map((item) => item.orderNumber).sort()).toEqual([a.order_number, c.order_number].sort());
    expect(listed.counts).toMatchObject({ all: 2, in_progress: 1, completed: 1 });
    expect((await list(`?slot=${encodeURIComponent(noon)}&status=in_progress`)).items.map((item) => item.orderNumber)).toEqual([a.order_number]);
    const csv = await (await call(exportLoader as never, request(`/admin/export.csv?slot=${encodeURIComponent(noon)}`, { cookie: op.cookie }))).text();
    expect(csv.split("\r\n").filter((line) => line.startsWith("E")).length).toBe(2);
    // The page offers the slot in its URL even when it is not one still to come.
    const data = await page(op.cookie, `?slot=${encodeURIComponent(noon)}`);
    expect(data.slots.options.map((option) => option.value)).toContain(noon);
  });

  it("the new-order badge counts the orders paid since the page's first poll, deleted ones not", async () => {
    const first = await (await call(newOrdersLoader as never, request("/admin/new-orders.json", { cookie: op.cookie }))).json();
    expect(first.count).toBe(0);
    const later = new Date(Date.parse(first.now) + 1000).toISOString();
    await makeOrder({ status: "paid", paid_at: later });
    await makeOrder({ status: "paid", paid_at: later, deleted_at: now(), deleted_by: op.operatorId });
    await makeOrder({ status: "paid", paid_at: "2026-03-02T04:00:00.000Z" });
    const next = await (await call(newOrdersLoader as never, request(`/admin/new-orders.json?since=${first.now}`, { cookie: op.cookie }))).json();
    expect(next.count).toBe(1);
    // A since that is not an instant counts nothing.
    expect((await (await call(newOrdersLoader as never, request("/admin/new-orders.json?since=yesterday", { cookie: op.cookie }))).json()).count).toBe(0);
  });

  it("/admin/settings says plainly when no operator has linked the messenger, and how many have", async () => {
    const nobody = (await settingsLoader(args(request("/admin/settings", { cookie: op.cookie })))) as { reach: { nobody: boolean; text: string } };
    expect(nobody.reach).toEqual({ nobody: true, text: adminOps.reach.nobody });
    await db().updateTable("operators").set({ openid: "oOperatorLinked0000000000001" }).where("id", "=", op.operatorId).execute();
    const one = (await settingsLoader(args(request("/admin/settings", { cookie: op.cookie })))) as { reach: { nobody: boolean; text: string } };
    expect(one.reach).toEqual({ nobody: false, text: adminOps.reach.some.replace("{count}", "1") });
    await db().updateTable("operators").set({ openid: null }).where("id", "=", op.operatorId).execute();
  });

  it("pages by 10, newest first, with 'load more' until the end", async () => {
    for (let i = 0; i < 23; i++) await makeOrder({ status: "completed" });
    const first = await list("?status=completed");
    expect(first.items).toHaveLength(10);
    expect(first.more).toBe(true);
    const created = first.items.map((item) => item.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const third = await list("?status=completed&page=3");
    expect(third.items).toHaveLength(23);
    expect(third.more).toBe(false);
    expect(third.items.slice(0, 10)).toEqual(first.items);
  });

  it("finds an order by its number, the recipient's name, the phone, a pickup code or a tracking number", async () => {
    const target = await makeOrder({
      status: "picking",
      recipient_name: "欧阳娜娜",
      recipient_phone: "13912345678",
      pickup_codes: JSON.stringify([
        { company: "圆通速递", pickupCode: "A-3-2011", trackingNumber: "YT9988776655", stationName: "东门驿站", pickupType: "code" },
        { company: "顺丰速运", pickupCode: "5566_%", trackingNumber: null, stationName: "丰巢柜", pickupType: "code" },
      ]),
    });
    for (let i = 0; i < 5; i++) await makeOrder({ status: "paid" });
    const oldCode = await makeOrder({ status: "completed", created_at: new Date(Date.now() - 31 * 86_400_000).toISOString(), pickup_codes: JSON.stringify([{ company: "中通", pickupCode: "OLD-77", stationName: "驿站" }]) });
    await makeOrder({ status: "paid", recipient_name: "欧阳娜娜", deleted_at: now(), deleted_by: op.operatorId });

    const found = async (q: string) => (await page(op.cookie, `?q=${encodeURIComponent(q)}`)).page.items.map((item) => item.orderNumber);
    expect(await found(target.order_number)).toEqual([target.order_number]);
    expect(await found(target.order_number.toLowerCase())).toEqual([target.order_number]);
    expect(await found("欧阳娜娜")).toEqual([target.order_number]);
    expect(await found(" 欧阳娜娜 ")).toEqual([target.order_number]);
    expect(await found("13912345678")).toEqual([target.order_number]);
    expect(await found("139-1234-5678")).toEqual([target.order_number]);
    expect(await found("A-3-2011")).toEqual([target.order_number]);
    expect(await found("a-3-2011")).toEqual([target.order_number]);
    expect(await found("YT9988776655")).toEqual([target.order_number]);
    // LIKE's wildcards are plain characters.
    expect(await found("5566_%")).toEqual([target.order_number]);
    expect(await found("_%")).toEqual([target.order_number]);
    expect(await found("%")).toEqual([]);
    // The phone's last four, part of a code, a station (part of its name).
    expect(await found("5678")).toEqual([target.order_number]);
    expect(await found("3-20")).toEqual([target.order_number]);
    expect(await found("东门驿站")).toEqual([target.order_number]);
    expect(await found("东门")).toEqual([target.order_number]);
    expect(await found("丰巢")).toEqual([target.order_number]);
    // The other orders' station, not the word 'station' in every JSON row.
    expect(await found("梨园菜鸟")).toHaveLength(5);
    expect(await found("stationName")).toEqual([]);
    // Pickup codes only among the last 30 days; the order number still finds an old order.
    expect(await found("OLD-77")).toEqual([]);
    expect(await found(oldCode.order_number)).toEqual([oldCode.order_number]);
    // The search's counts are the search's: one in progress.
    const searched = await list("?q=A-3-2011");
    expect(searched.counts).toMatchObject({ all: 1, in_progress: 1, completed: 0 });
    expect((await list("?q=A-3-2011&status=completed")).items).toEqual([]);
    const none = await list("?q=nobody-here");
    expect(none).toMatchObject({ items: [], searched: true, counts: { all: 0 } });
  });

  it("an order card shows what the product rules list and what the operator may do", async () => {
    const order = await makeOrder({
      status: "paid",
      created_at: new Date().toISOString(),
      paid_at: "2026-03-02T04:00:00.000Z",
      remark: "放门口",
      package_counts: JSON.stringify({ pocket: 1, small: 0, medium: 2, large: 0 }),
      parcel_count: 3,
      amount_fen: 720,
    });
    const noPhone = await makeOrder({ status: "delivering", recipient_phone: null });
    const { items } = await list();
    const card = items.find((item) => item.orderNumber === order.order_number)!;
    expect(card).toMatchObject({
      // Its promise (13:30 on 2026-03-02) has passed: 已超时 beside the status.
      label: `等待骑手接单 · ${adminOps.late}`,
      groupLabel: "进行中",
      campusName: "金盆岭校区",
      dorm: "西苑3栋",
      room: "302",
      recipientName: "张三",
      amountText: "¥7.20",
      remark: "放门口",
      parcels: [
        { name: "口袋件", count: 1 },
        { name: "中件", count: 2 },
      ],
      actions: ["complete", "cancel", "call"],
      steps: [
        { to: "assigned", label: "骑手已接单" },
        { to: "picking", label: "正在取件" },
        { to: "delivering", label: "配送中" },
      ],
    });
    expect(card.pickup[0]).toMatchObject({ company: "中通快递", station: "梨园菜鸟驿站" });
    // The page's data: the tabs' counts, the cards and the summary, typed (no HTML strings).
    const loaded = await page(op.cookie);
    expect(loaded.page.items.map((item) => item.orderNumber)).toEqual(items.map((item) => item.orderNumber));
    const loadedCard = loaded.page.items.find((item) => item.orderNumber === order.order_number)!;
    expect(loadedCard.remark).toBe("放门口");
    expect(loadedCard.parcels.map((parcel) => `${parcel.name}×${parcel.count}`).join("　")).toBe("口袋件×1　中件×2");
    expect(loaded.page.counts.in_progress).toBe(2);
    expect(loaded.summary).toMatchObject({ day: expect.any(String), pending: expect.any(Number) });
    expect(JSON.stringify(loaded)).not.toMatch(/<(div|a|section|article)\b/);
    expect(card.createdText).toBe(formatShanghai(order.created_at));
    // The panel opens from the URL, with the same card.
    const panel = await page(op.cookie, `?order=${noPhone.order_number}`);
    expect(panel.panel).toBe("actions");
    expect(panel.panelOrder).toMatchObject({ orderNumber: noPhone.order_number, recipientPhone: null, actions: ["complete", "fail", "call"], steps: [] });
    expect((await page(op.cookie, `?order=${noPhone.order_number}&panel=cancel`)).panel).toBe("cancel");
  });
});

describe("complete, cancel and the courier steps follow the status table", () => {
  // created/pending → cancelled; paid, assigned, picking → refunded (through the provider);
  // delivering, completed, cancelled, refunded cannot be cancelled. Complete: any in progress.
  const rows: { status: OrderStatus; complete: boolean; cancel: "cancelled" | "refunded" | false }[] = [
    { status: "created", complete: false, cancel: "cancelled" },
    { status: "paid", complete: true, cancel: "refunded" },
    { status: "assigned", complete: true, cancel: "refunded" },
    { status: "picking", complete: true, cancel: "refunded" },
    { status: "delivering", complete: true, cancel: false },
    { status: "completed", complete: false, cancel: false },
    { status: "cancelled", complete: false, cancel: false },
    { status: "refunded", complete: false, cancel: false },
  ];

  for (const row of rows) {
    it(`${row.status}: complete ${row.complete ? "allowed" : "refused"}, cancel ${row.cancel || "refused"}`, async () => {
      const forComplete = await makeOrder({ status: row.status });
      const completed = await act(op.cookie, { intent: "complete", order: forComplete.order_number });
      if (row.complete) {
        expect(completed.status).toBe(302);
        expect(completed.headers.get("Location")).toBe("/admin/orders?notice=completed");
        expect(await orderRow(forComplete.order_number)).toMatchObject({ status: "completed", completed_at: expect.any(String) });
      } else {
        expect(completed.status).toBe(409);
        expect(await completed.json()).toMatchObject({ error: { "": [`${m.failures.complete}：${m.failures.notAllowed}`] } });
        expect((await orderRow(forComplete.order_number)).status).toBe(row.status);
      }

      const forCancel = await makeOrder({ status: row.status });
      if (row.cancel === "refunded") paidAtProvider(forCancel);
      const cancelled = await act(op.cookie, { intent: "cancel", order: forCancel.order_number, reason: "驿站停业" }, "?status=in_progress");
      const after = await orderRow(forCancel.order_number);
      if (row.cancel === "cancelled") {
        expect(cancelled.headers.get("Location")).toBe("/admin/orders?status=in_progress&notice=cancelled");
        expect(after).toMatchObject({ status: "cancelled", payment_status: "closed", cancel_reason: "驿站停业" });
      } else if (row.cancel === "refunded") {
        // A paid order is never 'cancelled': refunded through the provider, 'refund succeeded'.
        expect(cancelled.headers.get("Location")).toBe("/admin/orders?status=in_progress&notice=refunded");
        expect(after).toMatchObject({ status: "refunded", payment_status: "refunded", refund_state: "refunded" });
        expect(await db().selectFrom("refunds").select(["state", "kind", "amount_fen", "operator_id"]).where("order_id", "=", after.id).execute()).toEqual([
          { state: "succeeded", kind: "cancel", amount_fen: 200, operator_id: op.operatorId },
        ]);
        expect(sharedSimulatedStore().trades.get(forCancel.order_number)?.refundedFen).toBe(200);
      } else {
        expect(cancelled.status).toBe(409);
        expect(await cancelled.json()).toMatchObject({ error: { "": [`${m.failures.cancel}：${m.failures.notAllowed}`] } });
        expect(after.status).toBe(row.status);
      }
    });
  }

  it("a refund under way blocks complete and cancel; a failed refund at the provider is reported", async () => {
    const requested = await makeOrder({ status: "delivering", refund_state: "requested" });
    expect((await act(op.cookie, { intent: "complete", order: requested.order_number })).status).toBe(409);
    const processing = await makeOrder({ status: "paid", refund_state: "processing" });
    expect((await act(op.cookie, { intent: "cancel", order: processing.order_number })).status).toBe(409);
    // Paid here but unknown to the provider: the refund fails, the order stays paid.
    const unknown = await makeOrder({ status: "paid" });
    const failed = await act(op.cookie, { intent: "cancel", order: unknown.order_number }, `?order=${unknown.order_number}&panel=cancel`);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ error: { "": [`${m.failures.cancel}：${m.failures.provider}`] } });
    expect(await orderRow(unknown.order_number)).toMatchObject({ status: "paid", refund_state: "failed" });
  });

  it("the courier steps move a paid order along the customer's progress bar, never backwards", async () => {
    const order = await makeOrder({ status: "paid" });
    for (const step of ["assigned", "picking", "delivering"] as const) {
      const response = await act(op.cookie, { intent: step, order: order.order_number });
      expect(response.headers.get("Location")).toBe(`/admin/orders?notice=${step}`);
      expect((await orderRow(order.order_number)).status).toBe(step);
    }
    const backwards = await act(op.cookie, { intent: "picking", order: order.order_number });
    expect(backwards.status).toBe(409);
    expect(await backwards.json()).toMatchObject({ error: { "": [`${m.failures.advance}：${m.failures.notAllowed}`] } });
    const unpaid = await makeOrder({ status: "created" });
    expect((await act(op.cookie, { intent: "assigned", order: unpaid.order_number })).status).toBe(409);
    expect((await auditRows()).map((row) => row.action)).toEqual(["assigned", "picking", "delivering"]);
  });

  it("unknown orders and bad input get the product rules' failure messages", async () => {
    const missing = await act(op.cookie, { intent: "complete", order: "E20260302999999" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { "": [`${m.failures.complete}：${m.failures.notFound}`] } });
    const bad = await act(op.cookie, { intent: "complete", order: "not-a-number" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { order: [m.failures.invalid] } });
    const unknownIntent = await act(op.cookie, { intent: "explode", order: "E20260302999999" });
    expect(unknownIntent.status).toBe(400);
  });
});

describe("the completion message", () => {
  it("is queued once, with the operator's display name as the courier, even when two operators complete at once", async () => {
    const customer = await createMessengerUser();
    const other = await operatorCookie("配送员阿杰");
    const order = await makeOrder({ status: "delivering", user_id: customer.id });
    const answers = await Promise.all([
      act(op.cookie, { intent: "complete", order: order.order_number }),
      act(other.cookie, { intent: "complete", order: order.order_number }),
      act(op.cookie, { intent: "complete", order: order.order_number }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 409, 409]);
    const messages = await db().selectFrom("outbox_messages").selectAll().where("template_key", "=", "DELIVERY_COMPLETED").execute();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ openid: customer.openid, link: "/market", user_id: customer.id });
    const fields = JSON.parse(messages[0]!.data);
    const winner = (await auditRows()).find((row) => row.action === "complete")!;
    expect(fields).toMatchObject({ orderNumber: order.order_number, address: "金盆岭校区 西苑3栋302", courier: winner.operator_name });
    expect(["配送员小周", "配送员阿杰"]).toContain(fields.courier);
    expect(await db().selectFrom("order_events").select(["type", "operator_id"]).where("order_id", "=", order.id).execute()).toEqual([
      { type: "completed", operator_id: winner.operator_id },
    ]);
    expect((await auditRows()).filter((row) => row.action === "complete")).toHaveLength(1);
  });

  it("is not sent to a customer without a messenger identity (the inbox still shows the change)", async () => {
    const student = await createStudent();
    const order = await makeOrder({ status: "paid", user_id: student.id });
    expect((await act(op.cookie, { intent: "complete", order: order.order_number })).status).toBe(302);
    expect(await db().selectFrom("outbox_messages").selectAll().execute()).toHaveLength(0);
    expect(await db().selectFrom("inbox_items").select(["kind", "user_id"]).where("user_id", "=", student.id).execute()).toEqual([{ kind: "order_status", user_id: student.id }]);
  });
});

describe("refund requests", () => {
  async function requested(status: OrderStatus = "completed", reason = "包裹破损") {
    const customer = await createStudent();
    const order = await makeOrder({ status, user_id: customer.id });
    paidAtProvider(order);
    const result = await requestRefund(customer.id, order.order_number, reason);
    expect(result.ok).toBe(true);
    const refund = await db().selectFrom("refunds").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
    return { customer, order, refundId: refund.id };
  }

  it("the queue lists the waiting requests with order, amount, reason and time", async () => {
    const first = await requested("completed", "包裹破损");
    const second = await requested("delivering", "不想要了");
    const queue = (await refundsLoader(args(request("/admin/refunds", { cookie: op.cookie })))) as Awaited<ReturnType<typeof refundsLoader>>;
    expect(queue.items.map((item) => [item.orderNumber, item.amountText, item.reason, item.statusLabel])).toEqual([
      [first.order.order_number, "¥2.00", "包裹破损", "订单已完成"],
      [second.order.order_number, "¥2.00", "不想要了", "配送中"],
    ]);
    expect(queue.items[0]!.createdText).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  it("approve refunds through the provider; the order ends 'refund succeeded'; a second approve is refused", async () => {
    const { order, refundId } = await requested();
    const response = await call(refundsAction as never, post("/admin/refunds", { intent: "approve", refund: String(refundId) }, op.cookie));
    expect(response.headers.get("Location")).toBe("/admin/refunds?notice=approved");
    expect(await orderRow(order.order_number)).toMatchObject({ status: "refunded", payment_status: "refunded", refund_state: "refunded" });
    expect(sharedSimulatedStore().trades.get(order.order_number)?.refundedFen).toBe(200);
    const again = await call(refundsAction as never, post("/admin/refunds", { intent: "approve", refund: String(refundId) }, op.cookie));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { "": [`${m.failures.approve}：${m.failures.refundNotPending}`] } });
    expect((await auditRows()).map((row) => [row.action, row.order_number, row.refund_id])).toEqual([["refund_approve", order.order_number, refundId]]);
  });

  it("reject needs a reason, keeps it for the customer and lets the customer ask again", async () => {
    const { customer, order, refundId } = await requested();
    const empty = await call(refundsAction as never, post(`/admin/refunds?reject=${refundId}`, { intent: "reject", refund: String(refundId), reason: "  " }, op.cookie));
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { reason: [m.failures.reasonRequired] } });
    // A reason over the limit is refused beside the field and comes back as typed (conform's reply).
    const long = "太长".repeat(101);
    const tooLong = await call(refundsAction as never, post(`/admin/refunds?reject=${refundId}`, { intent: "reject", refund: String(refundId), reason: long }, op.cookie));
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ error: { reason: [m.failures.reasonMax] }, initialValue: { reason: long } });
    // The reject sheet's constraints come from the loader (the schema stays on the server).
    const sheet = (await refundsLoader(args(request(`/admin/refunds?reject=${refundId}`, { cookie: op.cookie })))) as Awaited<ReturnType<typeof refundsLoader>>;
    expect(sheet.rejecting?.id).toBe(refundId);
    expect(sheet.constraint.reason).toMatchObject({ required: true });
    const response = await call(refundsAction as never, post(`/admin/refunds?reject=${refundId}`, { intent: "reject", refund: String(refundId), reason: "包裹已签收，请联系客服" }, op.cookie));
    expect(response.headers.get("Location")).toBe("/admin/refunds?notice=rejected");
    expect(await db().selectFrom("refunds").select(["state", "error", "operator_id"]).where("id", "=", refundId).executeTakeFirst()).toEqual({
      state: "rejected",
      error: "包裹已签收，请联系客服",
      operator_id: op.operatorId,
    });
    expect(await orderRow(order.order_number)).toMatchObject({ status: "completed", refund_state: "rejected", payment_status: "paid" });
    expect((await requestRefund(customer.id, order.order_number, "再申请一次")).ok).toBe(true);
    expect((await auditRows()).map((row) => [row.action, row.detail])).toEqual([["refund_reject", "包裹已签收，请联系客服"]]);
  });
});

describe("delete, the audit log and the export", () => {
  it("delete hides the order from the list, counts, search and export but keeps the row; a second delete is refused", async () => {
    // Only an order holding no money may be deleted (decision 030): a cancelled, unpaid one.
    const order = await makeOrder({ status: "cancelled", recipient_name: "李四" });
    const response = await act(op.cookie, { intent: "delete", order: order.order_number }, `?status=cancelled&order=${order.order_number}&panel=delete`);
    expect(response.headers.get("Location")).toBe("/admin/orders?status=cancelled&notice=deleted");
    const kept = await orderRow(order.order_number);
    expect(kept).toMatchObject({ status: "cancelled", deleted_by: op.operatorId, deleted_at: expect.any(String) });
    expect((await page(op.cookie, "?q=李四")).page.items).toEqual([]);
    expect((await page(op.cookie)).page.counts.all).toBe(0);
    expect((await page(op.cookie, `?order=${order.order_number}`)).panelOrder).toBeNull();
    const again = await act(op.cookie, { intent: "delete", order: order.order_number });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error: { "": [`${m.failures.delete}：${m.failures.notFound}`] } });
  });

  it("every action is in the audit log (who, what, which order, when), newest first, by order too", async () => {
    const a = await makeOrder({ status: "paid" });
    const b = await makeOrder({ status: "created" });
    await act(op.cookie, { intent: "assigned", order: a.order_number });
    await act(op.cookie, { intent: "complete", order: a.order_number });
    await act(op.cookie, { intent: "cancel", order: b.order_number, reason: "重复下单" });
    await act(op.cookie, { intent: "delete", order: b.order_number });
    const rows = await auditRows();
    expect(rows.map((row) => [row.operator_id, row.operator_name, row.action, row.order_number])).toEqual([
      [op.operatorId, op.displayName, "assigned", a.order_number],
      [op.operatorId, op.displayName, "complete", a.order_number],
      [op.operatorId, op.displayName, "cancel", b.order_number],
      [op.operatorId, op.displayName, "delete", b.order_number],
    ]);
    expect(rows[1]!.detail).toBe("骑手已接单 → 订单已完成");
    expect(rows[2]!.detail).toBe("订单已创建 → 订单已取消；重复下单");
    expect(rows.every((row) => !Number.isNaN(Date.parse(row.created_at)))).toBe(true);

    const log = (await auditLoader(args(request("/admin/audit", { cookie: op.cookie })))) as Awaited<ReturnType<typeof auditLoader>>;
    expect(log.items.map((item) => item.actionText)).toEqual(["删除订单", "取消订单", "完成订单", "接单"]);
    const one = (await auditLoader(args(request(`/admin/audit?order=${a.order_number}`, { cookie: op.cookie })))) as Awaited<ReturnType<typeof auditLoader>>;
    expect(one.items.map((item) => item.action)).toEqual(["complete", "assigned"]);
  });

  it("the CSV export is UTF-8 with a BOM, follows the filter, keeps formulas as text, and is audited", async () => {
    const a = await makeOrder({
      status: "completed",
      recipient_name: '=HYPERLINK("x")',
      remark: "放门口, 谢谢\n第二行",
      amount_fen: 350,
      pickup_codes: JSON.stringify([
        { company: "中通快递", pickupCode: "9-9-1", trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code" },
        { company: "圆通速递", pickupCode: "A-3-2011", trackingNumber: "YT9988776655", stationName: "东门驿站", pickupType: "code" },
      ]),
      package_counts: JSON.stringify({ pocket: 0, small: 2, medium: 0, large: 0 }),
      parcel_count: 2,
      created_at: "2026-03-02T04:00:00.000Z",
      paid_at: "2026-03-02T04:01:00.000Z",
      completed_at: "2026-03-02T05:00:00.000Z",
    });
    await makeOrder({ status: "paid" });
    const response = await call(exportLoader as never, request("/admin/export.csv?status=completed", { cookie: op.cookie }));
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="orders-\d{8}-\d{4}\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1);
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("订单号,状态,分组,支付状态,退款进度,校区,宿舍楼,房间,收货地址,收件人,电话,预计送达,驿站,快递公司,取件码,运单号,包裹数,原价(元),优惠(元),实付(元),备注,下单时间,支付时间,完成时间");
    // A pick list: each parcel's station, carrier, code and tracking number, in the same order.
    expect(text).toContain(`,${a.recipient_phone},${formatShanghai(a.estimated_delivery_at)},梨园菜鸟驿站；东门驿站,中通快递；圆通速递,9-9-1；A-3-2011,；YT9988776655,2,`);
    expect(text).toContain(`${a.order_number},订单已完成,已完成,已支付,,金盆岭校区,西苑3栋,302,金盆岭校区 西苑3栋302,"'=HYPERLINK(""x"")",`);
    expect(text).toContain(`,3.50,"放门口, 谢谢\n第二行",2026-03-02 12:00,2026-03-02 12:01,2026-03-02 13:00\r\n`);
    expect(lines.filter((line) => line.startsWith("E"))).toHaveLength(1);
    expect((await auditRows()).map((row) => [row.action, row.detail])).toEqual([["export", "1 条 已完成"]]);
  });
});

describe("personal data", () => {
  it("account deletion removes the operators' reasons about the person's orders from the audit log, keeps the status changes", async () => {
    const customer = await createStudent();
    const a = await makeOrder({ status: "created", user_id: customer.id });
    const b = await makeOrder({ status: "paid", user_id: customer.id });
    const other = await makeOrder({ status: "created" });
    await act(op.cookie, { intent: "cancel", order: a.order_number, reason: "客户电话 13900001111 说不要了" });
    await act(op.cookie, { intent: "complete", order: b.order_number });
    await act(op.cookie, { intent: "cancel", order: other.order_number, reason: "重复下单" });
    await db().transaction().execute((trx) => deleteUserData(trx, customer.id));
    const rows = await auditRows();
    expect(rows.map((row) => [row.order_number, row.action, row.detail])).toEqual([
      [a.order_number, "cancel", null],
      [b.order_number, "complete", "等待骑手接单 → 订单已完成"],
      [other.order_number, "cancel", "订单已创建 → 订单已取消；重复下单"],
    ]);
    expect(JSON.stringify(rows)).not.toContain("13900001111");
  });

  it("the export's audit row keeps the filter but not the search text", async () => {
    await makeOrder({ status: "paid", recipient_name: "王五" });
    await call(exportLoader as never, request("/admin/export.csv?q=%E7%8E%8B%E4%BA%94&campus=jinpenling", { cookie: op.cookie }));
    expect((await auditRows()).map((row) => row.detail)).toEqual(["1 条 jinpenling 含搜索条件"]);
  });
});

describe("the daily summary", () => {
  it("counts today's (Shanghai) paid orders per campus, revenue without refunds, parcels by type, pending and refund requests", async () => {
    const at = new Date("2026-03-02T10:00:00.000Z"); // 18:00 in Shanghai
    await makeOrder({ status: "paid", paid_at: "2026-03-01T16:30:00.000Z", amount_fen: 300, package_counts: JSON.stringify({ pocket: 0, small: 0, medium: 1, large: 0 }) }); // 00:30 today
    await makeOrder({ status: "completed", paid_at: "2026-03-02T09:00:00.000Z", amount_fen: 200 });
    await makeOrder({ status: "assigned", paid_at: "2026-03-02T09:30:00.000Z", campus_code: "yuntang", campus_name: "云塘校区", amount_fen: 400, package_counts: JSON.stringify({ large: 1 }) });
    const refunded = await makeOrder({ status: "refunded", paid_at: "2026-03-02T08:00:00.000Z", amount_fen: 900 });
    // Refunded in full: its refund is recorded (the ledger reads refunds, decision 030).
    await db()
      .insertInto("refunds")
      .values({ order_id: refunded.id, out_refund_no: `${refunded.order_number}R1`, kind: "cancel", amount_fen: 900, state: "succeeded", reason: null, refund_id: "R1", operator_id: null, error: null, decided_at: "2026-03-02T08:30:00.000Z", succeeded_at: "2026-03-02T08:30:00.000Z", created_at: "2026-03-02T08:30:00.000Z", updated_at: "2026-03-02T08:30:00.000Z" })
      .execute();
    await makeOrder({ status: "paid", paid_at: "2026-03-01T15:59:00.000Z", amount_fen: 1000 }); // yesterday 23:59
    await makeOrder({ status: "created", paid_at: null });
    // Only an order holding no money can be deleted (decision 030): a cancelled unpaid one counts nowhere.
    await makeOrder({ status: "cancelled", deleted_at: now(), deleted_by: op.operatorId });
    const summary = await dailySummary(at);
    expect(summary).toMatchObject({
      day: "2026-03-02",
      orders: 4,
      revenueFen: 900,
      revenueText: "¥9.00",
      receivedFen: 1800,
      refundsFen: 900,
      earnedFen: 200,
      liveFen: 700,
      byCampus: [
        { code: "jinpenling", name: "金盆岭校区", orders: 3, revenueFen: 500, revenueText: "¥5.00" },
        { code: "yuntang", name: "云塘校区", orders: 1, revenueFen: 400, revenueText: "¥4.00" },
      ],
      parcels: [
        { name: "小件", count: 1 },
        { name: "中件", count: 1 },
        { name: "大件", count: 1 },
      ],
      pending: 3,
      refundRequests: 0,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Query plans (SQLite): every list reads an index, never the whole table.

describe.runIf(process.env.TEST_DIALECT === "sqlite")("query plans", () => {
  async function plan(query: { compile(): CompiledQuery }) {
    const compiled = query.compile();
    const result = await db().executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    return result.rows.map((row) => row.detail);
  }
  const fullScan = (lines: string[]) => lines.filter((line) => /^SCAN (orders|refunds|admin_audit)\b/.test(line) && !/USING (COVERING )?INDEX/.test(line));

  beforeEach(async () => {
    // A realistic table: many finished orders, a few open ones.
    const statuses: OrderStatus[] = ["completed", "completed", "completed", "completed", "cancelled", "refunded", "paid", "created", "delivering"];
    for (let i = 0; i < 180; i++) await makeOrder({ status: statuses[i % statuses.length], campus_code: i % 2 ? "jinpenling" : "yuntang" });
  });

  it("the main list uses an index for every tab, with and without a campus; only 'in progress' needs a sort", async () => {
    for (const campus of [null, "jinpenling"]) {
      for (const group of [null, "pending_payment", "in_progress", "completed", "cancelled", "refunded"] as const) {
        const lines = await plan(listQuery({ campus, ids: null }, group, 11));
        if (process.env.SHOW_PLANS) process.stderr.write(`PLAN ${campus} ${group}: ${lines.join(" | ")}\n`);
        expect(fullScan(lines), `${campus} ${group}: ${lines.join(" | ")}`).toEqual([]);
        expect(lines.join(" | "), `${campus} ${group}`).toMatch(/USING (COVERING )?INDEX/);
        // Only 'in progress' (four statuses, the open orders) sorts its rows after the lookup.
        if (!group || statusesOf(group).length === 1) expect(lines.join(" | "), `${campus} ${group}`).not.toMatch(/TEMP B-TREE/);
      }
    }
  });

  it("the tab counts, the search, the summary, the refund queue and the audit log use indexes", async () => {
    for (const campus of [null, "jinpenling"]) {
      const lines = await plan(countsQuery({ campus, ids: null }));
      expect(fullScan(lines), lines.join(" | ")).toEqual([]);
    }
    const withIds = await plan(listQuery({ campus: null, ids: [1, 2, 3] }, "completed", 11));
    expect(fullScan(withIds), withIds.join(" | ")).toEqual([]);
    // A delivery slot, with and without a tab, and its counts.
    for (const group of [null, "in_progress"] as const) {
      const lines = await plan(listQuery({ campus: null, ids: null, slot: "2026-03-02T05:30:00.000Z" }, group, 11));
      expect(lines.join(" | "), `slot ${group}`).toMatch(/orders_slot_created_idx/);
    }
    const slotCounts = await plan(countsQuery({ campus: "jinpenling", ids: null, slot: "2026-03-02T05:30:00.000Z" }));
    expect(fullScan(slotCounts), slotCounts.join(" | ")).toEqual([]);

    // The search's own queries (one per field).
    const term = readSearch("13800001234")!;
    const base = () => db().selectFrom("orders").select("id").where("deleted_at", "is", null);
    for (const query of [
      base().where("recipient_name", "=", term.text),
      base().where("recipient_phone", "=", term.phone!),
      base().where("order_number", "=", "E20260302000001"),
      base().where("created_at", ">=", "2026-02-01T00:00:00.000Z").where("pickup_codes", "like", "%x%"),
      base().where("created_at", ">=", "2026-02-01T00:00:00.000Z").where("recipient_phone", "like", "%5678"),
      db().selectFrom("orders").select("id").where("paid_at", ">=", "2026-03-01T16:00:00.000Z").where("paid_at", "<", "2026-03-02T16:00:00.000Z"),
      db().selectFrom("orders").select("id").where("status", "in", statusesOf("in_progress")).where("deleted_at", "is", null),
      db().selectFrom("refunds").select("id").where("state", "=", "requested").orderBy("updated_at").orderBy("id"),
      db().selectFrom("admin_audit").select("id").where("order_number", "=", "E20260302000001").orderBy("id", "desc"),
    ]) {
      const lines = await plan(query);
      expect(fullScan(lines), lines.join(" | ")).toEqual([]);
    }
    // And the search itself still answers with them.
    expect(await searchOrderIds(readSearch("张三")!)).toHaveLength(180);
  });
});
