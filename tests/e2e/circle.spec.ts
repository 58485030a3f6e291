// The circle on a 390×844 phone: publish with two images, find the post first in the list, like
// it, comment, reply with the @mention, preview the images with the keyboard; an anonymous post
// seen by a second student; reports that hide a post until an operator restores it.
import crypto from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import Database from "better-sqlite3";
import sharp from "sharp";
import { hashPassword } from "../../app/server/auth/password.server";
import { E2E_BASE_URL, E2E_DB_FILE } from "./env";
import { expect, insertSessionFor, insertStudentSession, test } from "./fixtures";
import { insertPosts, publishAfterSessionReplaced, unique } from "./steps";

async function jpeg(width: number, height: number, color: string) {
  return sharp({ create: { width, height, channels: 3, background: color } }).jpeg().toBuffer();
}

/** A second (or third…) student in a browser context of their own. */
async function studentPage(browser: Browser, nickname: string) {
  const student = await insertStudentSession({ nickname });
  const context = await browser.newContext();
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  return { student, page: await context.newPage(), close: () => context.close() };
}

async function publish(page: Page, content: string, options: { category?: string; anonymous?: boolean; images?: Buffer[] } = {}) {
  await page.goto("/publish-post");
  await page.getByText(options.category ?? "吃瓜闲聊", { exact: true }).click();
  if (options.anonymous) {
    await page.getByText("蒙面发布", { exact: true }).click();
    await expect(page.getByRole("switch", { name: /蒙面发布/ })).toBeChecked();
  }
  await page.getByRole("textbox").fill(content);
  await expect(page.getByText(`${content.length}/500`)).toBeVisible();
  if (options.images?.length) {
    await page.locator('input[type="file"]').setInputFiles(options.images.map((buffer, index) => ({ name: `photo-${index + 1}.jpg`, mimeType: "image/jpeg", buffer })));
    await expect(page.locator('input[name="images"]')).toHaveCount(options.images.length, { timeout: 15_000 });
  }
  await page.getByRole("button", { name: "发布", exact: true }).click();
  await expect(page).toHaveURL(/\/circle\?notice=published$/);
}

function cards(page: Page) {
  return page.getByRole("list", { name: "圈子" }).getByRole("article");
}

test("publish with two images, find it first, like, comment, reply with the @mention, preview with the keyboard", async ({ page, loginAsStudent }) => {
  await loginAsStudent({ nickname: "发帖的小明" });
  const content = unique("图书馆三楼的日落，分享给大家");
  await publish(page, content, { category: "学习交流", images: [await jpeg(1200, 900, "#f59e0b"), await jpeg(900, 1200, "#3b82f6")] });

  await expect(page.getByRole("status")).toContainText("发布成功");
  // Newest first. Other specs publish in parallel on the same server, so a post may have come
  // since (it was red once: another test file's post, 刚刚, above it); nothing older may be above it.
  const first = cards(page).filter({ hasText: content });
  await expect(first).toHaveCount(1);
  const position = await cards(page).evaluateAll((articles, text) => articles.findIndex((article) => article.textContent?.includes(text)), content);
  for (let above = 0; above < position; above++) await expect(cards(page).nth(above)).toContainText("刚刚");
  await expect(first).toContainText("发帖的小明");
  await expect(first).toContainText("学习交流");
  await expect(first).toContainText("刚刚");
  await expect(first.locator("img")).toHaveCount(2);

  await first.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByText(content)).toBeVisible();
  await expect(page.locator('[data-layout="double"] img')).toHaveCount(2);
  await expect(page.getByText("浏览 1")).toBeVisible();

  // Like, then the count and the pressed state come from the server.
  const like = page.getByRole("button", { name: /^点赞 0$/ });
  await like.click();
  await expect(page.getByRole("button", { name: /^已点赞 1$/ })).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(page.getByRole("button", { name: /^已点赞 1$/ })).toBeVisible();

  // Comment through the comment sheet.
  await page.getByRole("link", { name: "说点什么吧…" }).click();
  await page.getByRole("dialog").getByRole("textbox").fill("第一条评论，沙发！");
  await page.getByRole("dialog").getByRole("button", { name: "发送" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const comment = page.getByRole("article", { name: "发帖的小明" }).filter({ hasText: "第一条评论，沙发！" });
  await expect(comment).toBeVisible();
  await expect(comment).toContainText("楼主");
  await expect(page.getByRole("heading", { name: "评论 1" })).toBeVisible();

  // Tapping the comment starts a reply with the @mention prefilled.
  await comment.getByText("第一条评论，沙发！").click();
  const replyBox = page.getByRole("dialog").getByRole("textbox");
  await expect(replyBox).toHaveValue("@发帖的小明 ");
  await replyBox.press("End");
  await replyBox.pressSequentially("自己回复自己");
  await page.getByRole("dialog").getByRole("button", { name: "发送" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText("@发帖的小明 自己回复自己")).toBeVisible();
  await expect(page.getByRole("heading", { name: "评论 2" })).toBeVisible();

  // The full-screen preview: counter, arrow keys, Escape.
  await page.getByRole("link", { name: "查看大图 1/2" }).click();
  const preview = page.getByRole("dialog", { name: "图片预览" });
  await expect(preview).toBeVisible();
  await expect(preview.getByTestId("preview-counter")).toHaveText("1 / 2");
  await page.keyboard.press("ArrowRight");
  await expect(preview.getByTestId("preview-counter")).toHaveText("2 / 2");
  await page.keyboard.press("ArrowRight");
  await expect(preview.getByTestId("preview-counter")).toHaveText("2 / 2");
  await page.keyboard.press("ArrowLeft");
  await expect(preview.getByTestId("preview-counter")).toHaveText("1 / 2");
  await page.keyboard.press("Escape");
  await expect(preview).toHaveCount(0);
  await expect(page).toHaveURL(/\/post\/\d+$/);
});

test("an anonymous post shows no identity to a second student", async ({ page, browser, loginAsStudent }) => {
  const author = await loginAsStudent({ nickname: "不想露脸的小红", real_name: "李小红" });
  const content = unique("匿名吐槽：东门奶茶店太慢了");
  await publish(page, content, { category: "避雷吐槽", anonymous: true, images: [await jpeg(800, 800, "#10b981")] });
  // By its content: another test file's post may have come since (see the first test).
  // An anonymous author shows the name drawn in this thread (匿名·…), nothing of theirs.
  await expect(cards(page).filter({ hasText: content })).toContainText(/匿名·/);

  const reader = await studentPage(browser, "路人甲");
  try {
    await reader.page.goto("/circle");
    const card = cards(reader.page).filter({ hasText: content });
    await expect(card).toContainText(/匿名·/);
    await expect(card.getByRole("img", { name: /^匿名·/ })).toBeVisible();
    const listHtml = await reader.page.content();
    for (const secret of ["不想露脸的小红", "李小红", author.studentId]) expect(listHtml).not.toContain(secret);

    await card.getByRole("link").first().click();
    await expect(reader.page.getByText(content)).toBeVisible();
    const detailHtml = await reader.page.content();
    for (const secret of ["不想露脸的小红", "李小红", author.studentId]) expect(detailHtml).not.toContain(secret);
    // The loader data the page's JS reads (single fetch's /post/:id.data answer) has no trace either.
    const data = await reader.page.evaluate(async () => (await fetch(`${location.pathname}.data`)).text());
    for (const secret of ["不想露脸的小红", "李小红", author.studentId, `"userId"`, `"user_id"`]) expect(data).not.toContain(secret);
  } finally {
    await reader.close();
  }
});

async function insertOperator() {
  const username = `e2e-mod-${crypto.randomBytes(4).toString("hex")}`;
  const password = `Pw-${crypto.randomBytes(6).toString("hex")}`;
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    database
      .prepare(`INSERT INTO operators (username, display_name, password_hash, role, openid, disabled, created_at, last_login_at) VALUES (?, '审核员', ?, 'operator', NULL, 0, ?, NULL)`)
      .run(username, await hashPassword(password), new Date().toISOString());
  } finally {
    database.close();
  }
  return { username, password };
}

test("reports hide a post until an operator restores it", async ({ page, browser, loginAsStudent }) => {
  test.setTimeout(60_000);
  await loginAsStudent({ nickname: "被举报的作者" });
  const content = unique("这是一条会被举报的帖子");
  await publish(page, content, { anonymous: true });
  const postUrl = await cards(page).filter({ hasText: content }).getByRole("link").first().getAttribute("href");
  expect(postUrl).toMatch(/^\/post\/\d+$/);

  for (const [index, reason] of ["垃圾广告", "与圈子无关", "其他"].entries()) {
    const reporter = await studentPage(browser, `举报人${index}`);
    try {
      await reporter.page.goto(postUrl!);
      await reporter.page.getByRole("link", { name: "举报" }).first().click();
      const sheet = reporter.page.getByRole("dialog", { name: "举报" });
      await sheet.getByLabel(reason).check();
      await sheet.getByRole("button", { name: "提交举报" }).click();
      if (index < 2) {
        await expect(reporter.page.getByRole("status")).toContainText("举报已提交");
        await expect(reporter.page).toHaveURL(new RegExp(`${postUrl}\\?notice=reported$`));
      } else {
        // The third report reaches the threshold: the post is hidden, the reporter is back on the list.
        await expect(reporter.page).toHaveURL(/\/circle\?notice=reported$/);
        await expect(cards(reporter.page).filter({ hasText: content })).toHaveCount(0);
        expect((await reporter.page.goto(postUrl!))?.status()).toBe(404);
      }
    } finally {
      await reporter.close();
    }
  }

  // The author still sees it, under review.
  await page.goto(postUrl!);
  await expect(page.getByText("帖子正在审核中")).toBeVisible();

  // The operator sees the real author, and restores the post.
  const operator = await insertOperator();
  const admin = await browser.newContext();
  try {
    const adminPage = await admin.newPage();
    await adminPage.goto("/admin/moderation");
    await expect(adminPage).toHaveURL(/\/admin\/login/);
    await adminPage.getByLabel("用户名").fill(operator.username);
    await adminPage.getByLabel("密码").fill(operator.password);
    await adminPage.getByLabel("验证码").fill("AB23");
    await adminPage.getByRole("button", { name: "登录" }).click();
    await expect(adminPage).toHaveURL(/\/admin\/moderation$/);
    const item = adminPage.getByRole("article").filter({ hasText: content });
    await expect(item).toContainText("匿名发布");
    await expect(item).toContainText("被举报的作者");
    await expect(item).toContainText("举报 3");
    await item.getByRole("button", { name: /^恢复 帖子/ }).click();
    await expect(adminPage.getByRole("status")).toHaveText("操作已完成");
    await expect(adminPage.getByRole("article").filter({ hasText: content })).toHaveCount(0);
  } finally {
    await admin.close();
  }

  const reader = await studentPage(browser, "恢复后的读者");
  try {
    await reader.page.goto("/circle");
    await expect(cards(reader.page).filter({ hasText: content })).toHaveCount(1);
  } finally {
    await reader.close();
  }
});

test("the draft survives a reload; a refused image names its file and keeps the text; publishing clears the draft", async ({ page, loginAsStudent }) => {
  await loginAsStudent({ nickname: "写草稿的同学" });
  const content = unique("写到一半的帖子");
  await page.goto("/publish-post");
  await page.getByText("二手闲置", { exact: true }).click();
  await page.getByRole("textbox").fill(content);
  await page.getByText("蒙面发布", { exact: true }).click();
  await page.reload();
  await expect(page.getByRole("status")).toHaveText(/已恢复上次未发布的草稿/);
  await expect(page.getByRole("textbox")).toHaveValue(content);
  await expect(page.getByRole("radio", { name: "二手闲置" })).toBeChecked();
  await expect(page.getByRole("switch", { name: /蒙面发布/ })).toBeChecked();

  // Not a picture, although it is called .jpg and claims to be one: the server says so by name.
  await page.locator('input[type="file"]').setInputFiles([{ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("just some text") }]);
  await expect(page.getByRole("alert")).toHaveText("notes.jpg: 只能上传图片文件");
  await expect(page.getByRole("textbox")).toHaveValue(content);
  // Not even claimed as an image: refused before uploading.
  await page.locator('input[type="file"]').setInputFiles([{ name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7") }]);
  await expect(page.getByRole("alert")).toHaveText("report.pdf: 只能上传图片文件");

  // An empty text is refused on the page with the product rules' message.
  await page.getByRole("textbox").fill("  ");
  await page.getByRole("button", { name: "发布", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("请输入帖子内容");
  await page.getByRole("textbox").fill(content);
  await page.getByRole("button", { name: "移除图片 notes.jpg" }).click();
  await page.getByRole("button", { name: "发布", exact: true }).click();
  await expect(page).toHaveURL(/\/circle\?notice=published$/);
  await page.goto("/publish-post");
  await expect(page.getByRole("textbox")).toHaveValue("");
  await expect(page.getByText("已恢复上次未发布的草稿")).toHaveCount(0);
});

test("load more appends the next page in place; the end of the list says so", async ({ page, loginAsStudent }) => {
  const student = await loginAsStudent({ nickname: "翻页的同学" });
  const prefix = unique("分页帖子");
  insertPosts(student.userId, 25, prefix, 4);
  await page.goto("/circle?category=4");
  await expect(cards(page)).toHaveCount(10);
  await expect(cards(page).first()).toContainText(`${prefix} #25`);
  await page.getByRole("link", { name: "加载更多" }).click();
  await expect(cards(page)).toHaveCount(20);
  await expect(page).toHaveURL(/\/circle\?category=4&until=\d+$/);
  await expect(cards(page).nth(10)).toContainText(`${prefix} #15`);
  await page.getByRole("link", { name: "加载更多" }).click();
  await expect(cards(page).filter({ hasText: prefix })).toHaveCount(25);
  // Category 4 may hold posts of earlier runs' tests; load until the end.
  while (await page.getByRole("link", { name: "加载更多" }).count()) await page.getByRole("link", { name: "加载更多" }).click();
  await expect(page.getByText("没有更多了")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("publish with an image, like and comment work as plain forms", async ({ page, loginAsStudent }) => {
    await loginAsStudent({ nickname: "不用脚本的同学" });
    const content = unique("没有 JavaScript 也能发帖");
    await page.goto("/publish-post");
    await page.getByText("找人交友", { exact: true }).click();
    await page.getByRole("textbox").fill(content);
    await page.locator('input[type="file"]').setInputFiles([{ name: "nojs.jpg", mimeType: "image/jpeg", buffer: await jpeg(640, 480, "#ef4444") }]);
    await page.getByRole("button", { name: "发布", exact: true }).click();
    await expect(page).toHaveURL(/\/circle\?notice=published$/);
    const first = cards(page).filter({ hasText: content });
    await expect(first).toHaveCount(1);
    await expect(first.locator("img")).toHaveCount(1);

    await first.getByRole("link").first().click();
    await page.getByRole("button", { name: /^点赞 0$/ }).click();
    await expect(page.getByRole("button", { name: /^已点赞 1$/ })).toBeVisible();
    await page.getByRole("link", { name: "说点什么吧…" }).click();
    await expect(page).toHaveURL(/\/comment$/);
    await page.getByRole("textbox").fill("无脚本评论");
    await page.getByRole("button", { name: "发送" }).click();
    await expect(page).toHaveURL(/\/post\/\d+#comment-\d+$/);
    await expect(page.getByText("无脚本评论")).toBeVisible();

    // An empty comment comes back with the message beside the field.
    await page.getByRole("link", { name: "说点什么吧…" }).click();
    await page.getByRole("textbox").fill("   ");
    await page.getByRole("button", { name: "发送" }).click();
    await expect(page.getByRole("alert")).toHaveText("请输入评论内容");
  });

  test("load more is a link to the next page", async ({ page, loginAsStudent }) => {
    const student = await loginAsStudent();
    const prefix = unique("无脚本分页");
    insertPosts(student.userId, 12, prefix, 4);
    await page.goto("/circle?category=4");
    await expect(cards(page)).toHaveCount(10);
    await page.getByRole("link", { name: "加载更多" }).click();
    await expect(page).toHaveURL(/\/circle\?category=4&before=\d+$/);
    await expect(cards(page).first()).toContainText(`${prefix} #2`);
    await expect(page.getByRole("link", { name: "回到最新" })).toBeVisible();
  });
});

test("a draft survives a session replaced on another device: after the login it is back, and publishes", async ({ page, context, loginAsStudent }) => {
  const student = await loginAsStudent({ nickname: "被挤下线的同学" });
  const content = unique("被挤下线前写的帖子");
  // Another device logs in: this session ends, and 发布 meets the login page.
  await publishAfterSessionReplaced(page, student.sessionId, content);
  // Logging in again (a new session for the same student) leads back with the text restored.
  await context.addCookies([{ name: "__session", value: await insertSessionFor(student.userId), url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/publish-post");
  await expect(page.getByRole("status")).toHaveText(/已恢复上次未发布的草稿/);
  await expect(page.getByRole("textbox")).toHaveValue(content);
  await page.getByRole("button", { name: "发布", exact: true }).click();
  await expect(page).toHaveURL(/\/circle\?notice=published$/);
  await expect(cards(page).filter({ hasText: content })).toHaveCount(1);
});

// Without JavaScript the delete sheets are form posts (app/server/forum/sheets.db.test.ts); the circle's
// no-JS journey is the "without JavaScript" block above.
for (const javaScriptEnabled of [true]) {
  test.describe(`${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("the author deletes a comment of theirs, then the post, each after confirming in its sheet", async ({ page, loginAsStudent }) => {
      const student = await loginAsStudent({ nickname: javaScriptEnabled ? "删帖的同学" : "无脚本删帖" });
      const prefix = unique("要删除的帖子");
      insertPosts(student.userId, 1, prefix, 4);
      await page.goto("/circle?category=4");
      await cards(page).filter({ hasText: prefix }).getByRole("link").first().click();
      await expect(page).toHaveURL(/\/post\/\d+$/);
      const postUrl = new URL(page.url()).pathname;

      await page.getByRole("link", { name: "说点什么吧…" }).click();
      await page.getByRole("textbox").fill("这条评论马上删掉");
      await page.getByRole("button", { name: "发送" }).click();
      await expect(page.getByText("这条评论马上删掉")).toBeVisible();

      await page.locator(`a[href^="${postUrl}/delete?comment="]`).click();
      const commentSheet = page.getByRole("dialog", { name: "删除" });
      await expect(commentSheet).toBeVisible();
      await commentSheet.getByRole("button", { name: "确定" }).click();
      await expect(page).toHaveURL(new RegExp(`${postUrl}\\?notice=commentDeleted#comments$`));
      await expect(page.getByText("评论已删除")).toBeVisible();
      await expect(page.getByText("这条评论马上删掉")).toHaveCount(0);

      await page.getByRole("link", { name: "删除帖子" }).click();
      const postSheet = page.getByRole("dialog", { name: "删除帖子" });
      await postSheet.getByRole("button", { name: "确定" }).click();
      await expect(page).toHaveURL(/\/circle\?notice=deleted$/);
      await expect(page.getByText("帖子已删除")).toBeVisible();
      await page.goto("/circle?category=4");
      await expect(cards(page).filter({ hasText: prefix })).toHaveCount(0);
    });
  });
}
