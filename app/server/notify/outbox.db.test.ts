// The outbox and the messenger API client against a fake messenger API on loopback
// (tests/fakes/messenger-api.ts), on SQLite and PostgreSQL: one send per message with two workers,
// retries with backoff, the access token refreshed on an 'expired' answer, the one-time subscribe
// fallback and the undeliverable cases, the JS-SDK ticket.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { retryDelayMs, type OrderEventData } from "~/lib/notify";
import { unseal } from "~/server/crypto.server";
import { db, now as nowIso } from "~/server/db/db.server";
import { startFakeMessengerApi, type FakeMessengerApi } from "../../../tests/fakes/messenger-api";
import { savedEnv } from "../../../tests/setup/env";
import { createMessengerUser } from "../../../tests/setup/helpers";
import { jsapiSignature, jsapiConfig } from "./jssdk.server";
import { accessToken } from "./messenger-api.server";
import { notify } from "./notify.server";
import { OUTBOX_RETENTION_MS, claimDue, processOutbox, purgeFinished } from "./outbox.server";
import { logProvider } from "./providers.server";

const TEMPLATES = {
  WECHAT_TEMPLATE_EXPRESS_ORDER: "tpl_express_order",
  WECHAT_TEMPLATE_NEW_ORDER: "tpl_new_order",
  WECHAT_TEMPLATE_DELIVERY_COMPLETED: "tpl_delivery_completed|character_string1,time2,thing3,thing4",
  WECHAT_TEMPLATE_COURSE_REMINDER: "tpl_course_reminder",
  WECHAT_SUBSCRIBE_TEMPLATE_EXPRESS_DELIVERY: "sub_express_delivery",
  WECHAT_SUBSCRIBE_TEMPLATE_ORDER_STATUS: "sub_order_status",
  WECHAT_SUBSCRIBE_TEMPLATE_ORDER_ACCEPTED: "sub_order_accepted",
  WECHAT_SUBSCRIBE_TEMPLATE_SYSTEM_NOTICE: "sub_system_notice",
};
const ENV_KEYS = ["WECHAT_APP_ID", "WECHAT_APP_SECRET", "WECHAT_API_BASE_URL", "WECHAT_HTTP_TIMEOUT_MS", "PUBLIC_URL", "LOG_LEVEL", ...Object.keys(TEMPLATES)];

let fake: FakeMessengerApi;
const env = savedEnv(ENV_KEYS);
let orderCounter = 0;

beforeAll(async () => {
  fake = await startFakeMessengerApi();
  env.set({
    WECHAT_APP_ID: fake.appId,
    WECHAT_APP_SECRET: fake.appSecret,
    WECHAT_API_BASE_URL: fake.url,
    WECHAT_HTTP_TIMEOUT_MS: "3000",
    PUBLIC_URL: "https://campus.example.edu.cn",
    LOG_LEVEL: "silent", // failures below are on purpose
    ...TEMPLATES,
  });
});

afterAll(async () => {
  env.restore();
  await fake.close();
});

beforeEach(async () => {
  fake.reset();
  // Every test starts with nothing queued and no stored token.
  await db().deleteFrom("outbox_messages").execute();
  await db().deleteFrom("messenger_tokens").execute();
  await db().deleteFrom("operators").execute();
});

function order(overrides: Partial<OrderEventData> = {}): OrderEventData {
  orderCounter += 1;
  return {
    status: "paid",
    orderNumber: `E20260302${String(100000 + orderCounter)}`,
    amountFen: 600,
    parcelCount: 2,
    campusName: "瑶湖校区",
    dorm: "西苑3栋",
    room: "502",
    estimatedDelivery: "今天 13:30",
    ...overrides,
  };
}

async function outboxRows() {
  return db().selectFrom("outbox_messages").selectAll().orderBy("id").execute();
}

async function createOperator(openid: string | null, disabled = 0) {
  return db()
    .insertInto("operators")
    .values({ username: `op${Math.random().toString(36).slice(2, 8)}`, display_name: "值班员", password_hash: "x", role: "admin", openid, disabled, created_at: nowIso(), last_login_at: null })
    .returning("id")
    .executeTakeFirstOrThrow();
}

async function giveConsent(userId: number, key: string, confirmedAt = new Date()) {
  const iso = confirmedAt.toISOString();
  await db()
    .insertInto("subscribe_consents")
    .values({ user_id: userId, template_key: key, confirmed_at: iso, expires_at: new Date(confirmedAt.getTime() + 7 * 86_400_000).toISOString(), used_at: null, outbox_id: null, reserved: null, updated_at: iso })
    .execute();
}

describe("the outbox worker", () => {
  it("sends each message exactly once when two workers run at the same time, with the message id as client_msg_id", async () => {
    await createOperator("oOperatorOpenid000000000001");
    await createOperator(null); // not linked: gets nothing
    await createOperator("oOperatorOpenid000000000002", 1); // disabled: gets nothing
    for (let i = 0; i < 12; i += 1) {
      const user = await createMessengerUser();
      await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    }
    const queued = await outboxRows();
    expect(queued).toHaveLength(24); // each order: EXPRESS_ORDER to the customer + NEW_ORDER to the one linked operator
    fake.fail("send", { kind: "slow", ms: 30 }, 6); // the first sends are slow, so both workers are busy at once

    const [first, second] = await Promise.all([processOutbox(), processOutbox()]);
    expect(first.sent + second.sent).toBe(24);
    expect(first.claimed + second.claimed).toBe(24);

    expect(fake.calls.send).toBe(24);
    expect(fake.delivered).toHaveLength(24);
    const clientIds = fake.delivered.map((message) => message.client_msg_id);
    expect(new Set(clientIds).size).toBe(24);
    expect(clientIds.sort()).toEqual(queued.map((row) => String(row.id)).sort());
    for (const row of await outboxRows()) {
      expect(row).toMatchObject({ state: "sent", attempts: 1, claim_token: null, last_error: null });
      expect(row.sent_at).not.toBeNull();
    }
    const newOrder = fake.delivered.find((message) => message.template_id === "tpl_new_order")!;
    expect(newOrder.touser).toBe("oOperatorOpenid000000000001");
    expect(newOrder.url).toMatch(/^https:\/\/campus\.example\.edu\.cn\/admin\/orders\?q=E20260302/);
    expect(newOrder.data).toMatchObject({ keyword2: { value: "瑶湖校区" }, keyword3: { value: "西苑3栋 502" }, keyword4: { value: "2 件" } });
    // Nothing is left to do.
    expect(await processOutbox()).toMatchObject({ claimed: 0 });
  });

  it("a claim abandoned by a crashed worker is taken again after its lease, and sent once", async () => {
    const user = await createMessengerUser();
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    const start = new Date();
    const [crashed] = await claimDue({ now: start });
    expect(crashed.state).toBe("sending");
    expect(await claimDue({ now: new Date(start.getTime() + 60_000) })).toHaveLength(0); // still held

    const later = new Date(start.getTime() + 3 * 60_000);
    expect(await processOutbox({ now: later })).toMatchObject({ claimed: 1, sent: 1 });
    expect(fake.calls.send).toBe(1);
    expect((await outboxRows())[0]).toMatchObject({ state: "sent", attempts: 2 });
  });

  it("retries with backoff after the fake API fails twice, then sends", async () => {
    const user = await createMessengerUser();
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    fake.fail("send", { kind: "http", status: 502 });
    fake.fail("send", { kind: "errcode", errcode: -1, errmsg: "system error" });

    const t0 = new Date();
    expect(await processOutbox({ now: t0 })).toMatchObject({ retried: 1 });
    let [row] = await outboxRows();
    expect(row).toMatchObject({ state: "pending", attempts: 1, last_error: "http" });
    expect(row.next_attempt_at).toBe(new Date(t0.getTime() + retryDelayMs(1)).toISOString());

    expect(await processOutbox({ now: new Date(t0.getTime() + 10_000) })).toMatchObject({ claimed: 0 }); // not due yet

    const t1 = new Date(t0.getTime() + 30_000);
    expect(await processOutbox({ now: t1 })).toMatchObject({ retried: 1 });
    [row] = await outboxRows();
    expect(row).toMatchObject({ state: "pending", attempts: 2, last_error: "-1" });
    expect(row.next_attempt_at).toBe(new Date(t1.getTime() + 60_000).toISOString());

    expect(await processOutbox({ now: new Date(t1.getTime() + 60_000) })).toMatchObject({ sent: 1 });
    [row] = await outboxRows();
    expect(row).toMatchObject({ state: "sent", attempts: 3, last_error: null });
    expect(fake.calls.send).toBe(3);
    expect(fake.delivered).toHaveLength(1);
  });

  it("finished messages are removed after 30 days; pending ones never", async () => {
    const user = await createMessengerUser();
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    const [first] = await outboxRows();
    await processOutbox({ maxBatches: 1 });
    await db().updateTable("outbox_messages").set({ state: "pending" }).where("id", "!=", first.id).execute();
    const later = new Date(Date.now() + OUTBOX_RETENTION_MS + 60_000);
    expect(await purgeFinished(later)).toBe(1);
    expect((await outboxRows()).map((row) => row.state)).toEqual(["pending"]);
  });

  it("without a provider (production without an app id) nothing is sent and nothing is lost", async () => {
    const user = await createMessengerUser();
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    expect(await processOutbox({ provider: null })).toMatchObject({ claimed: 0 });
    expect((await outboxRows())[0].state).toBe("pending");
    // The development log provider accepts it.
    expect(await processOutbox({ provider: logProvider })).toMatchObject({ sent: 1 });
    expect(fake.calls.send).toBe(0);
  });

  it("a message past its expiry (a course reminder after class) is recorded as expired, not sent", async () => {
    const user = await createMessengerUser();
    const startsAt = new Date(Date.now() + 60_000).toISOString();
    await notify({
      kind: "course_reminder",
      recipientUserId: user.id,
      data: { reminderId: 1, course: "高等数学", time: "3月2日 周一 08:10-09:40", place: "教一101", startsAt, endsAt: startsAt },
    });
    expect(await processOutbox({ now: new Date(Date.now() + 120_000) })).toMatchObject({ expired: 1 });
    expect((await outboxRows())[0]).toMatchObject({ state: "expired", last_error: "EXPIRED" });
    expect(fake.calls.send).toBe(0);
  });
});

describe("the server access token", () => {
  it("is fetched once from stable_token and shared through the database, sealed", async () => {
    const user = await createMessengerUser();
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    await processOutbox();
    expect(fake.calls.token).toBe(1);
    const row = await db().selectFrom("messenger_tokens").selectAll().executeTakeFirstOrThrow();
    expect(row.name).toBe(`access_token:${fake.appId}`);
    expect(row.value).not.toContain(fake.currentToken()!);
    expect(unseal(row.value)).toBe(fake.currentToken());
  });

  it("is refreshed ahead of its expiry", async () => {
    const first = await accessToken();
    expect(await accessToken({ now: new Date(Date.now() + 7200_000 - 10 * 60_000) })).toBe(first); // 10 minutes left: kept
    await accessToken({ now: new Date(Date.now() + 7200_000 - 4 * 60_000) }); // 4 minutes left: asked again
    expect(fake.calls.token).toBe(2);
  });

  it("is refreshed on an 'expired' answer (42001) and the message goes out with the new one", async () => {
    const user = await createMessengerUser();
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    await processOutbox();
    const old = fake.currentToken();
    fake.expireToken(); // the provider now answers 42001, though stable_token would still hand it out

    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    expect(await processOutbox()).toMatchObject({ sent: 1, retried: 0 });
    expect(fake.forcedRefreshes).toBe(1);
    expect(fake.currentToken()).not.toBe(old);
    const row = await db().selectFrom("messenger_tokens").select("value").executeTakeFirstOrThrow();
    expect(unseal(row.value)).toBe(fake.currentToken());
    expect(fake.calls.send).toBe(3); // ok, 42001, ok
    expect(fake.delivered).toHaveLength(2);
  });

  it("is refreshed on an 'invalid' answer (40001) too", async () => {
    const user = await createMessengerUser();
    await accessToken();
    fake.fail("send", { kind: "errcode", errcode: 40001, errmsg: "invalid credential" });
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    expect(await processOutbox()).toMatchObject({ sent: 1 });
    expect(fake.calls.token).toBe(3); // first, then the same one again (the stable endpoint thinks it valid), then force_refresh
    expect(fake.forcedRefreshes).toBe(1);
  });
});

describe("one-time subscribe messages and undeliverable messages", () => {
  it("a customer who does not follow the account gets the subscribe message instead when holding a consent; it uses the consent up", async () => {
    const user = await createMessengerUser();
    fake.notFollowing.add(user.openid!);
    await giveConsent(user.id, "ORDER_STATUS");

    const paid = order();
    await notify({ kind: "order_status", recipientUserId: user.id, data: paid });
    expect(await processOutbox()).toMatchObject({ sent: 1 });
    const [row] = await outboxRows();
    expect(row).toMatchObject({ state: "sent", channel: "subscribe" });
    expect(fake.delivered).toEqual([
      expect.objectContaining({
        endpoint: "subscribe",
        touser: user.openid,
        template_id: "sub_order_status",
        scene: "1002",
        title: "订单状态通知",
        data: { content: { value: `订单 ${paid.orderNumber} 支付成功，实付 ¥6.00，共 2 件，预计 今天 13:30 送达` } },
        url: `https://campus.example.edu.cn/express/orders/${paid.orderNumber}`,
      }),
    ]);
    const consent = await db().selectFrom("subscribe_consents").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(consent.used_at).not.toBeNull();
    expect(consent.outbox_id).toBe(row.id);

    // The consent is used up: the next order's message cannot reach them.
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    expect(await processOutbox()).toMatchObject({ undeliverable: 1 });
    expect((await outboxRows())[1]).toMatchObject({ state: "undeliverable", last_error: "NOT_FOLLOWING" });
  });

  it("a refused subscribe send (43101) is recorded as undeliverable and not retried", async () => {
    const user = await createMessengerUser();
    fake.notFollowing.add(user.openid!);
    fake.refusing.add(user.openid!);
    await giveConsent(user.id, "ORDER_STATUS");
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });

    expect(await processOutbox()).toMatchObject({ undeliverable: 1 });
    const [row] = await outboxRows();
    expect(row).toMatchObject({ state: "undeliverable", channel: "subscribe", last_error: "USER_REFUSED (43101)" });
    expect(await processOutbox({ now: new Date(Date.now() + 24 * 3600_000) })).toMatchObject({ claimed: 0 });
    expect(fake.calls.subscribe).toBe(1);
  });

  it("'assigned' is sent only as the ORDER_ACCEPTED subscribe message, and only to a customer holding a consent", async () => {
    const without = await createMessengerUser();
    const result = await notify({ kind: "order_status", recipientUserId: without.id, data: order({ status: "assigned" }) });
    expect(result.outboxIds).toEqual([]);
    expect(result.inboxItemId).not.toBeNull();

    const holder = await createMessengerUser();
    await giveConsent(holder.id, "ORDER_ACCEPTED");
    const assigned = order({ status: "assigned" });
    await notify({ kind: "order_status", recipientUserId: holder.id, data: assigned });
    expect(await processOutbox()).toMatchObject({ sent: 1 });
    expect(fake.delivered[0]).toMatchObject({ endpoint: "subscribe", template_id: "sub_order_accepted", title: "骑手已接单" });
  });

  it("an announcement goes as SYSTEM_NOTICE to a consent holder whose 'announcement reminder' switch is on; the inbox gets it either way", async () => {
    const user = await createMessengerUser();
    await giveConsent(user.id, "SYSTEM_NOTICE");
    const announcement = (id: string) => ({ kind: "announcement" as const, recipientUserId: user.id, data: { title: "停水通知", content: "明天 8:00-12:00 西苑停水", announcementId: id } });
    const off = await notify(announcement("a1"));
    expect(off.inboxItemId).not.toBeNull();
    expect(off.outboxIds).toEqual([]);
    await db().insertInto("schedule_settings").values({ user_id: user.id, announcement_reminder: 1, calendar_token: null, updated_at: nowIso() }).execute();
    expect((await notify(announcement("a2"))).outboxIds).toHaveLength(1);
    await processOutbox();
    expect(fake.delivered[0]).toMatchObject({ endpoint: "subscribe", template_id: "sub_system_notice", title: "系统公告", data: { content: { value: "停水通知：明天 8:00-12:00 西苑停水" } } });
  });

  it("a template the account no longer has (40037) is recorded as undeliverable", async () => {
    fake.templates.add("tpl_new_order"); // the account has only this one now
    const user = await createMessengerUser();
    await notify({ kind: "order_status", recipientUserId: user.id, data: order({ status: "completed", courierLabel: "小王" }) });
    expect(await processOutbox()).toMatchObject({ undeliverable: 1 });
    expect((await outboxRows())[0]).toMatchObject({ state: "undeliverable", template_key: "DELIVERY_COMPLETED", last_error: "TEMPLATE_GONE (40037)" });
  });

  it("DELIVERY_COMPLETED uses the configured data keys and links to the market page", async () => {
    const user = await createMessengerUser();
    const completed = order({ status: "completed", courierLabel: "小王" });
    await notify({ kind: "order_status", recipientUserId: user.id, data: completed });
    await processOutbox();
    expect(fake.delivered[0]).toMatchObject({
      template_id: "tpl_delivery_completed",
      url: "https://campus.example.edu.cn/market",
      data: {
        character_string1: { value: completed.orderNumber },
        time2: { value: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/) },
        thing3: { value: "瑶湖校区 西苑3栋 502" },
        thing4: { value: "小王" },
      },
    });
  });

  it("an unknown errcode is retried a bounded number of times, then recorded", async () => {
    const user = await createMessengerUser();
    await notify({ kind: "order_status", recipientUserId: user.id, data: order() });
    fake.fail("send", { kind: "errcode", errcode: 99999 }, 20);
    let at = Date.now();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      await processOutbox({ now: new Date(at) });
      at += retryDelayMs(attempt);
    }
    expect((await outboxRows())[0]).toMatchObject({ state: "undeliverable", attempts: 10, last_error: "UNKNOWN_ERRCODE (99999)" });
  });
});

describe("the JS-SDK config", () => {
  it("signs with the cached jsapi ticket and our app id", async () => {
    const url = "https://campus.example.edu.cn/post/1?from=share#comments";
    const config = await jsapiConfig(url);
    expect(config).toMatchObject({ appId: fake.appId, jsApiList: expect.arrayContaining(["updateAppMessageShareData"]) });
    expect(config!.signature).toBe(jsapiSignature({ ticket: fake.ticket()!, nonceStr: config!.nonceStr, timestamp: config!.timestamp, url: "https://campus.example.edu.cn/post/1?from=share" }));
    await jsapiConfig(url);
    expect(fake.calls.ticket).toBe(1);
    expect(fake.calls.token).toBe(1);
  });
});
