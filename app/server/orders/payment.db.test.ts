// Orders with the real pay API v3 provider, talking to the fake pay server on loopback
// (tests/fakes/wechatpay-server.ts) with keys made here, on both dialects: notifications
// delivered five times mark an order paid once and queue each message once; bad signatures,
// probes, stale or tampered notifications and other amounts are refused; the status poll's query
// pays an order without a notification; refunds (a cancel at once, a request after approval)
// reach refunded through the fake's refund notification; the closer closes the provider's trade.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PickupEntry } from "~/lib/pickup-entries";
import { loader as statusLoader } from "~/routes/api.express.orders.$id.payment-status";
import { action as paymentAction } from "~/routes/api.pay.wechat.create-payment";
import { action as notifyAction } from "~/routes/api.pay.wechat.notify";
import { action as cancelAction } from "~/routes/express.orders.$orderId.cancel/route";
import { action as refundAction } from "~/routes/express.orders.$orderId.refund/route";
import { action as supplementAction } from "~/routes/express.orders.$orderId.supplement/route";
import type { Operator } from "~/server/auth/operator.server";
import { resetConfig } from "~/server/config.server";
import { db, now } from "~/server/db/db.server";
import { saveAddress } from "~/server/market/addresses.server";
import { loadCheckout, updateCheckout } from "~/server/market/checkout.server";
import { loadExpressConfig } from "~/server/market/market-config.server";
import {
  fakeMerchant,
  fakePayEnv,
  fakePayMerchantOption,
  startFakeWechatPay,
  type FakeMerchant,
  type FakeWechatPay,
  type SignedNotification,
} from "../../../tests/fakes/wechatpay-server";
import { call, postJson as json, postForm as form, createStudent, request, sessionCookieFor, type TestUser } from "../../../tests/setup/helpers";
import { advanceOrder, cancelOrder, closeExpiredOrders } from "./cancel.server";
import { createPayment } from "./payment.server";
import { createOrderFromCheckout, findOrder, type OrderRow } from "./orders.server";
import { approveRefund, pendingRefundRequests, sweepRefunds } from "./refunds.server";
import { recordRealSize, supplementByTradeNo } from "./supplements.server";

let fake: FakeWechatPay;
let merchant: FakeMerchant;
let envKeys: string[] = [];

beforeAll(async () => {
  merchant = fakeMerchant();
  fake = await startFakeWechatPay({ merchant: fakePayMerchantOption(merchant) });
  const env = fakePayEnv(fake, merchant);
  envKeys = Object.keys(env);
  Object.assign(process.env, env);
  resetConfig();
  const stamp = now();
  await db()
    .insertInto("operators")
    .values({ username: "pay-op", display_name: "值班员", password_hash: "x", role: "admin", openid: "oOperatorPay000000000000001", disabled: 0, created_at: stamp, last_login_at: null })
    .execute();
});

afterAll(async () => {
  for (const key of envKeys) delete process.env[key];
  resetConfig();
  await fake.close();
});

/** The pay API POSTing a notification to us: the raw body and its Wechatpay-* headers. */
function deliver(notification: SignedNotification) {
  return call(notifyAction as never, new Request("http://localhost/api/pay/wechat/notify", { method: "POST", headers: notification.headers, body: notification.body }));
}

let counter = 0;

/** A student with the messenger identity, an address, and an order of one pocket parcel (¥1.20), its payment created. */
async function unpaidOrder(): Promise<{ user: TestUser; cookie: string; order: OrderRow }> {
  counter += 1;
  const user = await createStudent({ openid: `oPayTest${process.pid}x${counter}`, campus_code: "jinpenling", wechat_authorized_at: now() });
  const cookie = await sessionCookieFor(user.id);
  await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });
  const config = await loadExpressConfig("jinpenling");
  if (!config.ok) throw new Error("no config");
  const entry: PickupEntry = { id: "e1", company: "中通快递", pickupCode: `7-7-${1000 + counter}`, trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code", source: "manual" };
  await updateCheckout(user.id, config.config.packageTypes, () => ({ set: { entries: [entry] }, result: null }));
  const checkout = await loadCheckout(user.id, config.config.packageTypes);
  const created = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
  if (!created.ok) throw new Error(created.reason);
  const response = await call(paymentAction as never, json("/api/pay/wechat/create-payment", { order_id: created.orderNumber }, cookie));
  const body = await response.json();
  expect(body.success).toBe(true);
  expect(body.data.simulated).toBe(false);
  expect(body.data.pay_params.package).toMatch(/^prepay_id=wx/);
  return { user, cookie, order: (await findOrder(created.orderNumber))! };
}

async function paidOrder() {
  const made = await unpaidOrder();
  fake.markPaid(made.order.order_number);
  const answers = await deliver(fake.transactionNotification(made.order.order_number));
  expect(answers.status).toBe(204);
  return { ...made, order: (await findOrder(made.order.order_number))! };
}

async function countWhere(table: "order_events" | "outbox_messages" | "inbox_items", column: string, value: string | number) {
  const rows = await db()
    .selectFrom(table as never)
    .select("id" as never)
    .where(column as never, "=", value as never)
    .execute();
  return rows.length;
}

describe("payment notifications", () => {
  it("the same success delivered five times (at once) marks the order paid once and queues each message once", async () => {
    const { user, order } = await unpaidOrder();
    const trade = fake.markPaid(order.order_number);
    const notification = fake.transactionNotification(order.order_number);
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(notification)));
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204, 204]);

    const paid = (await findOrder(order.order_number))!;
    expect(paid).toMatchObject({ status: "paid", payment_status: "paid" });
    const events = await db().selectFrom("order_events").select(["type", "actor", "note"]).where("order_id", "=", order.id).where("type", "=", "paid").execute();
    expect(events).toEqual([{ type: "paid", actor: "provider", note: trade.transactionId }]);
    const payment = await db().selectFrom("payments").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ provider: "wechatpay", state: "paid", transaction_id: trade.transactionId, payer_openid: user.openid, amount_fen: 120 });
    const messages = await db().selectFrom("outbox_messages").select(["template_key", "openid", "operator_id"]).where("user_id", "=", user.id).orderBy("id").execute();
    expect(messages).toEqual([
      { template_key: "EXPRESS_ORDER", openid: user.openid, operator_id: null },
      { template_key: "NEW_ORDER", openid: "oOperatorPay000000000000001", operator_id: expect.any(Number) },
    ]);
    expect(await countWhere("inbox_items", "user_id", user.id)).toBe(1);

    // Five more, one after another: still once.
    for (let index = 0; index < 5; index += 1) expect((await deliver(notification)).status).toBe(204);
    expect(await countWhere("outbox_messages", "user_id", user.id)).toBe(2);
  });

  it("a bad signature, the SIGNTEST probe, a stale timestamp, a tampered body or another merchant are refused; the order stays unpaid", async () => {
    const { order } = await unpaidOrder();
    fake.markPaid(order.order_number);
    const refused = [
      await deliver(fake.transactionNotification(order.order_number, { signature: "bad" })),
      await deliver(fake.transactionNotification(order.order_number, { signature: "signtest" })),
      await deliver(fake.transactionNotification(order.order_number, { timestampOffsetSeconds: -600 })),
      await deliver(fake.transactionNotification(order.order_number, { tamperCiphertext: true })),
      await deliver(fake.transactionNotification(order.order_number, { mchid: "1900000999" })),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([401, 401, 401, 400, 400]);
    for (const answer of refused) expect(await answer.json()).toMatchObject({ code: "FAIL" });
    expect(await findOrder(order.order_number)).toMatchObject({ status: "created", payment_status: "pending" });
  });

  it("an amount other than the order's is refused and recorded; the right one is then accepted", async () => {
    const { order } = await unpaidOrder();
    fake.markPaid(order.order_number);
    const wrong = await deliver(fake.transactionNotification(order.order_number, { amountFen: 1 }));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: "FAIL", message: "AMOUNT_MISMATCH" });
    expect(await findOrder(order.order_number)).toMatchObject({ status: "created", payment_status: "pending" });
    expect(await db().selectFrom("order_events").select("type").where("order_id", "=", order.id).where("type", "=", "payment_amount_mismatch").execute()).toHaveLength(1);
    expect((await deliver(fake.transactionNotification(order.order_number))).status).toBe(204);
    expect(await findOrder(order.order_number)).toMatchObject({ status: "paid" });
  });

  it("the status poll's query marks a paid trade paid without any notification; an unpaid one stays pending", async () => {
    const { cookie, order } = await unpaidOrder();
    const poll = async () =>
      (await call(statusLoader as never, request(`/api/express/orders/${order.order_number}/payment-status`, { cookie }), { id: order.order_number })).json();
    expect(await poll()).toMatchObject({ success: false, data: { paid: false, payment_status: "pending" } });
    fake.markPaid(order.order_number);
    expect(await poll()).toMatchObject({ success: true, data: { paid: true, order_status: "paid", payment_status: "paid" } });
    expect(fake.requests.filter((row) => row.path.startsWith(`/v3/pay/transactions/out-trade-no/${order.order_number}?`))).toHaveLength(2);
  });
});

describe("refunds through the provider", () => {
  it("an approved refund request reaches refunded through the fake's refund notification (once, however often told)", async () => {
    const { user, cookie, order } = await paidOrder();
    expect(await advanceOrder(order.order_number, "completed", 1)).toMatchObject({ ok: true });
    const path = `/express/orders/${order.order_number}`;
    const asked = await call(refundAction as never, form(`${path}/refund`, { intent: "refund", reason: "少送了一件" }, cookie), { orderId: order.order_number });
    expect(asked.status).toBe(302);
    const [request_] = (await pendingRefundRequests()).filter((row) => row.order_number === order.order_number);

    // The provider answers PROCESSING: the order keeps its status and shows 'refund processing'.
    expect(await approveRefund(request_!.id, 1)).toEqual({ ok: true, refundId: request_!.id, state: "processing" });
    expect(await findOrder(order.order_number)).toMatchObject({ status: "completed", payment_status: "paid", refund_state: "processing" });
    const refund = await db().selectFrom("refunds").selectAll().where("id", "=", request_!.id).executeTakeFirstOrThrow();
    expect(fake.refunds.get(refund.out_refund_no)).toMatchObject({ outTradeNo: order.order_number, refundFen: 120, totalFen: 120, status: "PROCESSING" });

    fake.completeRefund(refund.out_refund_no, "SUCCESS");
    const wrongAmount = await deliver(fake.refundNotification(refund.out_refund_no, { amountFen: 1 }));
    expect(wrongAmount.status).toBe(400);
    expect(await findOrder(order.order_number)).toMatchObject({ refund_state: "processing" });
    const notification = fake.refundNotification(refund.out_refund_no);
    const answers = await Promise.all([deliver(notification), deliver(notification), deliver(notification)]);
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204]);
    expect(await findOrder(order.order_number)).toMatchObject({ status: "refunded", payment_status: "refunded", refund_state: "refunded" });
    expect(await db().selectFrom("refunds").select(["state", "refund_id"]).where("id", "=", refund.id).executeTakeFirst()).toEqual({
      state: "succeeded",
      refund_id: fake.refunds.get(refund.out_refund_no)!.refundId,
    });
    expect(await db().selectFrom("order_events").select("type").where("order_id", "=", order.id).where("type", "=", "refunded").execute()).toHaveLength(1);
    expect(await db().selectFrom("inbox_items").select("dedupe_key").where("user_id", "=", user.id).orderBy("id").execute()).toEqual([
      { dedupe_key: `order:${order.order_number}:paid` },
      { dedupe_key: `order:${order.order_number}:completed` },
      { dedupe_key: `order:${order.order_number}:refunded` },
    ]);
  });

  it("a customer cancel of a paid order refunds at once; an ABNORMAL refund fails and the cancel may be tried again", async () => {
    const { cookie, order } = await paidOrder();
    const path = `/express/orders/${order.order_number}`;
    const cancelled = await call(cancelAction as never, form(`${path}/cancel`, { intent: "cancel", reason: "买错了" }, cookie), { orderId: order.order_number });
    expect(cancelled.headers.get("Location")).toBe(`${path}?notice=cancelRefund`);
    expect(await findOrder(order.order_number)).toMatchObject({ status: "paid", refund_state: "processing", refund_reason: "买错了" });
    const first = `${order.order_number}R1`;
    fake.completeRefund(first, "ABNORMAL");
    expect((await deliver(fake.refundNotification(first))).status).toBe(204);
    expect(await findOrder(order.order_number)).toMatchObject({ status: "paid", refund_state: "failed" });

    // The customer may cancel again: a new refund with its own number (the provider decides).
    const again = await call(cancelAction as never, form(`${path}/cancel`, { intent: "cancel" }, cookie), { orderId: order.order_number });
    expect(again.status).toBe(302);
    expect(await db().selectFrom("refunds").select("out_refund_no").where("order_id", "=", order.id).orderBy("id").execute()).toEqual([
      { out_refund_no: first },
      { out_refund_no: `${order.order_number}R2` },
    ]);
  });

  it("the sweeper asks the provider about a refund whose notification never came", async () => {
    const { cookie, order } = await paidOrder();
    await call(cancelAction as never, form(`/express/orders/${order.order_number}/cancel`, { intent: "cancel" }, cookie), { orderId: order.order_number });
    const number = `${order.order_number}R1`;
    expect(await sweepRefunds(new Date(Date.now() + 10 * 60_000))).toBeGreaterThanOrEqual(1);
    expect(await findOrder(order.order_number)).toMatchObject({ status: "paid", refund_state: "processing" });
    fake.completeRefund(number, "SUCCESS");
    await sweepRefunds(new Date(Date.now() + 20 * 60_000));
    expect(await findOrder(order.order_number)).toMatchObject({ status: "refunded", payment_status: "refunded", refund_state: "refunded" });
  });

  it("the provider refusing a refund (not enough balance) leaves the order paid with the refund failed", async () => {
    const { cookie, order } = await paidOrder();
    fake.failNext("refund", { kind: "error", status: 403, code: "NOT_ENOUGH", message: "余额不足" });
    const path = `/express/orders/${order.order_number}`;
    await call(cancelAction as never, form(`${path}/cancel`, { intent: "cancel" }, cookie), { orderId: order.order_number });
    expect(await findOrder(order.order_number)).toMatchObject({ status: "paid", payment_status: "paid", refund_state: "failed" });
    expect(await db().selectFrom("refunds").select(["state", "error"]).where("order_id", "=", order.id).executeTakeFirst()).toEqual({ state: "failed", error: "INSUFFICIENT_BALANCE" });
  });
});

describe("the closer with the provider", () => {
  it("closes the trade at the provider, then the order; a trade paid meanwhile is marked paid instead", async () => {
    const unpaid = await unpaidOrder();
    const paidMeanwhile = await unpaidOrder();
    fake.markPaid(paidMeanwhile.order.order_number);
    const later = new Date(Date.parse(paidMeanwhile.order.expires_at) + 60_000);
    expect(await closeExpiredOrders(later)).toBeGreaterThanOrEqual(1);
    expect(fake.trades.get(unpaid.order.order_number)!.state).toBe("CLOSED");
    expect(await findOrder(unpaid.order.order_number)).toMatchObject({ status: "cancelled", payment_status: "closed" });
    expect(await findOrder(paidMeanwhile.order.order_number)).toMatchObject({ status: "paid", payment_status: "paid" });
    // The closed trade can no longer be paid.
    const retry = await call(paymentAction as never, json("/api/pay/wechat/create-payment", { order_id: unpaid.order.order_number }, unpaid.cookie));
    expect(retry.status).toBe(409);
  });

  it("a payment reported for an order closed here (the close never reached the provider) is refunded at once", async () => {
    const { order } = await unpaidOrder();
    // Closed here only (as if the provider had been unreachable and then recovered).
    await db().updateTable("orders").set({ status: "cancelled", payment_status: "closed", idempotency_key: null }).where("id", "=", order.id).execute();
    fake.markPaid(order.order_number);
    expect((await deliver(fake.transactionNotification(order.order_number))).status).toBe(204);
    const refund = await db().selectFrom("refunds").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ kind: "auto", state: "processing", amount_fen: 120 });
    fake.completeRefund(refund.out_refund_no, "SUCCESS");
    expect((await deliver(fake.refundNotification(refund.out_refund_no))).status).toBe(204);
    expect(await findOrder(order.order_number)).toMatchObject({ status: "refunded", payment_status: "refunded" });
  });
});

describe("pay parameters (decision 030)", () => {
  it("are never issued for an order cancelled while the pay call was on its way; the provider's trade is closed", async () => {
    counter += 1;
    const user = await createStudent({ openid: `oPayRace${process.pid}x${counter}`, campus_code: "jinpenling", wechat_authorized_at: now() });
    await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });
    const config = await loadExpressConfig("jinpenling");
    if (!config.ok) throw new Error("no config");
    const entry: PickupEntry = { id: "e1", company: "中通快递", pickupCode: `7-8-${1000 + counter}`, trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code", source: "manual" };
    await updateCheckout(user.id, config.config.packageTypes, () => ({ set: { entries: [entry] }, result: null }));
    const checkout = await loadCheckout(user.id, config.config.packageTypes);
    const created = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
    if (!created.ok) throw new Error(created.reason);
    // The pay API takes its time; meanwhile the student cancels on another tab. The fake holds the
    // pay call until the cancel is done (a fixed delay lost this race on a loaded machine).
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    fake.failNext("jsapi", { kind: "held", arrived, until: new Promise<void>((resolve) => (release = resolve)) });
    const paying = createPayment(user, created.orderNumber);
    await reached;
    expect(await cancelOrder(user.id, created.orderNumber, "")).toMatchObject({ ok: true });
    release();
    const answer = await paying;
    expect(answer.ok).toBe(false);
    expect((await findOrder(created.orderNumber))!).toMatchObject({ status: "cancelled", payment_status: "closed" });
    expect(fake.trades.get(created.orderNumber)?.state ?? "CLOSED").toBe("CLOSED");
  });
});

describe("a supplement with the real provider", () => {
  it("hands its pay parameters to the page's JavaScript for the messenger's bridge; the provider's notification confirms it", async () => {
    const { cookie, order } = await paidOrder();
    const operator = (await db().selectFrom("operators").selectAll().where("username", "=", "pay-op").executeTakeFirstOrThrow()) as Operator;
    expect(await advanceOrder(order.order_number, "assigned", operator.id)).toMatchObject({ ok: true });
    expect(await recordRealSize(operator, { order: order.order_number, position: 0, real: "large" })).toMatchObject({ ok: true });
    const path = `/express/orders/${order.order_number}`;
    const accept = (as: string) =>
      call(supplementAction, request(`${path}/supplement`, { method: "POST", cookie, body: new URLSearchParams({ intent: "supplement-accept" }), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: as } }), {
        orderId: order.order_number,
      });

    // Without JavaScript the page can only say to pay in the messenger.
    expect((await accept("text/html")).headers.get("Location")).toBe(`${path}?supplement=bridge`);
    // The page's JavaScript gets the supplement's own trade's parameters, signed for the bridge.
    const answer = await accept("application/json");
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { payParams: Record<string, string>; simulated: boolean; to: string };
    expect(body.simulated).toBe(false);
    expect(body.to).toBe(`${path}?supplement=paying`);
    expect(body.payParams).toMatchObject({ signType: "RSA", package: expect.stringMatching(/^prepay_id=wx/) });
    expect(body.payParams.paySign).toBeTruthy();
    const supplement = (await supplementByTradeNo(`${order.order_number}S`))!;
    expect(fake.trades.get(`${order.order_number}S`)?.amountFen ?? null).toBe(supplement.amount_fen);

    // The payer confirms in the messenger; the provider's notification marks it paid.
    fake.markPaid(`${order.order_number}S`);
    expect((await deliver(fake.transactionNotification(`${order.order_number}S`))).status).toBe(204);
    expect((await supplementByTradeNo(`${order.order_number}S`))?.state).toBe("paid");
  });
});
