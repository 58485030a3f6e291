// Back where they were, nothing typed lost, at 390×844:
// - a student whose session ended logs in again through the bound messenger identity and lands on
//   the page they came from with their post draft, and a shared post link opened without a
//   session ends on that post;
// - mutual help offers the coming meetings of a class and refuses the same class and date twice;
// - a comment sheet closed with its ×, its backdrop or Back, or left with the page, opens again
//   with the text, a refused comment too; a comment sent is not offered again as a draft, even when the page is left
//   before the sheet has closed; the mutual-help note survives its back arrow.
// Without JavaScript the same paths are form posts and redirects, proved at the HTTP level:
// app/server/forum/drafts.db.test.ts (the post and comment drafts across a forced login, pictures
// chosen before it named, a sheet closed with intent=dismiss, the mutual-help note with
// intent=leave) and app/server/schedule/mutual-help.db.test.ts (the next meeting, the same date
// refused beside the field). These areas' no-JS journeys are circle.spec's and schedule.spec's.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { upcomingOccurrences } from "../../app/lib/help-dates";
import { defaultWeek1Start, termForDate } from "../../app/lib/term";
import { E2E_BASE_URL, E2E_DB_FILE } from "./env";
import { expect, insertStudentSession, test } from "./fixtures";
import { MESSENGER_UA } from "./messenger-sdk";
import { demoLogin, publishAfterSessionReplaced, unique } from "./steps";

async function phone(browser: Browser, messenger = false) {
  return browser.newContext({ viewport: { width: 390, height: 844 }, ...(messenger ? { userAgent: MESSENGER_UA } : {}) });
}

/** A student with a session, whose messenger identity is bound (authorized once, signed in). */
async function boundStudent(context: BrowserContext, page: Page, nickname: string) {
  const student = await insertStudentSession({ nickname });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/api/wechat/auth?redirect_url=/circle");
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/circle$/);
  // The 10-second redirect lock of that round trip is over (as it is for a student a while later).
  await context.clearCookies({ name: "wx_auth_lock" });
  return student;
}

/** The login page's messenger dialog: 去授权, then 允许 on the (simulated) provider's page. */
async function authorizeFromLogin(page: Page) {
  const dialog = page.getByRole("dialog", { name: "需要微信授权" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("link", { name: "去授权" }).click();
  await page.getByRole("button", { name: "允许" }).click();
}

test("with JavaScript: a re-authorization through the bound messenger identity lands on the post draft, not the timetable", async ({ browser }) => {
  const context = await phone(browser, true);
  const page = await context.newPage();
  const student = await boundStudent(context, page, unique("回来").slice(0, 10));
  const content = unique("换了手机登录前写的帖子");
  await publishAfterSessionReplaced(page, student.sessionId, content);

  await authorizeFromLogin(page);
  await expect(page).toHaveURL(/\/publish-post$/);
  await expect(page.getByRole("textbox")).toHaveValue(content);
  await expect(page.getByRole("radio", { name: "二手闲置" })).toBeChecked();
  await page.screenshot({ path: "test-results/students-return-post-js.png" });
  await context.close();
});

test("with JavaScript: a shared post link opened without a session ends on that post after the authorization", async ({ browser }) => {
  const context = await phone(browser, true);
  const page = await context.newPage();
  await boundStudent(context, page, unique("分享").slice(0, 10));
  await context.clearCookies({ name: "__session" });
  await page.goto("/post/1?from=share");
  await expect(page).toHaveURL(/\/crLogin\?redirectTo=%2Fpost%2F1%3Ffrom%3Dshare$/);
  await authorizeFromLogin(page);
  await expect(page).toHaveURL(/\/post\/1\?from=share$/);
  await context.close();
});

/**
 * Closing the sheet (backdrop, ×, Back) stashes the text with a request the page does not wait
 * for: opened again before the server has it, the sheet shows the stash before it. Reopen until
 * the server has it.
 */
async function reopenUntil(page: Page, text: string) {
  await expect(async () => {
    await page.goto("/post/1/comment");
    await expect(page.getByPlaceholder("说点什么吧…")).toHaveValue(text, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

test("with JavaScript: a comment sheet closed with ×, its backdrop or Back opens again with the text", async ({ browser }) => {
  const context = await phone(browser);
  const student = await insertStudentSession({ nickname: unique("草稿").slice(0, 10) });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  const text = unique("写到一半的评论");
  const sheet = page.getByRole("dialog", { name: "评论" });
  const box = page.getByPlaceholder("说点什么吧…");

  await page.goto("/post/1");
  await page.goto("/post/1/comment");
  await box.fill(text);
  await sheet.getByRole("button", { name: "关闭" }).click();
  await expect(page).toHaveURL(/\/post\/1$/);
  await expect(sheet).toHaveCount(0);

  await page.goto("/post/1/comment");
  await expect(box).toHaveValue(text);
  await expect(page.getByRole("status").filter({ hasText: "已恢复上次未发布的草稿" })).toBeVisible();
  await page.screenshot({ path: "test-results/students-return-comment-js.png" });

  // The backdrop (the dimmed part above the sheet) keeps it too, with what was added.
  await box.press("End");
  await box.pressSequentially(" 还有");
  await page.mouse.click(195, 120);
  await expect(page).toHaveURL(/\/post\/1$/);
  await reopenUntil(page, `${text} 还有`);

  // Back (the browser's own) keeps it as well.
  await page.goto("/post/1");
  await page.getByRole("link", { name: "说点什么吧…" }).click();
  await expect(box).toHaveValue(`${text} 还有`);
  await box.press("End");
  await box.pressSequentially(" 返回键");
  await page.goBack();
  await expect(sheet).toHaveCount(0);
  await reopenUntil(page, `${text} 还有 返回键`);

  // Sent: done with.
  await page.waitForLoadState("networkidle");
  await sheet.getByRole("button", { name: "发送", exact: true }).click();
  await expect(page).toHaveURL(/\/post\/1(\?|#|$)/);
  await page.goto("/post/1/comment");
  await expect(box).toHaveValue("");
  await context.close();
});

test("with JavaScript: a comment sheet left with the page (a reload, another address) opens again with the text", async ({ browser }) => {
  const context = await phone(browser);
  const student = await insertStudentSession({ nickname: unique("离开").slice(0, 10) });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  const text = unique("页面走了也在");
  const box = page.getByPlaceholder("说点什么吧…");

  await page.goto("/post/1/comment");
  await box.fill(text);
  await page.reload();
  await expect(box).toHaveValue(text);
  await box.press("End");
  await box.pressSequentially(" 又一句");
  await page.goto("/post/1");
  await reopenUntil(page, `${text} 又一句`);
  await context.close();
});

test("with JavaScript: a comment sent is not offered again as a draft when the page is left before the sheet has closed", async ({ browser }) => {
  const context = await phone(browser);
  const student = await insertStudentSession({ nickname: unique("已发").slice(0, 10) });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  const text = unique("发出去就不是草稿");
  const sheet = page.getByRole("dialog", { name: "评论" });
  const box = page.getByPlaceholder("说点什么吧…");

  // Closed with ×: kept in this browser and by the server.
  await page.goto("/post/1/comment");
  await box.fill(text);
  const kept = page.waitForResponse((response) => response.request().method() === "POST" && /\bdismiss\b/.test(response.request().postData() ?? ""));
  await sheet.getByRole("button", { name: "关闭" }).click();
  await expect(sheet).toHaveCount(0);
  await kept;
  await page.goto("/post/1/comment");
  await expect(box).toHaveValue(text);

  // Sent: the comment is stored, and the post behind (the redirect's target) is held back, so the
  // sheet is still open, as when the network stalls or the student leaves at that moment.
  await page.waitForLoadState("networkidle");
  let heldPost: () => void = () => {};
  const held = new Promise<void>((resolve) => (heldPost = resolve));
  await page.route(/\/post\/1\.data/, async (route) => {
    heldPost();
    await new Promise(() => {});
  });
  await sheet.getByRole("button", { name: "发送", exact: true }).click();
  await held;
  await expect(sheet).toBeVisible();
  await page.unrouteAll({ behavior: "ignoreErrors" });

  await page.goto("/post/1/comment");
  await expect(box).toHaveValue("");
  await expect(page.getByRole("status").filter({ hasText: "已恢复" })).toHaveCount(0);
  await page.goto("/post/1");
  await expect(page.getByText(text)).toHaveCount(1);
  await context.close();
});

test("with JavaScript: a refused comment is not taken for sent: closed, the sheet keeps it", async ({ browser }) => {
  const context = await phone(browser);
  const student = await insertStudentSession({ nickname: unique("被拒").slice(0, 10) });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  const text = unique("没发出去的评论");
  const sheet = page.getByRole("dialog", { name: "评论" });
  const box = page.getByPlaceholder("说点什么吧…");

  await page.goto("/post/1/comment");
  await box.fill(text);
  // An operator bans the student meanwhile: the send is refused beside the field.
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  try {
    database.prepare("INSERT INTO forum_bans (user_id, created_at) VALUES (?, ?)").run(student.userId, new Date().toISOString());
  } finally {
    database.close();
  }
  await sheet.getByRole("button", { name: "发送", exact: true }).click();
  await expect(sheet.getByRole("alert")).toContainText("你没有发帖权限");
  await expect(box).toHaveValue(text);

  const kept = page.waitForResponse((response) => response.request().method() === "POST" && /\bdismiss\b/.test(response.request().postData() ?? ""));
  await sheet.getByRole("button", { name: "关闭" }).click();
  await expect(sheet).toHaveCount(0);
  expect(await page.evaluate(() => Object.values(localStorage))).toContain(text);
  await kept;
  await page.goto("/post/1/comment");
  await expect(box).toHaveValue(text);
  await context.close();
});

// The demo school's 20230035 has 20230001's courses (数据结构: Monday periods 1-2, weeks 1-16).
const STUDENT = "20230035";
const TERM = termForDate(new Date()).code;
const COMING = upcomingOccurrences({ weekday: 1, startPeriod: 1, endPeriod: 2, weeks: Array.from({ length: 16 }, (_, i) => i + 1) }, defaultWeek1Start(TERM)!, new Date());

const schoolLogin = (page: Page, redirectTo: string) => demoLogin(page, STUDENT, redirectTo);

test("with JavaScript: mutual help for week 1's class offers its next meeting, keeps the note on Back and refuses the same date twice", async ({ browser }) => {
  const context = await phone(browser);
  const page = await context.newPage();
  // The login's own redirectTo: straight back to week 1 of the timetable.
  await schoolLogin(page, `/schedule?term=${TERM}&week=1`);
  await expect(page).toHaveURL(new RegExp(`/schedule\\?term=${TERM}&week=1$`));
  await page.getByRole("table").getByRole("link", { name: /数据结构/ }).first().click();
  await page.getByRole("dialog", { name: "数据结构" }).getByRole("link", { name: "互助代签" }).click();
  await expect(page).toHaveURL(/\/schedule\/mutual-help\?/);
  const helpUrl = page.url();
  if (COMING.length === 0) {
    await expect(page.getByText("这门课本学期已经没有之后的课了，不能再发起互助。")).toBeVisible();
    await context.close();
    return;
  }
  const date = page.getByLabel("代签哪一次课");
  // The first coming meeting this student has not asked for yet.
  const chosen = (await date.locator("option:checked").textContent()) ?? "";
  expect(chosen).not.toContain("已发布");
  expect(COMING.map((occurrence) => occurrence.date)).toContain(chosen.slice(0, 10));
  await expect(page.getByText("这周的这节课已经开始或结束了，已为你选好下一次上课的时间")).toBeVisible();
  // Only coming dates: none before today.
  for (const option of await date.locator("option").allTextContents()) expect(option.slice(0, 10) >= COMING[0]!.date).toBe(true);

  // The back arrow keeps the note for when the form opens again.
  const note = unique("请坐前三排");
  await page.getByLabel("备注（选填）").fill(note);
  await page.getByRole("button", { name: "返回" }).click();
  await expect(page).toHaveURL(/\/schedule$/);
  await page.goto(helpUrl);
  await expect(page.getByLabel("备注（选填）")).toHaveValue(note);
  await expect(page.getByText("已恢复上次填写的内容")).toBeVisible();

  const week = await date.inputValue();
  await page.getByText("普通课").click();
  await page.getByRole("button", { name: "发布互助" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  const first = page.url();

  // The same class and date again: refused beside the date, with the way to the first request.
  await page.goto(helpUrl);
  await expect(page.getByLabel("备注（选填）")).toHaveValue("");
  await page.getByLabel("代签哪一次课").selectOption(week);
  await page.getByText("普通课").click();
  await page.getByRole("button", { name: "发布互助" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "你已经为这次课发布过互助了，请选择其他时间" })).toBeVisible();
  await expect(page.getByRole("link", { name: "查看已发布的互助" })).toHaveAttribute("href", new URL(first).pathname);
  await page.screenshot({ path: "test-results/students-return-help-js.png" });
  await context.close();
});
