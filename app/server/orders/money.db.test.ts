// Money keeps its invariants (decision 030): one plain regression test per defect the money
// audit found on paths nobody had listed, on both dialects. Each asserts what the database holds
// or what the student or operator is shown, through the same loaders, actions and domain
// functions the pages use. The generated sequences are in money-properties.db.test.ts.
import { describe, expect, it } from "vitest";
import { adminOrderData } from "~/lib/messages/adminOrderData";
import { adminOps } from "~/lib/messages/adminOps";
import type { PickupEntry } from "~/lib/pickup-entries";
import { action as ordersAction } from "~/routes/admin.orders";
import { loader as statusLoader } from "~/routes/api.express.orders.$id.payment-status";
import { action as createAction } from "~/routes/api.express.order_create";
import { action as parcelAction } from "~/routes/market._shell.parcel.$id/route";
import { db, now } from "~/server/db/db.server";
import { saveAddress } from "~/server/market/addresses.server";
import { loadCheckout, updateCheckout } from "~/server/market/checkout.server";
import { loadExpressConfig } from "~/server/market/market-config.server";
import { shanghaiInstant, shanghaiToday } from "~/lib/time";
import { sharedSimulatedStore } from "~/server/pay/simulated.server";
import { call, createMessengerUser, createStudent, postForm, postJson, postSameOrigin, request, sessionCookieFor, type TestUser } from "../../../tests/setup/helpers";
import { ORDER_RECIPIENT } from "../../../tests/fixtures/order-create";
import { providerHoldsTrade, signedInOperator } from "../../../tests/setup/orders";
import { dailySummary } from "~/server/admin/orders.server";
import { loader as settingsLoader } from "~/routes/backpack.settings";
import { loader as marketLoader } from "~/routes/market._shell/route";
import { action as checkoutAction } from "~/routes/market._shell.checkout/route";
import { requestAccountDeletion, runAccountDeletionJob } from "~/server/users/deletion.server";
import { advanceOrder, cancelOrder, cancelOrderByOperator, failDelivery } from "./cancel.server";
import { createOrderFromCheckout, findOrder, orderDetail, type OrderRow } from "./orders.server";
import { applyPaid } from "./transitions.server";

const TYPES = async () => {
  const result = await loadExpressConfig("jinpenling");
  if (!result.ok) throw new Error("no config");
  return result.config.packageTypes;
};

let codeCounter = 0;
function entry(code = `3-3-${String(++codeCounter).padStart(4, "0")}${process.pid % 97}`): PickupEntry {
  return { id: `e-${code}`, company: "中通快递", pickupCode: code, trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code", source: "manual" };
}

async function customer(parcels = 1) {
  const user = await createMessengerUser({ campus_code: "jinpenling" });
  const cookie = await sessionCookieFor(user.id);
  await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });
  await updateCheckout(user.id, await TYPES(), () => ({ set: { entries: Array.from({ length: parcels }, () => entry()) }, result: null }));
  return { user, cookie };
}

async function place(user: TestUser): Promise<OrderRow> {
  const checkout = await loadCheckout(user.id, await TYPES());
  const result = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
  if (!result.ok) throw new Error(result.reason);
  return (await findOrder(result.orderNumber))!;
}

/** Paid: the simulated provider holds the trade (as its 1.5 s would), the order learns it. */
async function paid(user: TestUser, at = now()) {
  const order = await place(user);
  providerHoldsTrade(order, user.openid!, at.replace(/\.\d{3}Z$/, "+00:00"));
  await db().transaction().execute((trx) => applyPaid(trx, order.id, { actor: "provider", transactionId: `SIM${order.order_number}`, at }));
  return (await findOrder(order.order_number))!;
}

async function operator(role: "operator" | "admin") {
  return signedInOperator(role, role === "admin" ? "管理员小周" : "配送员小李");
}

function adminPost(fields: Record<string, string>, cookie: string) {
  return postSameOrigin("/admin/orders", fields, cookie);
}

describe("an entry holds exactly one code, on every way in", () => {
  const recipient = ORDER_RECIPIENT;

  it("POST /api/express/order_create with five codes in one entry and pocket: 1 is refused and stores nothing", async () => {
    const { user, cookie } = await customer();
    const body = {
      ...recipient,
      expressCheckoutList: [{ pickupCode: "1-1-1001 1-1-1002 1-1-1003 1-1-1004 1-1-1005", company: "圆通速递", stationName: "南门驿站" }],
      expressPackageCounts: { pocket: 1 },
    };
    const response = await call(createAction as never, postJson("/api/express/order_create", body, cookie));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("每条快递只能填写一个取件码，多个包裹请分条添加");
    expect(await db().selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("the entry form refuses a four-code entry, and the edit dialog refuses turning an entry into several", async () => {
    const { user, cookie } = await customer();
    const added = await call(parcelAction as never, postForm("/market/parcel/new", { intent: "save-entry", credential: "2-2-2001，2-2-2002，2-2-2003，2-2-2004", station: "南门驿站", company: "圆通速递" }, cookie));
    expect(added.status).toBe(400);
    expect((await added.json()).result.error[""]).toEqual(["每条快递只能填写一个取件码，多个包裹请分条添加"]);
    const [first] = (await loadCheckout(user.id, await TYPES())).entries;
    const edited = await call(
      parcelAction as never,
      postForm(`/market/parcel/${first!.id}`, { intent: "save-entry", entryId: first!.id, credential: `${first!.pickupCode} 9-9-9999`, station: first!.stationName, company: first!.company }, cookie),
    );
    expect(edited.status).toBe(400);
    const entries = (await loadCheckout(user.id, await TYPES())).entries;
    expect(entries.map((item) => item.pickupCode)).toEqual([first!.pickupCode]);
  });

  it("an order is never made from a stored entry holding several codes (the last gate)", async () => {
    const { user } = await customer();
    await updateCheckout(user.id, await TYPES(), () => ({ set: { entries: [entry("5-5-5001 5-5-5002")] }, result: null }));
    const checkout = await loadCheckout(user.id, await TYPES());
    const result = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
    expect(result).toMatchObject({ ok: false });
    expect(await db().selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });
});

describe("what the student is told about a payment", () => {
  it("the payment-status API never says 已支付 for a refunded order", async () => {
    const { user, cookie } = await customer();
    const order = await paid(user);
    await db().updateTable("orders").set({ status: "refunded", payment_status: "refunded", refund_state: "refunded", refunded_at: now() }).where("id", "=", order.id).execute();
    const response = await call(statusLoader as never, request(`/api/express/orders/${order.order_number}/payment-status`, { cookie }), { id: order.order_number });
    const body = await response.json();
    expect(body.message).not.toBe("已支付");
    expect(body.data).toMatchObject({ payment_status: "refunded", paid: false });
  });
});

describe("the delivery promise", () => {
  it("is computed when the payment is confirmed: created before the 11:45 cut-off, paid after it, it promises 19:30", async () => {
    const { user } = await customer();
    const order = await place(user);
    // The order is (re)dated 11:40 in Shanghai, promised 13:30 then; it is paid at 11:50.
    const day = shanghaiToday(new Date(order.created_at));
    await db().updateTable("orders").set({ created_at: shanghaiInstant(day, 11, 40).toISOString(), estimated_delivery_at: shanghaiInstant(day, 13, 30).toISOString() }).where("id", "=", order.id).execute();
    await db().transaction().execute((trx) => applyPaid(trx, order.id, { actor: "provider", at: shanghaiInstant(day, 11, 50).toISOString() }));
    expect((await findOrder(order.order_number))!.estimated_delivery_at).toBe(shanghaiInstant(day, 19, 30).toISOString());
  });
});

describe("soft delete", () => {
  it("is refused to an operator without the admin role, and to an admin for a paid order in progress", async () => {
    const { user } = await customer();
    const order = await paid(user);
    const plain = await operator("operator");
    const byOperator = await call(ordersAction as never, adminPost({ intent: "delete", order: order.order_number }, plain.cookie));
    expect(byOperator.status).toBe(403);
    const admin = await operator("admin");
    const byAdmin = await call(ordersAction as never, adminPost({ intent: "delete", order: order.order_number }, admin.cookie));
    expect(byAdmin.status).toBe(409);
    expect(await byAdmin.json()).toMatchObject({ error: { "": [`${adminOrderData.failures.delete}：${adminOrderData.failures.holdsMoney}`] } });
    expect((await findOrder(order.order_number))!).toMatchObject({ status: "paid", payment_status: "paid", deleted_at: null });
  });

  it("is allowed to an admin for an order holding no money (cancelled unpaid)", async () => {
    const { user } = await customer();
    const order = await place(user);
    await cancelOrder(user.id, order.order_number, "");
    const admin = await operator("admin");
    const response = await call(ordersAction as never, adminPost({ intent: "delete", order: order.order_number }, admin.cookie));
    expect(response.status).toBe(302);
    expect((await findOrder(order.order_number))!.deleted_at).not.toBeNull();
  });
});

describe("配送失败 from 配送中", () => {
  async function delivering(parcels: number) {
    const { user } = await customer(parcels);
    const order = await paid(user);
    const admin = await operator("operator");
    expect(await advanceOrder(order.order_number, "delivering", admin.id)).toMatchObject({ ok: true });
    return { user, order, admin };
  }
  const refundsOf = (order: OrderRow) => db().selectFrom("refunds").select(["amount_fen", "state", "reason", "kind"]).where("order_id", "=", order.id).orderBy("id").execute();

  it("with a reason and nothing delivered, refunds the whole amount (the operator's action)", async () => {
    const { order, admin } = await delivering(2);
    const response = await call(ordersAction as never, adminPost({ intent: "fail", order: order.order_number, reason: "驿站找不到快递" }, admin.cookie));
    expect(response.status).toBe(302);
    expect((await findOrder(order.order_number))!).toMatchObject({ status: "refunded", payment_status: "refunded", refund_state: "refunded" });
    expect(await refundsOf(order)).toEqual([{ amount_fen: order.amount_fen, state: "succeeded", reason: "驿站找不到快递", kind: "delivery_failed" }]);
    expect(sharedSimulatedStore().trades.get(order.order_number)?.refundedFen).toBe(order.amount_fen);
  });

  it("with one parcel of two missing, completes the order and refunds that parcel's price", async () => {
    const { order, admin } = await delivering(2);
    const counts = JSON.parse(order.package_counts) as Record<string, number>;
    const [size] = Object.entries(counts).find(([, count]) => count > 0)!;
    const response = await call(ordersAction as never, adminPost({ intent: "fail", order: order.order_number, reason: "一件找不到", [`missing_${size}`]: "1" }, admin.cookie));
    expect(response.status).toBe(302);
    const unit = order.original_fen / 2;
    expect((await findOrder(order.order_number))!).toMatchObject({ status: "completed", payment_status: "paid", refund_state: "refunded" });
    expect(await refundsOf(order)).toEqual([{ amount_fen: order.amount_fen - Math.max(0, unit - order.discount_fen), state: "succeeded", reason: "一件找不到", kind: "delivery_failed" }]);
  });

  it("with a picked cause (包裹少了一件) and a note, the student reads both beside the partial refund", async () => {
    const { order, admin } = await delivering(2);
    const counts = JSON.parse(order.package_counts) as Record<string, number>;
    const [size] = Object.entries(counts).find(([, count]) => count > 0)!;
    const form = { intent: "fail", order: order.order_number, reason_code: "parcel_missing", reason: "中通那件", [`missing_${size}`]: "1" };
    expect((await call(ordersAction as never, adminPost(form, admin.cookie))).status).toBe(302);
    const reason = `${adminOps.failReasons.parcel_missing}：中通那件`;
    expect((await refundsOf(order))[0]).toMatchObject({ reason, kind: "delivery_failed", state: "succeeded" });
    expect((await findOrder(order.order_number))!).toMatchObject({ status: "completed", refund_reason: reason });
  });

  it("with 驿站已关门 alone needs no note; 其他原因 needs one", async () => {
    const { order, admin } = await delivering(1);
    const other = await call(ordersAction as never, adminPost({ intent: "fail", order: order.order_number, reason_code: "other", reason: " " }, admin.cookie));
    expect(other.status).toBe(400);
    expect(JSON.stringify(await other.json())).toContain(adminOrderData.failures.failReasonRequired);
    const closed = await call(ordersAction as never, adminPost({ intent: "fail", order: order.order_number, reason_code: "station_closed" }, admin.cookie));
    expect(closed.status).toBe(302);
    expect(await refundsOf(order)).toEqual([{ amount_fen: order.amount_fen, state: "succeeded", reason: adminOps.failReasons.station_closed, kind: "delivery_failed" }]);
  });

  it("is refused without a reason, and before 配送中", async () => {
    const { order, admin } = await delivering(1);
    const noReason = await call(ordersAction as never, adminPost({ intent: "fail", order: order.order_number, reason: "" }, admin.cookie));
    expect(noReason.status).toBe(400);
    const { user } = await customer();
    const early = await paid(user);
    const tooEarly = await call(ordersAction as never, adminPost({ intent: "fail", order: early.order_number, reason: "还没送" }, admin.cookie));
    expect(tooEarly.status).toBe(409);
    expect(await refundsOf(order)).toEqual([]);
  });
});

describe("今日概况 adds up", () => {
  it("today's payments = refunds + completed + still to deliver, per campus and in all, and the figures agree", async () => {
    await db().deleteFrom("refunds").execute();
    await db().deleteFrom("payments").execute();
    await db().deleteFrom("order_events").execute();
    await db().deleteFrom("orders").execute();
    const admin = await operator("admin");
    const a = await paid((await customer()).user);
    const b = await paid((await customer(2)).user);
    const c = await paid((await customer()).user);
    // a is cancelled and refunded, b is delivered, c is still to deliver.
    expect(await cancelOrderByOperator(a.order_number, admin.id, "缺货")).toMatchObject({ ok: true });
    expect(await advanceOrder(b.order_number, "completed", admin.id)).toMatchObject({ ok: true });
    const summary = await dailySummary(new Date());
    expect(summary.orders).toBe(3);
    expect(summary.receivedFen).toBe(a.amount_fen + b.amount_fen + c.amount_fen);
    expect(summary.refundsFen).toBe(a.amount_fen);
    expect(summary.earnedFen).toBe(b.amount_fen);
    expect(summary.liveFen).toBe(c.amount_fen);
    expect(summary.revenueFen).toBe(summary.receivedFen - summary.refundsFen);
    expect(summary.revenueFen).toBe(summary.earnedFen + summary.liveFen);
    expect(summary.byCampus.reduce((total, campus) => total + campus.orders, 0)).toBe(summary.orders);
    expect(summary.byCampus.reduce((total, campus) => total + campus.revenueFen, 0)).toBe(summary.revenueFen);
    // The parcels of the orders that stand: b's two and c's one.
    expect(summary.parcels.reduce((total, parcel) => total + parcel.count, 0)).toBe(3);
  });
});

describe("account deletion with open orders", () => {
  async function studentWithOrder() {
    const user = await createStudent({ openid: `oDel${process.pid}${Math.random().toString(36).slice(2, 10)}`, campus_code: "jinpenling", wechat_authorized_at: now() });
    await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });
    await updateCheckout(user.id, await TYPES(), () => ({ set: { entries: [entry()] }, result: null }));
    return { user, cookie: await sessionCookieFor(user.id), order: await paid(user) };
  }

  it("refunds a paid, undelivered order first; the account then goes and the order keeps no money", async () => {
    const { user, order } = await studentWithOrder();
    const answer = await requestAccountDeletion(user.id);
    expect(answer.settled.map((item) => item.orderNumber)).toEqual([order.order_number]);
    await runAccountDeletionJob();
    expect(await db().selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
    const after = (await findOrder(order.order_number))!;
    expect(after).toMatchObject({ user_id: null, status: "refunded", payment_status: "refunded" });
    expect(sharedSimulatedStore().trades.get(order.order_number)?.refundedFen).toBe(order.amount_fen);
  });

  it("waits while an order is being delivered: the recipient stays for the courier, the account goes once it is delivered", async () => {
    const { user, order } = await studentWithOrder();
    const admin = await operator("operator");
    expect(await advanceOrder(order.order_number, "picking", admin.id)).toMatchObject({ ok: true });
    const answer = await requestAccountDeletion(user.id);
    expect(answer.waiting.map((item) => [item.orderNumber, item.settle])).toEqual([[order.order_number, "wait"]]);
    await runAccountDeletionJob();
    expect(await db().selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeDefined();
    expect((await findOrder(order.order_number))!).toMatchObject({ user_id: user.id, recipient_name: "张三", status: "picking" });
    expect(await advanceOrder(order.order_number, "completed", admin.id)).toMatchObject({ ok: true });
    await runAccountDeletionJob();
    expect(await db().selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
    expect((await findOrder(order.order_number))!).toMatchObject({ user_id: null, status: "completed" });
  });

  it("the confirmation names the open orders and what happens to each", async () => {
    const { cookie, order } = await studentWithOrder();
    const data = (await settingsLoader({ request: request("/backpack/settings?confirm=delete", { cookie }), params: {}, context: {} } as never)) as { openOrders: string[] };
    expect(data.openOrders).toEqual([`${order.order_number}（等待骑手接单）：将先全额退款`]);
  });
});

describe("the confirm sheet's 实付 is what is charged", () => {
  it("a price changed while the sheet was open charges nothing and answers 价格已变化 with the new total; confirming again orders at it", async () => {
    const { user, cookie } = await customer();
    const sheet = async () => (await (await call(marketLoader as never, request("/market/checkout", { cookie, headers: { Accept: "text/html" } }))).json()) as { checkout: { id: number; version: number }; summary: { paidFen: number; priceVersion: string } };
    const before = await sheet();
    const shown = before.summary.paidFen;
    // An admin reprices every size while the sheet is open.
    const prices = await db().selectFrom("package_types").select(["type", "price_fen"]).where("campus_code", "=", "jinpenling").execute();
    for (const row of prices) await db().updateTable("package_types").set({ price_fen: row.price_fen * 3 }).where("campus_code", "=", "jinpenling").where("type", "=", row.type).execute();
    try {
      const fields = { intent: "pay", checkoutId: String(before.checkout.id), version: String(before.checkout.version), priceVersion: before.summary.priceVersion };
      const refused = await call(checkoutAction as never, postForm("/market/checkout", fields, cookie));
      expect(refused.status).toBe(409);
      const after = await sheet();
      expect(after.summary.paidFen).not.toBe(shown);
      expect((await refused.json()).error).toBe(`价格已变化，新的实付金额为 ¥${(after.summary.paidFen / 100).toFixed(2)}，请确认后再支付`);
      expect(await db().selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
      // The student confirms the new total: the order is made at it.
      const again = await call(checkoutAction as never, postForm("/market/checkout", { ...fields, priceVersion: after.summary.priceVersion }, cookie));
      expect(again.status).toBe(302);
      expect(await db().selectFrom("orders").select("amount_fen").where("user_id", "=", user.id).execute()).toEqual([{ amount_fen: after.summary.paidFen }]);
    } finally {
      for (const row of prices) await db().updateTable("package_types").set({ price_fen: row.price_fen }).where("campus_code", "=", "jinpenling").where("type", "=", row.type).execute();
    }
  });
});

describe("the order page's breakdown", () => {
  it("shows parcels by size with the unit prices charged, the coupon, the delivery fee, what was paid and each refund with its reason", async () => {
    const { user } = await customer(2);
    const order = await paid(user);
    const admin = await operator("operator");
    await advanceOrder(order.order_number, "delivering", admin.id);
    const [size] = Object.entries(JSON.parse(order.package_counts) as Record<string, number>).find(([, count]) => count > 0)!;
    expect(await failDelivery(order.order_number, { id: admin.id }, { reason: "一件找不到", missing: { [size]: 1 } })).toMatchObject({ ok: true });
    const detail = await orderDetail((await findOrder(order.order_number))!);
    const unit = order.original_fen / 2;
    expect(detail.breakdown).toMatchObject({
      lines: [{ type: size, count: 2, unitFen: unit }],
      originalFen: order.original_fen,
      discountFen: order.discount_fen,
      deliveryFeeFen: 0,
      paidFen: order.amount_fen,
      refunds: [{ amountFen: order.amount_fen - Math.max(0, unit - order.discount_fen), reason: "一件找不到", state: "refunded" }],
    });
  });
});
