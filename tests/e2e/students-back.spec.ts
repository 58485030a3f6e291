// Students, at 390×844: Back from a post keeps the cards 加载更多 loaded and the scroll position;
// 退出登录 inside the messenger really logs out (the messenger does not sign the student back in,
// another student may log in on it); a messenger name that is only the placeholder is never used,
// the student is asked for a nickname once before their first comment.
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { MESSENGER_UA } from "./messenger-sdk";
import { insertPosts, submitDemoLogin, unique } from "./steps";

const SHOTS = process.env.SCREENSHOT_DIR;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const cards = (page: Page) => page.getByRole("list", { name: "圈子" }).getByRole("article");

test("Back from a post keeps the posts loaded with 加载更多 and the scroll position", async ({ page, loginAsStudent }) => {
  const student = await loginAsStudent({ nickname: "翻到底的同学" });
  const prefix = unique("往下翻");
  // In category 6 (避雷吐槽), which no other spec lists page by page.
  insertPosts(student.userId, 25, prefix, 6);
  await page.goto("/circle?category=6");
  await expect(cards(page)).toHaveCount(10);
  await page.getByRole("link", { name: "加载更多" }).click();
  await expect(cards(page)).toHaveCount(20);
  await expect(page).toHaveURL(/\/circle\?category=6&until=\d+$/);

  const target = cards(page).filter({ hasText: `${prefix} #8` });
  await target.scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 200);
  await page.waitForTimeout(300);
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(1000);
  await target.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/post\/\d+/);

  await page.goBack();
  await expect(page).toHaveURL(/\/circle\?category=6&until=\d+$/);
  await expect(cards(page)).toHaveCount(20);
  await expect(cards(page).nth(19)).toContainText(`${prefix} #6`);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 40);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 40);
  // 加载更多 goes on from there.
  await page.getByRole("link", { name: "加载更多" }).click();
  await expect(cards(page).filter({ hasText: prefix })).toHaveCount(25);
});

async function messengerPhone(browser: Browser, colorScheme: "light" | "dark" = "light") {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: MESSENGER_UA, colorScheme });
  return { context, page: await context.newPage() };
}

/** The login page's messenger dialog: 去授权, then 允许 on the simulated provider's page (with the name it shares). */
async function authorizeFromLogin(page: Page, messengerName?: string) {
  const dialog = page.getByRole("dialog", { name: "需要微信授权" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("link", { name: "去授权" }).click();
  if (messengerName !== undefined) await page.getByLabel("微信昵称").fill(messengerName);
  await page.getByRole("button", { name: "允许" }).click();
}

async function schoolLogin(page: Page, studentId: string) {
  await submitDemoLogin(page, studentId);
  // The login solves a proof of work first (decision 033): slow on a loaded machine.
  await expect(page).not.toHaveURL(/crLogin/, { timeout: 25_000 });
}

test.describe.configure({ timeout: 180_000 });

test("退出登录 inside the messenger: the messenger does not sign the student back in, and another student can log in on it", async ({ browser }) => {
  const { context, page } = await messengerPhone(browser);
  await page.goto("/crLogin?redirectTo=%2Fbackpack");
  await authorizeFromLogin(page);
  await expect(page).toHaveURL(/\/crLogin/);
  await schoolLogin(page, "20230043");
  await expect(page).toHaveURL(/\/backpack$/);
  await expect(page.getByText("20230043")).toBeVisible();

  await page.goto("/backpack/settings");
  await page.getByRole("link", { name: "退出登录" }).click();
  const confirm = page.getByRole("alertdialog", { name: "确定要退出登录吗？" });
  await expect(confirm).toContainText("微信不会再自动登录这个学号");
  await shot(page, "logout-confirm-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "logout-confirm-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await confirm.getByRole("button", { name: "确定" }).click();
  await expect(page).toHaveURL(/\/crLogin$/);

  // A while later (the 10-second redirect lock is over), the student opens the backpack again:
  // the messenger authorizes, and the login form stays, asking for a 学号.
  await context.clearCookies({ name: "wx_auth_lock" });
  await page.goto("/backpack");
  await expect(page).toHaveURL(/\/crLogin\?redirectTo=%2Fbackpack/);
  await authorizeFromLogin(page);
  await expect(page).toHaveURL(/\/crLogin\?redirectTo=%2Fbackpack/);
  await expect(page.getByLabel("学号", { exact: true })).toBeVisible();

  // Another student logs in on the same messenger.
  await page.goto("/crLogin?redirectTo=%2Fbackpack");
  await schoolLogin(page, "20230044");
  await expect(page).toHaveURL(/\/backpack$/);
  await expect(page.getByText("20230044")).toBeVisible();
  await context.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`a messenger placeholder name (微信用户) is asked for a nickname once before the first comment (${colorScheme})`, async ({ browser }) => {
    const { context, page } = await messengerPhone(browser, colorScheme);
    await page.goto(`/crLogin?redirectTo=${encodeURIComponent("/circle")}`);
    await authorizeFromLogin(page, "微信用户");
    await schoolLogin(page, colorScheme === "light" ? "20230045" : "20230046");
    await page.goto("/post/1");
    await page.getByRole("link", { name: "请先完善个人资料后再评论" }).click();
    await expect(page).toHaveURL(/\/backpack\/profile\?redirectTo=/);
    await expect(page.getByRole("status")).toHaveText("先设置一个昵称，设置后即可发帖和评论");
    // Not 微信用户, and never a made-up 小冬瓜… name.
    await expect(page.getByLabel("昵称")).toHaveValue("");
    const nickname = page.getByLabel("昵称");
    await nickname.fill("微信用户");
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await expect(page.getByText("昵称不能冒充官方或管理员")).toBeVisible();
    await nickname.fill("傻 Ｂ");
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await expect(page.getByText("昵称含有不文明用语，请换一个")).toBeVisible();
    await expect(nickname).toHaveValue("傻 Ｂ");
    await shot(page, `nickname-prompt-${colorScheme}`);
    const name = unique("夜猫子").replace(" ", "");
    await nickname.fill(name);
    await page.getByRole("button", { name: "保存", exact: true }).click();
    await expect(page).toHaveURL(/\/post\/1\/comment$/);
    const box = page.getByRole("textbox");
    const text = unique("第一次评论");
    await box.fill(text);
    await page.getByRole("button", { name: "发送" }).click();
    const mine = page.locator("#comments").getByRole("article").filter({ hasText: text });
    await expect(mine).toContainText(name);
    await expect(mine).not.toContainText("微信用户");
    await context.close();
  });
}
