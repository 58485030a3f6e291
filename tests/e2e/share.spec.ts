// Share cards inside the messenger: the post page sets its title, description and picture through
// the JS-SDK (a stand-in SDK records what the page asks for); outside the messenger the share
// button copies the link.
import { E2E_BASE_URL } from "./env";
import { messengerContext, shareCalls } from "./messenger-sdk";
import { insertOrder } from "./orders-db";
import { expect, insertStudentSession, test } from "./fixtures";

test("inside the messenger a post sets its share card from its own content", async ({ browser }) => {
  const context = await messengerContext(browser);
  const student = await insertStudentSession({ nickname: "分享的人" });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  await page.goto("/post/1");
  const calls = await shareCalls(page);
  const [configCall, appMessage, timeline] = calls;
  expect(configCall![0]).toBe("config");
  expect(configCall![1]).toMatchObject({ jsApiList: expect.arrayContaining(["updateAppMessageShareData", "updateTimelineShareData"]) });
  expect(appMessage![0]).toBe("appMessage");
  expect(appMessage![1].link).toBe(`${E2E_BASE_URL}/post/1`);
  expect(appMessage![1].title.length).toBeGreaterThan(0);
  expect(appMessage![1].desc).toContain(appMessage![1].title.replace(/…$/, "").slice(0, 5));
  expect(timeline).toEqual(["timeline", appMessage![1]]);
  await context.close();
});

test("inside the messenger the promo page sets the campaign's share card", async ({ browser }) => {
  const context = await messengerContext(browser);
  const page = await context.newPage();
  await page.goto("/market/promo-activity");
  // Inside the messenger the market authorizes first (the simulated provider here).
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/market\/promo-activity/);
  const calls = await shareCalls(page);
  expect(calls[1]![0]).toBe("appMessage");
  // The student's own invite link, so a friend who opens it can assist.
  expect(calls[1]![1].link).toMatch(new RegExp(`^${E2E_BASE_URL}/market/`));
  expect(calls[1]![1].link).toMatch(/invite|code=/);
  expect(calls[1]![1].title.length).toBeGreaterThan(0);
  await context.close();
});

test("outside the messenger the share button copies the link", async ({ page, context, loginAsStudent }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await loginAsStudent({ nickname: "复制链接的人" });
  await page.goto("/post/1");
  await page.getByRole("button", { name: "分享" }).click();
  await expect(page.getByRole("status")).toHaveText("链接已复制，快去分享给同学吧");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/post\/1$/);
});

test("inside the messenger an order's share card says what it is, never its pickup codes; only its owner opens it", async ({ browser }) => {
  const owner = await insertStudentSession({ nickname: "分享订单的人" });
  const order = insertOrder(owner.userId, { status: "delivering", payment: "paid" }, ["7-3-9051", "62093517"]);
  const context = await messengerContext(browser);
  await context.addCookies([{ name: "__session", value: owner.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  await page.goto(`/express/orders/${order}`);
  await expect(page.getByTestId("pickup-codes")).toContainText("7-3-9051"); // the owner sees them on the page
  const [, appMessage, timeline] = await shareCalls(page);
  expect(appMessage).toEqual(["appMessage", { title: "我在校园帮下的快递代拿订单", desc: "快递代拿 · 2 件 · 配送中", link: `${E2E_BASE_URL}/express/orders/${order}`, imgUrl: `${E2E_BASE_URL}/share-card.png` }]);
  expect(timeline).toEqual(["timeline", appMessage![1]]);
  const card = JSON.stringify(appMessage);
  for (const secret of ["7-3-9051", "62093517", "13900139000", "西苑2栋"]) expect(card).not.toContain(secret);
  await context.close();

  // The friend who opens the link sees no order.
  const friend = await insertStudentSession({ nickname: "收到链接的人" });
  const friendContext = await messengerContext(browser);
  await friendContext.addCookies([{ name: "__session", value: friend.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const friendPage = await friendContext.newPage();
  const response = await friendPage.goto(`/express/orders/${order}`);
  expect(response!.status()).toBe(404);
  await expect(friendPage.getByText("7-3-9051")).toHaveCount(0);
  await friendContext.close();
});
