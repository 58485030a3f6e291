// Orders on both dialects with the simulated provider of development: creation from the checkout
// and from the product rules' JSON (idempotent under 20 parallel submissions, prices recomputed whatever
// the client says), paying through create-payment and the status poll, the customer's cancel,
// refund request and review, the closer, the order pages, another user's order refused on every
// path, account deletion and merges.
import { describe, expect, it } from "vitest";
import type { PickupEntry } from "~/lib/pickup-entries";
import { loader as statusLoader } from "~/routes/api.express.orders.$id.payment-status";
import { action as createAction } from "~/routes/api.express.order_create";
import { action as detailAction } from "~/routes/api.order.detail";
import { action as paymentAction } from "~/routes/api.pay.wechat.create-payment";
import { action as pageAction, loader as pageLoader } from "~/routes/express.orders.$orderId/route";
import { action as cancelAction } from "~/routes/express.orders.$orderId.cancel/route";
import { action as refundAction } from "~/routes/express.orders.$orderId.refund/route";
import { action as reviewAction } from "~/routes/express.orders.$orderId.review/route";
import { action as payPageAction, loader as payPageLoader } from "~/routes/market.pay.$orderId/route";
import { loader as ordersLoader } from "~/routes/orders/route";
import { orders } from "~/lib/messages/orders";
import { mergeUserRows } from "~/server/auth/messenger.server";
import { db, now } from "~/server/db/db.server";
import { saveAddress } from "~/server/market/addresses.server";
import { loadCheckout, updateCheckout } from "~/server/market/checkout.server";
import { loadExpressConfig } from "~/server/market/market-config.server";
import { deleteUserData } from "~/server/users/deletion.server";
import { call, postJson as json, postForm as form, createMessengerUser, createStudent, request, sessionCookieFor, type TestUser } from "../../../tests/setup/helpers";
import { FIVE_CODES, orderCreateBody } from "../../../tests/fixtures/order-create";
import { advanceOrder, closeExpiredOrders } from "./cancel.server";
import { createOrderFromCheckout, findOrder, orderDetail } from "./orders.server";
import { ANONYMISED_ORDER } from "./personal-data.server";
import { orderAddress } from "~/lib/address";
import { toCard } from "~/server/admin/orders.server";
import { approveRefund, pendingRefundRequests, rejectRefund } from "./refunds.server";

const TYPES = async () => {
  const result = await loadExpressConfig("jinpenling");
  if (!result.ok) throw new Error("no config");
  return result.config.packageTypes;
};

function entry(code: string, company = "中通快递"): PickupEntry {
  return { id: `e-${code}`, company, pickupCode: code, trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code", source: "manual" };
}

/** A messenger user with an address and a checkout holding `codes` (a student too when `student`). */
async function customer(options: { codes?: string[]; student?: boolean } = {}) {
  const user: TestUser = options.student
    ? await createStudent({ openid: `oStudent${Math.random().toString(36).slice(2, 12)}`, campus_code: "jinpenling", wechat_authorized_at: now() })
    : await createMessengerUser({ campus_code: "jinpenling" });
  const cookie = await sessionCookieFor(user.id);
  await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });
  const codes = options.codes ?? ["5-5-1201", "62093517"];
  const types = await TYPES();
  const { checkout } = await updateCheckout(user.id, types, () => ({ set: { entries: codes.map((code) => entry(code)), remark: "放门口" }, result: null }));
  return { user, cookie, checkout };
}

async function place(user: TestUser) {
  const checkout = await loadCheckout(user.id, await TYPES());
  const result = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
  if (!result.ok) throw new Error(result.reason);
  return (await findOrder(result.orderNumber))!;
}

/** An order paid through the simulated provider (create-payment, 1.5 s, the status poll). */
async function paidOrder(user: TestUser, cookie: string) {
  const order = await place(user);
  await call(paymentAction as never, json("/api/pay/wechat/create-payment", { order_id: order.order_number }, cookie));
  await new Promise((resolve) => setTimeout(resolve, 1600));
  await call(statusLoader as never, request(`/api/express/orders/${order.order_number}/payment-status`, { cookie }), { id: order.order_number });
  const paid = (await findOrder(order.order_number))!;
  expect(paid.payment_status).toBe("paid");
  return paid;
}

async function setStatus(number: string, status: "paid" | "assigned" | "picking" | "delivering" | "completed") {
  const at = now();
  await db()
    .updateTable("orders")
    .set({ status, payment_status: "paid", paid_at: at, ...(status === "completed" ? { completed_at: at } : {}), updated_at: at })
    .where("order_number", "=", number)
    .execute();
}

describe("creating an order", () => {
  it("from the checkout: the snapshot, prices from the campus config, the number, the delivery estimate, the audit event", async () => {
    const { user, checkout } = await customer();
    const result = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
    expect(result).toMatchObject({ ok: true, created: true, amountFen: 240 });
    const order = (await findOrder((result as { orderNumber: string }).orderNumber))!;
    expect(order.order_number).toMatch(/^E\d{8}\d{6}$/);
    expect(order).toMatchObject({
      user_id: user.id,
      order_type: "express",
      campus_code: "jinpenling",
      campus_name: "金盆岭校区",
      recipient_name: "张三",
      recipient_phone: "13800138000",
      recipient_dorm: "西苑3栋",
      recipient_room: "302",
      delivery_address: "金盆岭校区 西苑3栋302",
      parcel_count: 2,
      original_fen: 240,
      discount_fen: 0,
      amount_fen: 240,
      status: "created",
      payment_status: "pending",
      remark: "放门口",
    });
    expect(JSON.parse(order.package_counts)).toEqual({ pocket: 2, small: 0, medium: 0, large: 0 });
    expect(JSON.parse(order.pickup_codes!).map((item: { pickupCode: string }) => item.pickupCode)).toEqual(["5-5-1201", "62093517"]);
    expect(Date.parse(order.expires_at) - Date.parse(order.created_at)).toBe(24 * 3600_000);
    expect(order.estimated_delivery_at).toMatch(/T(05:30|11:30):00\.000Z$/);
    const events = await db().selectFrom("order_events").select(["type", "to_status", "actor"]).where("order_id", "=", order.id).execute();
    expect(events).toEqual([{ type: "created", to_status: "created", actor: "customer" }]);
  });

  it("20 parallel identical submissions of one checkout create one order (the sheet's form and the JSON call)", async () => {
    const { user, cookie, checkout } = await customer();
    const viaSheet = await Promise.all(
      Array.from({ length: 20 }, () => createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version })),
    );
    const numbers = new Set(viaSheet.map((result) => (result.ok ? result.orderNumber : result.reason)));
    expect(numbers.size).toBe(1);
    expect(viaSheet.filter((result) => result.ok && result.created)).toHaveLength(1);

    const other = await customer();
    const body = orderCreateBody(["1-1-1001"], { expressPackageCounts: { pocket: 1 } });
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(createAction as never, json("/api/express/order_create", body, other.cookie))));
    const bodies = await Promise.all(answers.map((response) => response.json()));
    expect(answers.map((response, i) => [response.status, response.status === 200 ? "" : JSON.stringify(bodies[i])]).filter(([status]) => status !== 200)).toEqual([]);
    expect(new Set(bodies.map((b) => b.data.order_id)).size).toBe(1);
    expect(bodies.filter((b) => b.data.created)).toHaveLength(1);
    const rows = await db().selectFrom("orders").select("id").where("user_id", "in", [user.id, other.user.id]).execute();
    expect(rows).toHaveLength(2);
    void cookie;
  });

  it("prices are recomputed on the server: a forged total, prices and amounts in the body change nothing", async () => {
    const { cookie } = await customer();
    const response = await call(
      createAction as never,
      json(
        "/api/express/order_create",
        {
          campus_code: "jinpenling",
          recipient_name: "王五",
          recipient_phone: "13700137000",
          recipient_dorm: "西苑2栋",
          recipient_room: "208",
          expressCheckoutList: [
            { pickupCode: "2-2-2002", company: "韵达快递", price: 0.01 },
            { trackingNumber: "YT7531234567890", stationName: "北门驿站", price: 0.01 },
          ],
          expressPackageCounts: { large: 2, pocket: 0 },
          total_amount: 0.01,
          actual_amount: 0.01,
          amount_fen: 1,
          final_total: 0,
        },
        cookie,
      ),
    );
    const body = await response.json();
    expect(body).toMatchObject({ success: true, data: { amount_fen: 800 } });
    const order = (await findOrder(body.data.order_id))!;
    expect(order).toMatchObject({ original_fen: 800, amount_fen: 800, parcel_count: 2, delivery_address: "金盆岭校区 西苑2栋208" });
  });

  it("refuses without a messenger identity, an address or parcels, with the product rules' messages", async () => {
    const anonymous = await call(createAction as never, json("/api/express/order_create", {}));
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).message).toBe("未获取到微信用户信息，请重新授权登录");
    const student = await createStudent({ campus_code: "jinpenling" });
    const studentOnly = await call(createAction as never, json("/api/express/order_create", {}, await sessionCookieFor(student.id)));
    expect((await studentOnly.json()).message).toBe("未获取到微信用户信息，请重新授权登录");

    const { cookie } = await customer();
    const list = [{ pickupCode: "3-3-3003", company: "申通快递" }];
    const noAddress = await call(createAction as never, json("/api/express/order_create", { campus_code: "jinpenling", expressCheckoutList: list }, cookie));
    expect((await noAddress.json()).message).toBe("请先选择收货地址");
    const recipient = { recipient_name: "赵六", recipient_phone: "13600136000", recipient_dorm: "西苑5栋", recipient_room: "501" };
    const noParcels = await call(createAction as never, json("/api/express/order_create", { campus_code: "jinpenling", ...recipient, expressCheckoutList: [] }, cookie));
    expect((await noParcels.json()).message).toBe("快递清单不能为空");
    const closedCampus = await call(createAction as never, json("/api/express/order_create", { campus_code: "tianxin", ...recipient, expressCheckoutList: list }, cookie));
    expect((await closedCampus.json()).message).toBe("该校区暂未开通快递代拿服务");

    // The sheet: no address saved yet.
    const bare = await createMessengerUser({ campus_code: "jinpenling" });
    const { checkout } = await updateCheckout(bare.id, await TYPES(), () => ({ set: { entries: [entry("4-4-4004")] }, result: null }));
    expect(await createOrderFromCheckout(bare, "jinpenling", { checkoutId: checkout.id, version: checkout.version })).toMatchObject({ ok: false, reason: "need_address" });
    // A checkout changed since the sheet was shown is stale.
    expect(await createOrderFromCheckout(bare, "jinpenling", { checkoutId: checkout.id, version: checkout.version - 1 })).toMatchObject({ ok: false, reason: "stale" });
  });
});

describe("paying with the simulated provider", () => {
  it("create-payment gives the six pay params; the status poll finds it paid 1.5 s later, once, with its messages", async () => {
    const { user, cookie } = await customer();
    const order = await place(user);
    const created = await call(paymentAction as never, json("/api/pay/wechat/create-payment", { order_id: order.order_number, openid: "forged" }, cookie));
    const body = await created.json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.data.pay_params).sort()).toEqual(["appId", "nonceStr", "package", "paySign", "signType", "timeStamp"]);
    expect(body.data.simulated).toBe(true);

    const poll = () => call(statusLoader as never, request(`/api/express/orders/${order.order_number}/payment-status`, { cookie }), { id: order.order_number });
    expect((await (await poll()).json()).data).toMatchObject({ paid: false, payment_status: "pending" });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const [first, second] = await Promise.all([poll(), poll()]);
    expect((await first.json()).data).toMatchObject({ paid: true, order_status: "paid", payment_status: "paid" });
    expect((await second.json()).data.paid).toBe(true);

    const paid = (await findOrder(order.order_number))!;
    expect(paid).toMatchObject({ status: "paid", payment_status: "paid" });
    const events = await db().selectFrom("order_events").select("type").where("order_id", "=", order.id).where("type", "=", "paid").execute();
    expect(events).toHaveLength(1);
    const inbox = await db().selectFrom("inbox_items").select("dedupe_key").where("user_id", "=", user.id).execute();
    expect(inbox).toEqual([{ dedupe_key: `order:${order.order_number}:paid` }]);
    const outbox = await db().selectFrom("outbox_messages").select("template_key").where("user_id", "=", user.id).execute();
    expect(outbox.map((row) => row.template_key)).toEqual(["EXPRESS_ORDER"]);
    // The checkout it came from is emptied (the sheet closes on a clean slate); the address stays.
    const checkout = await loadCheckout(user.id, await TYPES());
    expect(checkout).toMatchObject({ entries: [], remark: "" });
    expect(await db().selectFrom("addresses").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);
    // Paying twice is refused.
    const again = await call(paymentAction as never, json("/api/pay/wechat/create-payment", { order_id: order.order_number }, cookie));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ success: false, message: "订单已支付，请勿重复支付", data: { paid: true } });
  });

  it("without JavaScript the pay form of the order page redirects to ?paying=1 and the reload finds it paid", async () => {
    const { user, cookie } = await customer({ student: true });
    const order = await place(user);
    const path = `/express/orders/${order.order_number}`;
    const response = await call(pageAction as never, form(path, { intent: "pay" }, cookie), { orderId: order.order_number });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`${path}?paying=1`);
    const waiting = await (await call(pageLoader as never, request(`${path}?paying=1`, { cookie }), { orderId: order.order_number })).json();
    expect(waiting).toMatchObject({ paying: 1, order: { order_status: "created" } });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const done = await (await call(pageLoader as never, request(`${path}?paying=2`, { cookie }), { orderId: order.order_number })).json();
    expect(done).toMatchObject({ paying: 0, order: { order_status: "paid", view: { label: "等待骑手接单", percent: 30, groupLabel: "进行中" } } });
  });
});

describe("the customer's actions", () => {
  it("each route holds its own intent: a cancel posted to the order page or a refund to the cancel route changes nothing", async () => {
    const { user, cookie } = await customer({ student: true });
    const order = await place(user);
    const path = `/express/orders/${order.order_number}`;
    const onPage = await call(pageAction as never, form(path, { intent: "cancel" }, cookie), { orderId: order.order_number });
    expect(onPage.status).toBe(400);
    expect(await onPage.json()).toMatchObject({ intent: "cancel", error: orders.failures.notAllowed });
    const onCancel = await call(cancelAction as never, form(`${path}/cancel`, { intent: "refund", reason: "不要了" }, cookie), { orderId: order.order_number });
    expect(onCancel.status).toBe(400);
    expect(await onCancel.json()).toMatchObject({ intent: "refund", error: orders.failures.notAllowed });
    expect(await findOrder(order.order_number)).toMatchObject({ status: "created", payment_status: "pending", refund_state: null });
  });

  it("cancelling an unpaid order makes it cancelled and releases its parcels: they may be ordered again", async () => {
    const { user, cookie, checkout } = await customer({ student: true });
    const order = await place(user);
    const path = `/express/orders/${order.order_number}`;
    const response = await call(cancelAction as never, form(`${path}/cancel`, { intent: "cancel", reason: "不需要了" }, cookie), { orderId: order.order_number });
    expect(response.headers.get("Location")).toBe(`${path}?notice=cancelled`);
    expect(await findOrder(order.order_number)).toMatchObject({ status: "cancelled", payment_status: "closed", cancel_reason: "不需要了", idempotency_key: null });
    // The order took its parcels out of the list; listed again, they are no longer held.
    const { checkout: relisted } = await updateCheckout(user.id, await TYPES(), () => ({ set: { entries: checkout.entries }, result: null }));
    const again = await createOrderFromCheckout(user, "jinpenling", { checkoutId: relisted.id, version: relisted.version });
    expect(again).toMatchObject({ ok: true, created: true });
    expect((again as { orderNumber: string }).orderNumber).not.toBe(order.order_number);
    // A second cancel of the cancelled order is refused with the product rules' message.
    const twice = await call(cancelAction as never, form(`${path}/cancel`, { intent: "cancel" }, cookie), { orderId: order.order_number });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error).toBe(`${orders.failures.cancel}：${orders.failures.notAllowed}`);
  });

  it("cancelling a paid order starts a refund at once: refunded, never 'cancelled'", async () => {
    const { user, cookie } = await customer({ student: true });
    const order = await paidOrder(user, cookie);
    const path = `/express/orders/${order.order_number}`;
    const response = await call(cancelAction as never, form(`${path}/cancel`, { intent: "cancel" }, cookie), { orderId: order.order_number });
    expect(response.headers.get("Location")).toBe(`${path}?notice=cancelRefund`);
    expect(await findOrder(order.order_number)).toMatchObject({ status: "refunded", payment_status: "refunded", refund_state: "refunded" });
    const refund = await db().selectFrom("refunds").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ kind: "cancel", state: "succeeded", amount_fen: 240, out_refund_no: `${order.order_number}R1` });
    expect(await db().selectFrom("inbox_items").select("dedupe_key").where("user_id", "=", user.id).orderBy("id").execute()).toEqual([
      { dedupe_key: `order:${order.order_number}:paid` },
      { dedupe_key: `order:${order.order_number}:refunded` },
    ]);
    // Header, bar and banner agree: refunded, no bar, '已退款', and no estimate.
    const page = await (await call(pageLoader as never, request(`${path}?notice=cancelRefund`, { cookie }), { orderId: order.order_number })).json();
    expect(page.order.view).toMatchObject({ label: "退款成功", percent: null, amountKind: "paid", showEstimate: false });
    expect(page.done).toBe("订单已取消，已退款");
  });

  it("a cancelled, never-paid order shows no paid amount and no estimated delivery", async () => {
    const { user, cookie } = await customer({ student: true });
    const order = await place(user);
    const path = `/express/orders/${order.order_number}`;
    const unpaid = await (await call(pageLoader as never, request(path, { cookie }), { orderId: order.order_number })).json();
    expect(unpaid.order.view).toMatchObject({ amountKind: "due", showEstimate: true });
    await call(cancelAction as never, form(`${path}/cancel`, { intent: "cancel" }, cookie), { orderId: order.order_number });
    const page = await (await call(pageLoader as never, request(`${path}?notice=cancelled`, { cookie }), { orderId: order.order_number })).json();
    expect(page.order.view).toMatchObject({ label: "订单已取消", amountKind: "total", showEstimate: false });
    expect(page.done).toBe("订单已取消");
    await setStatus(order.order_number, "completed");
    const completed = await (await call(pageLoader as never, request(path, { cookie }), { orderId: order.order_number })).json();
    expect(completed.order.view).toMatchObject({ percent: 100, amountKind: "paid", showEstimate: false });
  });

  it("a refund request needs a reason, waits for an operator, and is approved to refunded or rejected", async () => {
    const { user, cookie } = await customer({ student: true });
    const order = await paidOrder(user, cookie);
    await db().updateTable("orders").set({ status: "delivering" }).where("id", "=", order.id).execute();
    const path = `/express/orders/${order.order_number}`;
    const empty = await call(refundAction as never, form(`${path}/refund`, { intent: "refund", reason: "  " }, cookie), { orderId: order.order_number });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ intent: "refund", field: "reason", error: "请输入退款原因" });

    const asked = await call(refundAction as never, form(`${path}/refund`, { intent: "refund", reason: "包裹破损" }, cookie), { orderId: order.order_number });
    expect(asked.headers.get("Location")).toBe(`${path}?notice=refundRequested`);
    const page = await (await call(pageLoader as never, request(path, { cookie }), { orderId: order.order_number })).json();
    expect(page.order.view).toMatchObject({ label: "配送中", refundLabel: "退款审核中", actions: ["contact"] });

    const [queued] = (await pendingRefundRequests()).filter((row) => row.order_number === order.order_number);
    expect(queued).toMatchObject({ reason: "包裹破损", amount_fen: 240 });
    expect(await rejectRefund(queued!.id, 1, "已送达")).toMatchObject({ ok: true, state: "rejected" });
    expect(await findOrder(order.order_number)).toMatchObject({ status: "delivering", refund_state: "rejected" });
    expect(await approveRefund(queued!.id, 1)).toEqual({ ok: false, reason: "not_requested" });
    // The customer reads the operator's reason on the order page.
    const rejectedPage = await (await call(pageLoader as never, request(path, { cookie }), { orderId: order.order_number })).json();
    expect(rejectedPage.order).toMatchObject({ refund_state: "rejected", refund_rejection: "已送达" });
    expect(rejectedPage.order.view).toMatchObject({ refundLabel: "退款申请未通过" });

    // Asked again (a rejected request may be repeated), then approved: the simulated refund succeeds at once.
    await call(refundAction as never, form(`${path}/refund`, { intent: "refund", reason: "还是要退" }, cookie), { orderId: order.order_number });
    const [second] = (await pendingRefundRequests()).filter((row) => row.order_number === order.order_number);
    expect(await approveRefund(second!.id, 1)).toMatchObject({ ok: true, state: "succeeded" });
    expect(await findOrder(order.order_number)).toMatchObject({ status: "refunded", payment_status: "refunded", refund_state: "refunded" });
    expect(await db().selectFrom("refunds").select(["out_refund_no", "state"]).where("order_id", "=", order.id).orderBy("id").execute()).toEqual([
      { out_refund_no: `${order.order_number}R1`, state: "rejected" },
      { out_refund_no: `${order.order_number}R2`, state: "succeeded" },
    ]);
  });

  it("a completed order is reviewed once (rating 5 by default, optional comment)", async () => {
    const { user, cookie } = await customer({ student: true });
    const order = await place(user);
    const path = `/express/orders/${order.order_number}`;
    const early = await call(reviewAction as never, form(`${path}/review`, { intent: "review" }, cookie), { orderId: order.order_number });
    expect(early.status).toBe(409);
    expect((await early.json()).error).toBe(`${orders.failures.review}：${orders.failures.notAllowed}`);
    await setStatus(order.order_number, "completed");
    const response = await call(reviewAction as never, form(`${path}/review`, { intent: "review", comment: "很快" }, cookie), { orderId: order.order_number });
    expect(response.headers.get("Location")).toBe(`${path}?notice=reviewed`);
    const page = await (await call(pageLoader as never, request(path, { cookie }), { orderId: order.order_number })).json();
    expect(page.order.review).toEqual({ rating: 5, text: "非常满意", comment: "很快" });
    expect(page.order.view.actions).toEqual(["refund", "contact"]);
    const twice = await call(reviewAction as never, form(`${path}/review`, { intent: "review", rating: "1" }, cookie), { orderId: order.order_number });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error).toBe(`${orders.failures.review}：${orders.failures.alreadyReviewed}`);
    const bad = await call(reviewAction as never, form(`${path}/review`, { intent: "review", rating: "9" }, cookie), { orderId: order.order_number });
    expect(bad.status).toBe(400);
  });

  it("operators move a paid order on; each step the customer hears about is notified once", async () => {
    const { user } = await customer();
    const order = await place(user);
    await setStatus(order.order_number, "paid");
    expect(await advanceOrder(order.order_number, "completed", 1)).toMatchObject({ ok: true });
    expect(await advanceOrder(order.order_number, "delivering", 1)).toEqual({ ok: false, reason: "not_allowed" });
    const fresh = (await findOrder(order.order_number))!;
    expect(fresh.completed_at).not.toBeNull();
    expect(await db().selectFrom("inbox_items").select("dedupe_key").where("user_id", "=", user.id).execute()).toEqual([{ dedupe_key: `order:${order.order_number}:completed` }]);
  });
});

describe("the unpaid closer", () => {
  it("closes orders unpaid after 24 hours (their prepay too) and leaves younger ones", async () => {
    const { user, cookie } = await customer();
    const old = await place(user);
    const later = new Date(Date.parse(old.expires_at) + 60_000);
    const young = await (async () => {
      const next = await customer();
      return place(next.user);
    })();
    await db().updateTable("orders").set({ expires_at: new Date(later.getTime() + 3600_000).toISOString() }).where("id", "=", young.id).execute();
    // The simulated payer pays 1.5 s after the params: nothing but the close comes between them
    // (on a loaded machine, placing the second order in between took longer than that).
    await call(paymentAction as never, json("/api/pay/wechat/create-payment", { order_id: old.order_number }, cookie));
    expect(await closeExpiredOrders(later)).toBeGreaterThanOrEqual(1);
    expect(await findOrder(old.order_number)).toMatchObject({ status: "cancelled", payment_status: "closed" });
    expect(await findOrder(young.order_number)).toMatchObject({ status: "created" });
    const events = await db().selectFrom("order_events").select(["type", "actor"]).where("order_id", "=", old.id).orderBy("id").execute();
    expect(events.at(-1)).toEqual({ type: "closed", actor: "system" });
    expect(await db().selectFrom("payments").select("state").where("order_id", "=", old.id).executeTakeFirst()).toEqual({ state: "closed" });
    expect(await closeExpiredOrders(later)).toBe(0);
  });
});

describe("the order pages", () => {
  it("/orders lists my orders newest first, 10 at a time, with status, amount, parcels and time", async () => {
    const { user, cookie } = await customer({ student: true });
    const numbers: string[] = [];
    for (let index = 0; index < 11; index += 1) {
      const types = await TYPES();
      await updateCheckout(user.id, types, (current) => ({ set: { entries: [entry(`9-9-${1000 + index}`)], remark: String(index) }, result: current }));
      numbers.push((await place(user)).order_number);
    }
    const first = await (await call(ordersLoader as never, request("/orders", { cookie }))).json();
    expect(first.items).toHaveLength(10);
    expect(first.more).toBe(true);
    expect(first.items[0]).toMatchObject({ orderNumber: numbers[10], label: "订单已创建", groupLabel: "待支付", amountFen: 120, parcelCount: 1 });
    const all = await (await call(ordersLoader as never, request("/orders?page=2", { cookie }))).json();
    expect(all.items.map((item: { orderNumber: string }) => item.orderNumber)).toEqual([...numbers].reverse());
    expect(all.more).toBe(false);
  });

  it("the detail has the product rules' fields, pickup codes and actions; 'undefined' is an invalid order ID", async () => {
    const { user, cookie } = await customer({ student: true });
    const order = await place(user);
    const detail = await (await call(detailAction as never, json("/api/order/detail", { order_number: order.order_number }, cookie))).json();
    expect(detail.data).toMatchObject({
      order_id: order.order_number,
      order_number: order.order_number,
      order_status: "created",
      payment_status: "pending",
      actual_amount: 2.4,
      recipient_campus: "金盆岭校区",
      recipient_dorm: "西苑3栋",
      recipient_room: "302",
      recipient_name: "张三",
      order_type: "express",
      pickup_codes: [
        { company: "中通快递", code: "5-5-1201", station: "梨园菜鸟驿站", trackingNumber: null, pickupType: "code" },
        { company: "中通快递", code: "62093517", station: "梨园菜鸟驿站", trackingNumber: null, pickupType: "code" },
      ],
      package_counts: { pocket: 2, small: 0, medium: 0, large: 0 },
    });
    expect(detail.data.id).toBeUndefined();
    const page = await (await call(pageLoader as never, request(`/express/orders/${order.order_number}`, { cookie }), { orderId: order.order_number })).json();
    expect(page).toMatchObject({ kind: "ok", path: `/express/orders/${order.order_number}`, contact: { hours: "9:00–21:00" }, order: { view: { percent: 10, actions: ["pay", "cancel", "contact"] } } });

    const invalid = await call(pageLoader as never, request("/express/orders/undefined", { cookie }), { orderId: "undefined" });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).message).toBe("无效的订单ID");
    const invalidApi = await call(detailAction as never, json("/api/order/detail", { order_number: "undefined" }, cookie));
    expect((await invalidApi.json()).message).toBe("无效的订单ID");
  });

  it("another user's order is a 404 on every path, and nothing changes", async () => {
    const owner = await customer({ student: true });
    const order = await place(owner.user);
    const intruder = await customer({ student: true });
    const cookie = intruder.cookie;
    const number = order.order_number;
    const path = `/express/orders/${number}`;
    const statuses = [
      (await call(pageLoader as never, request(path, { cookie }), { orderId: number })).status,
      (await call(pageAction as never, form(path, { intent: "pay" }, cookie), { orderId: number })).status,
      (await call(cancelAction as never, form(`${path}/cancel`, { intent: "cancel" }, cookie), { orderId: number })).status,
      (await call(refundAction as never, form(`${path}/refund`, { intent: "refund", reason: "x" }, cookie), { orderId: number })).status,
      (await call(reviewAction as never, form(`${path}/review`, { intent: "review" }, cookie), { orderId: number })).status,
      (await call(detailAction as never, json("/api/order/detail", { order_number: number }, cookie))).status,
      (await call(paymentAction as never, json("/api/pay/wechat/create-payment", { order_id: number }, cookie))).status,
      (await call(statusLoader as never, request(`/api/express/orders/${number}/payment-status`, { cookie }), { id: number })).status,
      (await call(payPageLoader as never, request(`/market/pay/${number}`, { cookie }), { orderId: number })).status,
      (await call(payPageAction as never, form(`/market/pay/${number}`, { intent: "pay" }, cookie), { orderId: number })).status,
    ];
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404, 404]);
    const unchanged = await findOrder(number);
    expect(unchanged).toMatchObject({ status: "created", payment_status: "pending", refund_state: null });
    expect(await db().selectFrom("payments").select("id").where("order_id", "=", order.id).execute()).toEqual([]);
    // Without a session at all: the JSON paths answer 401, the pages send to the login.
    expect((await call(detailAction as never, json("/api/order/detail", { order_number: number }))).status).toBe(401);
    expect((await call(pageLoader as never, request(path), { orderId: number })).headers.get("Location")).toMatch(/^\/crLogin\?redirectTo=/);
  });
});

describe("personal data", () => {
  it("account deletion keeps an anonymised accounting row", async () => {
    const { user, cookie } = await customer({ student: true });
    const order = await place(user);
    await call(paymentAction as never, json("/api/pay/wechat/create-payment", { order_id: order.order_number }, cookie));
    await setStatus(order.order_number, "completed");
    await call(reviewAction as never, form(`/express/orders/${order.order_number}/review`, { intent: "review", comment: "送得很快-甲乙" }, cookie), { orderId: order.order_number });
    await db().transaction().execute((trx) => deleteUserData(trx, user.id));
    const row = (await findOrder(order.order_number))!;
    expect(row).toMatchObject({
      ...ANONYMISED_ORDER,
      amount_fen: 240,
      status: "completed",
      order_number: order.order_number,
    });
    expect(await db().selectFrom("reviews").select(["user_id", "comment", "rating"]).where("order_id", "=", order.id).executeTakeFirst()).toEqual({ user_id: null, comment: null, rating: 5 });
    expect(await db().selectFrom("payments").select("payer_openid").where("order_id", "=", order.id).executeTakeFirst()).toEqual({ payer_openid: null });
  });

  it("orders and reviews follow a merge of two rows of one person", async () => {
    const { user } = await customer();
    const order = await place(user);
    const student = await createStudent();
    await db().transaction().execute((trx) => mergeUserRows(user.id, student.id, trx));
    expect(await findOrder(order.order_number)).toMatchObject({ user_id: student.id });
  });
});

describe("one parcel, one charge; the right address", () => {
  const jsonBody = (over: Record<string, unknown> = {}) => orderCreateBody(FIVE_CODES, over);
  const ordersOf = async (userId: number) => db().selectFrom("orders").select(["order_number", "amount_fen", "parcel_count"]).where("user_id", "=", userId).execute();

  it.each([
    ["fewer counted than parcels", { pocket: 1 }],
    ["more counted than parcels", { pocket: 6 }],
    ["a negative count", { pocket: 6, small: -1 }],
    ["an unknown type", { pocket: 4, huge: 1 }],
  ])("the JSON call with %s is a 400 and stores nothing", async (_name, counts) => {
    const { user, cookie } = await customer();
    const response = await call(createAction as never, json("/api/express/order_create", jsonBody({ expressPackageCounts: counts }), cookie));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, message: "各类型件数之和必须等于快递数量，请重新确认" });
    expect(await ordersOf(user.id)).toEqual([]);
  });

  it("the JSON call with counts adding up is priced on the server for every parcel", async () => {
    const { user, cookie } = await customer();
    const response = await call(createAction as never, json("/api/express/order_create", jsonBody({ expressPackageCounts: { pocket: 4, large: 1 } }), cookie));
    expect(response.status).toBe(200);
    expect(await ordersOf(user.id)).toMatchObject([{ parcel_count: 5, amount_fen: 4 * 120 + 400 }]);
  });

  it("the JSON call sent again after its order was made answers with that order; changed parcels or counts are refused", async () => {
    const { user, cookie } = await customer();
    const first = await call(createAction as never, json("/api/express/order_create", jsonBody({ expressPackageCounts: { pocket: 5 } }), cookie));
    expect(first.status).toBe(200);
    const made = (await first.json()).data;
    expect(made.created).toBe(true);
    // The order moved the checkout one version on; the same body again is the same submission.
    const again = await call(createAction as never, json("/api/express/order_create", jsonBody({ expressPackageCounts: { pocket: 4, small: 1 } }), cookie));
    expect(again.status).toBe(409);
    const replay = await call(createAction as never, json("/api/express/order_create", jsonBody({ expressPackageCounts: { pocket: 5 } }), cookie));
    expect(replay.status).toBe(200);
    expect((await replay.json()).data).toMatchObject({ order_id: made.order_id, created: false });
    const fewer = await call(createAction as never, json("/api/express/order_create", jsonBody({ expressCheckoutList: [{ pickupCode: "1-1-1001", company: "圆通速递", stationName: "南门驿站" }], expressPackageCounts: { pocket: 1 } }), cookie));
    expect(fewer.status).toBe(409);
    expect(await ordersOf(user.id)).toHaveLength(1);
  });

  it("the same parcel twice in one request (another carrier, full-width code) is refused", async () => {
    const { user, cookie } = await customer();
    const list = [
      { pickupCode: "7-2-3301", company: "韵达快递", stationName: "菜鸟驿站" },
      { pickupCode: "７－２－３３０１", company: "中通快递", stationName: "菜鸟驿站" },
    ];
    const response = await call(createAction as never, json("/api/express/order_create", jsonBody({ expressCheckoutList: list, expressPackageCounts: { pocket: 2 } }), cookie));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("该快递信息已存在，请勿重复添加");
    expect(await ordersOf(user.id)).toEqual([]);
  });

  it("a parcel of a live order is refused in a new order (with a link to it) until that order is cancelled", async () => {
    const { user, cookie } = await customer({ codes: ["8-6-1066"] });
    const first = await place(user);
    // The order took the parcel out of the list.
    expect((await loadCheckout(user.id, await TYPES())).entries).toEqual([]);
    // Listed again (another carrier this time) and ordered again, from the sheet and the JSON call.
    const { checkout } = await updateCheckout(user.id, await TYPES(), () => ({ set: { entries: [entry("8-6-1066", "韵达快递")] }, result: null }));
    const again = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
    expect(again).toEqual({ ok: false, reason: "parcel_in_live_order", liveOrder: first.order_number });
    const viaJson = await call(
      createAction as never,
      json("/api/express/order_create", jsonBody({ expressCheckoutList: [{ pickupCode: "8-6-1066", stationName: "梨园菜鸟驿站" }], expressPackageCounts: { pocket: 1 } }), cookie),
    );
    expect(viaJson.status).toBe(409);
    expect((await viaJson.json()).message).toBe(`该快递已在订单 ${first.order_number} 中，请勿重复下单`);
    expect(await ordersOf(user.id)).toHaveLength(1);
    // The same code at another station is another parcel.
    const elsewhere = await call(
      createAction as never,
      json("/api/express/order_create", jsonBody({ expressCheckoutList: [{ pickupCode: "8-6-1066", stationName: "南门驿站" }], expressPackageCounts: { pocket: 1 } }), cookie),
    );
    expect(elsewhere.status).toBe(200);
    // Paid and in progress still holds it; refunded releases it.
    await setStatus(first.order_number, "picking");
    const fromSheet = async () => {
      const current = await loadCheckout(user.id, await TYPES());
      return createOrderFromCheckout(user, "jinpenling", { checkoutId: current.id, version: current.version });
    };
    expect(await fromSheet()).toMatchObject({ ok: false, liveOrder: first.order_number });
    await db().updateTable("orders").set({ status: "refunded", payment_status: "refunded" }).where("order_number", "=", first.order_number).execute();
    expect(await fromSheet()).toMatchObject({ ok: true, created: true });
  });

  it("another user's live order does not hold my parcel", async () => {
    const mine = await customer({ codes: ["3-3-3003"] });
    const theirs = await customer({ codes: ["3-3-3003"] });
    await place(theirs.user);
    expect((await place(mine.user)).parcel_count).toBe(1);
  });

  it("an address on another campus is refused, never relabelled; the order keeps the address's snapshot", async () => {
    const user = await createMessengerUser({ campus_code: "jinpenling" });
    await saveAddress(user.id, { name: "赵六", phone: "13700137000", campus: "yuntang", building: "2栋", room: "518", isDefault: true });
    const { checkout } = await updateCheckout(user.id, await TYPES(), () => ({ set: { entries: [entry("9-9-9001")] }, result: null }));
    const refused = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
    expect(refused).toMatchObject({ ok: false, reason: "address_campus" });
    expect(await ordersOf(user.id)).toEqual([]);
    // The JSON call naming a building of another campus is refused too.
    const cookie = await sessionCookieFor(user.id);
    const viaJson = await call(
      createAction as never,
      json("/api/express/order_create", jsonBody({ recipient_campus: "云塘校区", recipient_dorm: "2栋", expressCheckoutList: [{ pickupCode: "9-9-9002" }], expressPackageCounts: { pocket: 1 } }), cookie),
    );
    expect(viaJson.status).toBe(400);
    expect((await viaJson.json()).message).toBe("收货地址不在当前服务校区，请选择或新增该校区的地址");
    expect(await ordersOf(user.id)).toEqual([]);

    // An address on the service campus is used even while the other campus's one is the default.
    await saveAddress(user.id, { name: "赵六", phone: "13700137000", campus: "jinpenling", building: "西苑2栋", room: "518", isDefault: false });
    const ok = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
    expect(ok).toMatchObject({ ok: true });
    const order = (await findOrder((ok as { orderNumber: string }).orderNumber))!;
    expect(order).toMatchObject({ campus_code: "jinpenling", campus_name: "金盆岭校区", recipient_dorm: "西苑2栋", recipient_room: "518", delivery_address: "金盆岭校区 西苑2栋518" });
    // Every view shows that snapshot: the customer's page, the admin card (and CSV), the notifications.
    expect((await orderDetail(order)).delivery_address).toBe("金盆岭校区 西苑2栋518");
    expect(toCard(order).address).toBe("金盆岭校区 西苑2栋518");
    expect(orderAddress(order)).toBe("金盆岭校区 西苑2栋518");
  });
});
