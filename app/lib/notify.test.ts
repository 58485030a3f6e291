import { describe, expect, it } from "vitest";
import {
  RETRY_MAX_MS,
  SUBSCRIBE_CONTENT_MAX,
  badgeText,
  consentExpiresAt,
  consentUsable,
  inboxText,
  isSnoozed,
  plannedMessages,
  retryDelayMs,
  snoozeUntil,
  subscribeHref,
  subscribeMessage,
  subscribeScene,
  templateData,
  widgetStatus,
  withSubscribeNotice,
  withoutSubscribeNotice,
  type OrderEventData,
} from "./notify";

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

describe("retry backoff", () => {
  it.each([
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [4, 240_000],
    [5, 480_000],
    [6, 960_000],
    [7, 1_920_000],
    [8, 3_600_000], // 3 840 000 would pass the hour: capped
    [9, 3_600_000],
    [50, 3_600_000],
    [0, 30_000], // never below the first step
  ])("after attempt %i waits %i ms", (attempts, ms) => {
    expect(retryDelayMs(attempts)).toBe(ms);
  });

  it("never decreases and never passes the cap", () => {
    let previous = 0;
    for (let attempts = 1; attempts <= 100; attempts += 1) {
      const delay = retryDelayMs(attempts);
      expect(delay).toBeGreaterThanOrEqual(previous);
      expect(delay).toBeLessThanOrEqual(RETRY_MAX_MS);
      previous = delay;
    }
  });
});

describe("subscribe widget: 'later' and the 7-day authorization", () => {
  const now = new Date("2026-03-02T02:00:00.000Z");
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it.each([
    ["no consent", null, true, false],
    ["confirmed just now", { confirmedAt: at(0), usedAt: null }, false, true],
    ["confirmed 6 days 23 hours ago", { confirmedAt: at(-7 * DAY + HOUR), usedAt: null }, false, true],
    ["confirmed exactly 7 days ago", { confirmedAt: at(-7 * DAY), usedAt: null }, false, false],
    ["confirmed 8 days ago", { confirmedAt: at(-8 * DAY), usedAt: null }, false, false],
    ["used by a send", { confirmedAt: at(-HOUR), usedAt: at(-1000) }, false, false],
    ["unreadable date", { confirmedAt: "yesterday", usedAt: null }, false, false],
  ])("%s: usable %s", (_name, consent, isNull, usable) => {
    expect(consent === null).toBe(isNull);
    expect(consentUsable(consent, now)).toBe(usable);
  });

  it("a consent expires 7 days after the confirm", () => {
    expect(consentExpiresAt("2026-03-02T02:00:00.000Z")).toBe("2026-03-09T02:00:00.000Z");
  });

  it("'later' hides for exactly one hour", () => {
    const until = snoozeUntil(now);
    expect(until).toBe("2026-03-02T03:00:00.000Z");
    expect(isSnoozed(until, new Date(now.getTime() + HOUR - 1))).toBe(true);
    expect(isSnoozed(until, new Date(now.getTime() + HOUR))).toBe(false);
    expect(isSnoozed(null, now)).toBe(false);
  });

  it.each([
    ["nothing yet", null, null, "prompt"],
    ["later 10 minutes ago", null, at(50 * 60_000), "snoozed"],
    ["later 61 minutes ago", null, at(-60_000), "prompt"],
    ["subscribed", { confirmedAt: at(-DAY), usedAt: null }, null, "subscribed"],
    ["subscribed and snoozed", { confirmedAt: at(-DAY), usedAt: null }, at(HOUR), "subscribed"],
    ["consent used, snoozed", { confirmedAt: at(-DAY), usedAt: at(-HOUR) }, at(HOUR), "snoozed"],
    ["consent used", { confirmedAt: at(-DAY), usedAt: at(-HOUR) }, null, "prompt"],
    ["consent expired", { confirmedAt: at(-8 * DAY), usedAt: null }, null, "prompt"],
  ] as const)("%s → %s", (_name, consent, snoozedUntil, status) => {
    expect(widgetStatus({ consent, snoozedUntil, now })).toBe(status);
  });

  it("links and result parameters", () => {
    expect(subscribeHref("ORDER_STATUS", "/backpack/inbox")).toBe("/api/wechat/subscribe?template=ORDER_STATUS&returnTo=%2Fbackpack%2Finbox");
    expect(withSubscribeNotice("/backpack/inbox?before=5", "ORDER_STATUS", "ok")).toBe("/backpack/inbox?before=5&subscribe=ok&subscribeKey=ORDER_STATUS");
    expect(withoutSubscribeNotice("/backpack/inbox?subscribe=ok&subscribeKey=ORDER_STATUS&before=5&_routes=x")).toBe("/backpack/inbox?before=5");
    expect(subscribeScene("EXPRESS_DELIVERY")).toBe(1001);
    expect(subscribeScene("SYSTEM_NOTICE")).toBe(1004);
  });
});

const ORDER: OrderEventData = {
  status: "paid",
  orderNumber: "E20260302000001",
  amountFen: 1250,
  parcelCount: 3,
  campusName: "瑶湖校区",
  dorm: "西苑3栋",
  room: "502",
  at: "2026-03-02T03:05:00.000Z",
  estimatedDelivery: "今天 13:30",
};

describe("what an event sends", () => {
  const now = new Date("2026-03-02T03:06:00.000Z");

  it("paid: EXPRESS_ORDER to the customer (ORDER_STATUS as its subscribe fallback) and NEW_ORDER to the operators", () => {
    const [customer, operators] = plannedMessages({ kind: "order_status", recipientUserId: 1, data: ORDER }, now);
    expect(customer).toMatchObject({
      to: "recipient",
      templateKey: "EXPRESS_ORDER",
      subscribeKey: "ORDER_STATUS",
      fields: { orderNumber: "E20260302000001", amount: "¥12.50", parcelCount: "3 件", time: "2026-03-02 11:05", estimatedDelivery: "今天 13:30" },
      path: "/express/orders/E20260302000001",
    });
    expect(operators).toMatchObject({
      to: "operators",
      templateKey: "NEW_ORDER",
      subscribeKey: null,
      fields: { orderNumber: "E20260302000001", campus: "瑶湖校区", dormRoom: "西苑3栋 502", parcelCount: "3 件", time: "2026-03-02 11:05" },
    });
  });

  it("assigned: only the ORDER_ACCEPTED subscribe message; completed: DELIVERY_COMPLETED linking to the market", () => {
    expect(plannedMessages({ kind: "order_status", recipientUserId: 1, data: { ...ORDER, status: "assigned" } }, now)).toEqual([
      { to: "recipient", templateKey: null, subscribeKey: "ORDER_ACCEPTED", fields: { orderNumber: "E20260302000001", time: "2026-03-02 11:05" }, path: "/express/orders/E20260302000001" },
    ]);
    const [completed] = plannedMessages({ kind: "order_status", recipientUserId: 1, data: { ...ORDER, status: "completed" } }, now);
    expect(completed).toMatchObject({
      templateKey: "DELIVERY_COMPLETED",
      subscribeKey: "EXPRESS_DELIVERY",
      fields: { orderNumber: "E20260302000001", time: "2026-03-02 11:05", address: "瑶湖校区 西苑3栋 502", courier: "校园帮配送员" },
      path: "/market",
    });
  });

  it.each(["delivering", "cancelled", "refunded"] as const)("%s: the inbox only", (status) => {
    expect(plannedMessages({ kind: "order_status", recipientUserId: 1, data: { ...ORDER, status } }, now)).toEqual([]);
  });

  it("circle likes: the inbox only; replies: also SYSTEM_NOTICE (sent only to an author who opted in); announcements: SYSTEM_NOTICE; course reminders expire at class start", () => {
    const circle = { postId: 1, actorUserId: 2, actorName: "小明", excerpt: "好" };
    for (const kind of ["post_liked", "comment_liked"] as const) {
      expect(plannedMessages({ kind, recipientUserId: 1, data: circle }, now)).toEqual([]);
    }
    for (const kind of ["post_reply", "comment_reply"] as const) {
      expect(plannedMessages({ kind, recipientUserId: 1, data: circle }, now)).toEqual([
        expect.objectContaining({ to: "recipient", templateKey: null, subscribeKey: "SYSTEM_NOTICE", path: "/post/1" }),
      ]);
    }
    expect(plannedMessages({ kind: "announcement", recipientUserId: 1, data: { title: "停水", content: "明天停水", announcementId: "a1" } }, now)[0]).toMatchObject({
      templateKey: null,
      subscribeKey: "SYSTEM_NOTICE",
    });
    const [reminder] = plannedMessages(
      { kind: "course_reminder", recipientUserId: 1, data: { course: "高等数学", time: "3月2日 周一 08:10-09:40", place: "教一101", startsAt: "2026-03-02T00:10:00.000Z", endsAt: "2026-03-02T01:40:00.000Z", reminderId: 9 } },
      now,
    );
    expect(reminder).toMatchObject({ templateKey: "COURSE_REMINDER", fields: { course: "高等数学", time: "3月2日 周一 08:10-09:40", place: "教一101" }, expiresAt: "2026-03-02T00:10:00.000Z" });
  });

  it("template data: keyword1…n by default, the configured keys otherwise, values clipped", () => {
    expect(templateData("COURSE_REMINDER", { course: "高等数学", time: "08:10", place: "教一101" })).toEqual({
      keyword1: { value: "高等数学" },
      keyword2: { value: "08:10" },
      keyword3: { value: "教一101" },
    });
    expect(templateData("COURSE_REMINDER", { course: "x".repeat(300), time: "t" }, ["thing1", "time2", "thing3"])).toEqual({
      thing1: { value: `${"x".repeat(199)}…` },
      time2: { value: "t" },
      thing3: { value: "" },
    });
  });

  it("subscribe message: title ≤ 15, content ≤ 200", () => {
    const message = subscribeMessage("ORDER_STATUS", { orderNumber: "E1", amount: "¥1.00", parcelCount: "1 件", estimatedDelivery: "今天 13:30" });
    expect(message).toEqual({ title: "订单状态通知", content: "订单 E1 支付成功，实付 ¥1.00，共 1 件，预计 今天 13:30 送达" });
    const long = subscribeMessage("SYSTEM_NOTICE", { title: "公告", content: "长".repeat(400) });
    expect([...long.content]).toHaveLength(SUBSCRIBE_CONTENT_MAX);
  });
});

describe("inbox texts", () => {
  it.each([
    ["post_reply", { actorName: "小明", excerpt: "同去" }, "小明 评论了你的帖子", "同去", "chat"],
    ["comment_reply", { actorName: "匿名同学", excerpt: "+1" }, "匿名同学 回复了你的评论", "+1", "chat"],
    ["post_liked", { actorName: "", excerpt: "求组队" }, "有同学 赞了你的帖子", "求组队", "heart"],
    ["comment_liked", { actorName: "小红", excerpt: "谢谢" }, "小红 赞了你的评论", "谢谢", "heart"],
    ["order_status", { orderNumber: "E20260302000001", status: "completed" }, "订单 E20260302000001", "订单已完成，快递已送达", "order"],
    ["announcement", { title: "停水通知", content: "明天停水" }, "停水通知", "明天停水", "bell"],
  ])("%s", (kind, data, title, body, icon) => {
    expect(inboxText(kind, data)).toEqual({ title, body, icon });
  });

  it("badge: none at 0, 99+ above 99", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(7)).toBe("7");
    expect(badgeText(99)).toBe("99");
    expect(badgeText(100)).toBe("99+");
  });
});
