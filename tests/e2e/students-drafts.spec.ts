// Nothing typed is lost, at 390×844, with JavaScript (without it: see the loop below): a post draft and a
// comment draft sent after the session was replaced on another device come back after the login,
// on the same page, with 发布 / 发送 offered again. Without JavaScript the server keeps them.
import type { Browser } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { expect, insertSessionFor, insertStudentSession, replaceSession, test } from "./fixtures";
import { publishAfterSessionReplaced, unique } from "./steps";

async function studentContext(browser: Browser, javaScriptEnabled: boolean, nickname: string) {
  const student = await insertStudentSession({ nickname });
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 390, height: 844 } });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  /** What a login leaves behind, then the login page's own way back (its redirectTo). */
  const logInAgain = async () => {
    await context.addCookies([{ name: "__session", value: await insertSessionFor(student.userId), url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
    const back = new URL(page.url()).searchParams.get("redirectTo")!;
    await page.goto(back);
  };
  return { student, context, page, logInAgain };
}

// Without JavaScript the server keeps the draft through form posts (app/server/forum/drafts.db.test.ts,
// its "without JS" cases); the circle's no-JS journey is circle.spec.ts.
for (const javaScriptEnabled of [true]) {
  const how = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`${how}: a post draft survives a replaced session and publishes after the login`, async ({ browser }) => {
    const { student, context, page, logInAgain } = await studentContext(browser, javaScriptEnabled, unique("发帖草稿").slice(0, 12));
    const content = unique("被挤下线前写的帖子");
    await publishAfterSessionReplaced(page, student.sessionId, content);

    await logInAgain();
    await expect(page).toHaveURL(/\/publish-post$/);
    await expect(page.getByRole("status")).toHaveText(/已恢复上次未发布的草稿/);
    await expect(page.getByRole("textbox")).toHaveValue(content);
    await expect(page.getByRole("radio", { name: "二手闲置" })).toBeChecked();
    await page.waitForLoadState("networkidle"); // with JS: hydrated before 发布
    await page.screenshot({ path: `test-results/students-drafts-post-${javaScriptEnabled ? "js" : "nojs"}.png` });
    await page.getByRole("button", { name: "发布", exact: true }).click();
    await expect(page).toHaveURL(/\/circle\?notice=published$/);
    await expect(page.getByText(content)).toHaveCount(1);
    // Done with: the editor is empty again.
    await page.goto("/publish-post");
    await expect(page.getByRole("textbox")).toHaveValue("");
    await context.close();
  });

  test(`${how}: a comment draft survives a replaced session and is sent after the login`, async ({ browser }) => {
    const { student, context, page, logInAgain } = await studentContext(browser, javaScriptEnabled, unique("评论草稿").slice(0, 12));
    const content = unique("被挤下线前写的评论");
    await page.goto("/post/1/comment");
    await page.getByPlaceholder("说点什么吧…").fill(content);
    replaceSession(student.sessionId);
    await page.getByRole("button", { name: "发送", exact: true }).click();
    await expect(page).toHaveURL(/\/crLogin\?redirectTo=%2Fpost%2F1%2Fcomment&reason=replaced$/);

    await logInAgain();
    await expect(page).toHaveURL(/\/post\/1\/comment$/);
    await expect(page.getByPlaceholder("说点什么吧…")).toHaveValue(content);
    await expect(page.getByRole("status").filter({ hasText: "已恢复上次未发布的草稿" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: `test-results/students-drafts-comment-${javaScriptEnabled ? "js" : "nojs"}.png` });
    await page.getByRole("button", { name: "发送", exact: true }).click();
    await expect(page).toHaveURL(/\/post\/1(\?|#|$)/);
    // The sheet closes (with JavaScript the URL changes a moment before it goes) and the comment is in the list.
    await expect(page.getByPlaceholder("说点什么吧…")).toHaveCount(0);
    await expect(page.locator("#comments").getByText(content)).toBeVisible();
    await context.close();
  });
}

test("another student logging in on the same browser never sees the draft", async ({ browser }) => {
  const { student, context, page } = await studentContext(browser, false, "草稿主人");
  const content = unique("只属于我的草稿");
  await page.goto("/publish-post");
  await page.getByRole("textbox").fill(content);
  replaceSession(student.sessionId);
  await page.getByRole("button", { name: "发布", exact: true }).click();
  await expect(page).toHaveURL(/\/crLogin/);
  const other = await insertStudentSession({ nickname: "另一位同学" });
  await context.addCookies([{ name: "__session", value: other.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/publish-post");
  await expect(page.getByRole("textbox")).toHaveValue("");
  await context.close();
});
