// Round three of the students' fixes, as a student meets them at 390×844, with JavaScript and
// without: the empty-week notice stays closed, the calendar sheet works inside the messenger, the
// exams page follows the term select, the draft notice leaves, no dead button without JavaScript,
// a campus not yet open is no dead end, a deleted post leads back to the circle.
import type { Browser, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { termForDate } from "../../app/lib/term";
import { DRAFT_STORAGE_KEY } from "../../app/lib/forum";
import { E2E_BASE_URL, E2E_DB_FILE } from "./env";
import { expect, insertStudentSession, test } from "./fixtures";
import { demoLogin } from "./steps";

// The demo school's account kept for this spec (20230001's courses, weeks 1–16).
const STUDENT = "20230019";
const TERM = termForDate(new Date()).code;
const SHOTS = process.env.SCREENSHOT_DIR;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

async function loginDemo(page: Page, redirectTo: string) {
  await demoLogin(page, STUDENT, redirectTo);
  await expect(page).not.toHaveURL(/crLogin/);
}

async function contextFor(browser: Browser, javaScriptEnabled: boolean, colorScheme: "light" | "dark" = "light") {
  return browser.newContext({ javaScriptEnabled, colorScheme });
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`past the term the notice says the courses are over, and once closed it stays closed through the summary (${mode})`, async ({ browser }) => {
    const context = await contextFor(browser, javaScriptEnabled);
    const page = await context.newPage();
    await loginDemo(page, `/schedule?term=${TERM}&week=20`);
    await page.goto(`/schedule?term=${TERM}&week=20`);
    const notice = page.getByRole("alertdialog", { name: "本学期课程已结束" });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("第20周已在本学期最后一次课（第16周）之后");
    await shot(page, `empty-week-${javaScriptEnabled ? "js" : "nojs"}`);
    await notice.getByRole("link", { name: "知道了" }).click();
    await expect(notice).toHaveCount(0);
    await page.getByRole("link", { name: "学期概览" }).click();
    const summary = page.getByRole("dialog", { name: "学期概览" });
    await expect(summary).toBeVisible();
    await summary.getByRole("link", { name: /关闭/ }).first().click();
    await expect(summary).toHaveCount(0);
    await expect(page).toHaveURL(/empty=seen/);
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await context.close();
  });
}

test("the calendar sheet offers the https address beside webcal: and copies it", async ({ browser }) => {
  const context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  await loginDemo(page, "/schedule");
  await page.goto(`/schedule?term=${TERM}&dialog=notify`);
  const sheet = page.getByRole("dialog", { name: "提醒设置" });
  const create = sheet.getByRole("button", { name: "生成订阅地址" });
  if (await create.count()) await create.click();
  await expect(sheet.getByRole("link", { name: "用日历订阅" })).toHaveAttribute("href", /^webcal:\/\//);
  const https = sheet.getByRole("link", { name: "用 https 地址打开" });
  await expect(https).toHaveAttribute("href", /^https?:\/\/.+\.ics$/);
  await sheet.getByRole("button", { name: "复制地址" }).click();
  await expect(sheet.getByRole("button", { name: "已复制" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await https.getAttribute("href"));
  await sheet.getByRole("button", { name: "已复制" }).scrollIntoViewIfNeeded();
  await shot(page, "calendar-sheet");
  await context.close();
});

test("the exams page loads the chosen term without 切换, and the countdown badges stay on one line", async ({ page }) => {
  await loginDemo(page, "/backpack/exams");
  await page.goto("/backpack/exams");
  const badges = page.getByTestId("countdown");
  await expect(badges.first()).toBeVisible();
  for (const badge of await badges.all()) {
    const box = (await badge.boundingBox())!;
    expect(box.height).toBeLessThan(24);
  }
  await shot(page, "exams");
  const select = page.getByLabel("学期");
  const other = await select.locator("option").nth(2).getAttribute("value");
  await select.selectOption(other!);
  await expect(page).toHaveURL(new RegExp(`term=${other}`));
  await expect(page.getByText(/已经结束，没有查到这个学期的考试安排|时间待定|还有|已结束/).first()).toBeVisible();
  await shot(page, "exams-past-term");
});

test("the draft-restored notice leaves within 4 seconds", async ({ page }) => {
  const student = await insertStudentSession({ nickname: "草稿提示" });
  await page.context().addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/circle");
  await page.evaluate(
    ([key]) => localStorage.setItem(key!, JSON.stringify({ content: "还没发的草稿", categoryId: null, images: [], visibility: "public", isAnonymous: false, timestamp: Date.now() })),
    [DRAFT_STORAGE_KEY],
  );
  await page.goto("/publish-post");
  const notice = page.getByRole("status").filter({ hasText: "已恢复上次未发布的草稿" });
  await expect(notice).toBeVisible();
  await expect(notice).toBeHidden({ timeout: 4_000 });
  await expect(page.getByRole("textbox").first()).toHaveValue("还没发的草稿");
});

test("without JavaScript no dead button: no 显示密码, the captcha is a picture; the post offers no 分享", async ({ browser }) => {
  const context = await contextFor(browser, false);
  const page = await context.newPage();
  await page.goto("/crLogin");
  await expect(page.getByRole("button", { name: "显示密码" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /换一张|刷新/ })).toHaveCount(0);
  await expect(page.locator("img[alt='验证码']")).toBeVisible();
  await shot(page, "login-nojs");
  const student = await insertStudentSession({ nickname: "无脚本" });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/post/1");
  await expect(page.getByRole("button", { name: "分享" })).toHaveCount(0);
  await context.close();

  const withJs = await browser.newContext();
  const jsPage = await withJs.newPage();
  await jsPage.goto("/crLogin");
  await expect(jsPage.getByRole("button", { name: "显示密码" })).toBeVisible();
  await withJs.close();
});

test("a campus not yet open is no dead end: the dialog says so and leads to the schedule and the circle", async ({ page }) => {
  const code = `e2e-soon-${Date.now() % 100000}`;
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  database.prepare("INSERT INTO campuses (code, name, status, sort_order) VALUES (?, ?, 'preparing', 99)").run(code, "南山校区");
  try {
    await page.goto("/market?selectCampus=1");
    const selector = page.getByRole("dialog", { name: "选择你的校区" });
    await expect(selector.getByRole("button", { name: /南山校区/ })).toBeDisabled();
    await expect(selector).toContainText("开通后就能在这里选择");
    await expect(selector.getByRole("link", { name: "逛校园圈" })).toHaveAttribute("href", "/circle");
    await expect(selector.getByRole("link", { name: "看课表" })).toHaveAttribute("href", "/schedule");
    await shot(page, "campus-dialog");
  } finally {
    database.prepare("DELETE FROM campuses WHERE code = ?").run(code);
    database.close();
  }
});

test("a deleted post's page leads back to the circle", async ({ page }) => {
  const student = await insertStudentSession({ nickname: "找帖子" });
  await page.context().addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/post/987654");
  await expect(page.getByRole("heading", { name: "帖子不存在或已被删除" })).toBeVisible();
  await shot(page, "post-404");
  await page.getByRole("link", { name: "回到校园圈" }).click();
  await expect(page).toHaveURL(/\/circle$/);
});

// Screenshots of the screens this round changed, light and dark (only when SCREENSHOT_DIR is set).
test("screens at 390×844 in light and dark", async ({ browser }) => {
  test.skip(!SHOTS, "screenshots only on request");
  test.setTimeout(120_000);
  for (const scheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await page.goto("/blog");
    await shot(page, `${scheme}-blog`);
    await page.goto("/crLogin");
    await shot(page, `${scheme}-login`);
    await page.goto("/market?selectCampus=1");
    await shot(page, `${scheme}-campus`);
    await loginDemo(page, "/backpack/grades");
    await page.goto("/backpack/grades");
    await page.getByTestId("gpa-chart").scrollIntoViewIfNeeded();
    await shot(page, `${scheme}-grades-chart`);
    await page.goto("/backpack/exams");
    await shot(page, `${scheme}-exams`);
    await page.goto(`/schedule?term=${TERM}&week=20`);
    await shot(page, `${scheme}-empty-week`);
    await page.goto(`/schedule?term=${TERM}&dialog=notify`);
    const create = page.getByRole("button", { name: "生成订阅地址" });
    if (await create.count()) await create.click();
    await page.getByRole("link", { name: "用 https 地址打开" }).scrollIntoViewIfNeeded();
    await shot(page, `${scheme}-calendar`);
    await page.goto("/circle");
    await shot(page, `${scheme}-circle`);
    await page.goto("/post/987654");
    await shot(page, `${scheme}-post-404`);
    // The three themes whose brand colour changed: header, buttons and badges.
    for (const theme of ["green", "orange", "cyan"]) {
      await context.addCookies([{ name: "theme", value: theme, url: E2E_BASE_URL }]);
      await page.goto("/backpack/settings");
      await shot(page, `${scheme}-theme-${theme}`);
    }
    await context.close();
  }
});
