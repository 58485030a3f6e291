// Share cards inside the messenger: the post page sets its title, description and picture through
// the JS-SDK (a stand-in SDK records what the page asks for); outside the messenger the share
// button copies the link.
import { E2E_BASE_URL } from "./env";
import { messengerContext, shareCalls } from "./messenger-sdk";
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
