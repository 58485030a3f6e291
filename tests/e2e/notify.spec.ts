// Notifications in a phone-sized Chromium: the inbox with its real unread badge, opening an item,
// 'mark all read', the subscribe card's round trip through the simulated confirm page (the e2e
// server runs without WECHAT_APP_ID, so the development provider and confirm page stand in), and
// 'later' hiding the card for an hour — with and without JavaScript.
import Database from "better-sqlite3";
import { E2E_BASE_URL, E2E_DB_FILE } from "./env";
import { expect, test } from "./fixtures";

const MESSENGER_UA =
  "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 MicroMessenger/8.0.47.2560(0x28002F30) NetType/WIFI Language/zh_CN";

test.use({ userAgent: MESSENGER_UA });

function withDb<T>(work: (database: Database.Database) => T): T {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    return work(database);
  } finally {
    database.close();
  }
}

/** The student's messenger identity (as the OAuth leaves it) and three inbox items, oldest first. */
function seed(userId: number) {
  withDb((database) => {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    database.prepare("UPDATE users SET openid = ?, wechat_nickname = ?, wechat_authorized_at = ? WHERE id = ?").run(`oE2eNotify${userId}x${Date.now()}`, "端到端同学", at(0), userId);
    const insert = database.prepare("INSERT INTO inbox_items (user_id, actor_user_id, kind, data, link, dedupe_key, read_at, created_at) VALUES (?, NULL, ?, ?, ?, ?, NULL, ?)");
    insert.run(userId, "post_reply", JSON.stringify({ postId: 1, commentId: 11, actorName: "小李", excerpt: "周六一起去图书馆复习吗？" }), "/post/1#comment-11", `r${userId}`, at(180));
    insert.run(userId, "post_liked", JSON.stringify({ postId: 1, actorName: "匿名同学", excerpt: "求组队复习高数" }), "/post/1", `l${userId}`, at(42));
    insert.run(userId, "order_status", JSON.stringify({ orderNumber: "E20260302000042", status: "assigned" }), "/express/orders/E20260302000042", `o${userId}`, at(3));
  });
}

test("the inbox: the backpack's badge counts unread items, opening one marks it read, 'mark all read' clears it", async ({ page, loginAsStudent }) => {
  const student = await loginAsStudent();
  seed(student.userId);

  await page.goto("/backpack");
  const entry = page.getByRole("link", { name: /消息中心/ });
  await expect(entry.getByLabel("3 条未读")).toHaveText("3");
  await entry.click();

  await expect(page).toHaveURL(/\/backpack\/inbox$/);
  await expect(page.getByRole("heading", { name: "消息中心" })).toBeVisible();
  await expect(page.getByText("3 条未读")).toBeVisible();
  const items = page.getByRole("list", { name: "消息中心" }).getByRole("listitem");
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText("订单 E20260302000042");
  await expect(items.nth(0)).toContainText("骑手已接单，正在前往驿站");
  await expect(items.nth(1)).toContainText("匿名同学 赞了你的帖子");
  await expect(items.nth(2)).toContainText("小李 评论了你的帖子");
  await page.screenshot({ path: "test-results/notify-inbox.png", fullPage: true });

  await items.nth(0).getByRole("link").click();
  await expect(page).toHaveURL(/\/express\/orders\/E20260302000042$/);
  await page.goBack();
  await page.reload();
  await expect(page.getByText("2 条未读")).toBeVisible();

  await page.getByRole("button", { name: "全部标为已读" }).click();
  await expect(page.getByText(/条未读/)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "全部标为已读" })).toHaveCount(0);
  await page.goto("/backpack");
  await expect(page.getByRole("link", { name: /消息中心/ })).toHaveText("消息中心");
});

test("subscribe through the simulated confirm page: the card gives way to a confirmation", async ({ page, loginAsStudent }) => {
  const student = await loginAsStudent();
  seed(student.userId);

  await page.goto("/backpack/inbox");
  const card = page.getByRole("region", { name: "开启微信消息提醒" });
  await expect(card).toContainText("订单状态提醒：支付成功和订单有变化时，通过微信通知你");
  await page.screenshot({ path: "test-results/notify-widget-card.png" });

  await card.getByRole("link", { name: "订阅" }).click();
  await expect(page).toHaveURL(/\/api\/wechat\/simulate-subscribe\?action=get_confirm&appid=wx_simulated_app&scene=1002&template_id=sim_ORDER_STATUS&redirect_url=.+&reserved=.+#wechat_redirect$/);
  await expect(page.getByRole("heading", { name: "模拟订阅消息" })).toBeVisible();
  await expect(page.getByText("订单状态提醒", { exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/notify-simulated-confirm.png" });
  await page.getByRole("button", { name: "允许" }).click();

  await expect(page).toHaveURL(/\/backpack\/inbox\?subscribe=ok&subscribeKey=ORDER_STATUS$/);
  await expect(page.getByRole("status")).toHaveText("订阅成功，下一条通知会通过微信发给你");
  await expect(page.getByRole("region", { name: "开启微信消息提醒" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/notify-subscribed.png" });

  const consent = withDb((database) => database.prepare("SELECT template_key, used_at, confirmed_at, expires_at FROM subscribe_consents WHERE user_id = ?").get(student.userId)) as {
    template_key: string;
    used_at: string | null;
    confirmed_at: string;
    expires_at: string;
  };
  expect(consent).toMatchObject({ template_key: "ORDER_STATUS", used_at: null });
  expect(Date.parse(consent.expires_at) - Date.parse(consent.confirmed_at)).toBe(7 * 86_400_000);

  // Subscribed for 7 days: the card stays away on the next visit.
  await page.goto("/backpack/inbox");
  await expect(page.getByRole("heading", { name: "消息中心" })).toBeVisible();
  await expect(page.getByRole("region", { name: "开启微信消息提醒" })).toHaveCount(0);
});

test("cancelling on the confirm page keeps the card and says so", async ({ page, loginAsStudent }) => {
  const student = await loginAsStudent();
  seed(student.userId);
  await page.goto("/backpack/inbox");
  await page.getByRole("region", { name: "开启微信消息提醒" }).getByRole("link", { name: "订阅" }).click();
  await page.getByRole("button", { name: "取消" }).click();
  await expect(page).toHaveURL(/subscribe=cancel/);
  const card = page.getByRole("region", { name: "开启微信消息提醒" });
  await expect(card.getByRole("status")).toHaveText("你取消了订阅，随时可以再订阅");
  await expect(card.getByRole("link", { name: "订阅" })).toBeVisible();
});

test("'later' hides the card for an hour", async ({ page, loginAsStudent }) => {
  const student = await loginAsStudent();
  seed(student.userId);
  await page.goto("/backpack/inbox");
  const card = page.getByRole("region", { name: "开启微信消息提醒" });
  await card.getByRole("button", { name: "稍后" }).click();
  await expect(card).toHaveCount(0);
  await expect(page).toHaveURL(/\/backpack\/inbox$/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "消息中心" })).toBeVisible();
  await expect(card).toHaveCount(0);

  const until = withDb((database) => (database.prepare("SELECT until FROM subscribe_snoozes WHERE user_id = ? AND template_key = 'ORDER_STATUS'").get(student.userId) as { until: string }).until);
  const hidden = Date.parse(until) - Date.now();
  expect(hidden).toBeGreaterThan(59 * 60_000);
  expect(hidden).toBeLessThanOrEqual(60 * 60_000);

  // An hour later (the snooze moved into the past) it is back.
  withDb((database) => database.prepare("UPDATE subscribe_snoozes SET until = ? WHERE user_id = ?").run(new Date(Date.now() - 1000).toISOString(), student.userId));
  await page.reload();
  await expect(card).toBeVisible();
});

test("without JavaScript: 'later', subscribing and 'mark all read' are plain forms and links", async ({ browser, loginAsStudent }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, userAgent: MESSENGER_UA, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const student = await loginAsStudent();
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  seed(student.userId);

  await page.goto("/backpack/inbox");
  await page.getByRole("region", { name: "开启微信消息提醒" }).getByRole("button", { name: "稍后" }).click();
  await expect(page.getByRole("heading", { name: "消息中心" })).toBeVisible();
  await expect(page.getByRole("region", { name: "开启微信消息提醒" })).toHaveCount(0);

  await page.getByRole("button", { name: "全部标为已读" }).click();
  await expect(page.getByText(/条未读/)).toHaveCount(0);

  withDb((database) => database.prepare("DELETE FROM subscribe_snoozes WHERE user_id = ?").run(student.userId));
  await page.goto("/backpack/inbox");
  await page.getByRole("region", { name: "开启微信消息提醒" }).getByRole("link", { name: "订阅" }).click();
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page.getByRole("status")).toHaveText("订阅成功，下一条通知会通过微信发给你");
  await context.close();
});
