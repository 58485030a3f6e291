// The circle's search, 收藏 and 热门 on a 390×844 phone: a search from /circle's box finds a
// post by a two-character word inside a sentence and marks it (with and without JavaScript; a
// post's markup shows as text), 收藏 a post and find it in the backpack, and the 热门 tab.
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { E2E_DB_FILE } from "./env";
import { expect, test } from "./fixtures";

function word() {
  // Two-character and longer words no other test writes: letters a–p mapped onto CJK.
  return [...crypto.randomBytes(3).toString("hex")].map((c) => String.fromCharCode(0x4e00 + 0x100 + parseInt(c, 16))).join("");
}

function insertPost(userId: number, content: string) {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  try {
    const at = new Date().toISOString();
    return Number(
      database
        .prepare(
          `INSERT INTO posts (user_id, category_id, title, content, status, visibility, is_anonymous, view_count, comment_count, like_count, moderation, reviewed_at, created_at, updated_at)
           VALUES (?, 4, NULL, ?, NULL, 'public', 0, 0, 0, 0, 'visible', NULL, ?, ?)`,
        )
        .run(userId, content, at, at).lastInsertRowid,
    );
  } finally {
    database.close();
  }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`search ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });
    test("the box on /circle finds a two-character word inside a sentence and marks it", async ({ page, loginAsStudent }) => {
      const student = await loginAsStudent({ nickname: "搜索者" });
      const term = word().slice(0, 2);
      insertPost(student.userId, `今天在${term}旁边<script>window.hacked=1</script>看书`);
      await page.goto("/circle");
      await page.getByRole("searchbox", { name: "搜索帖子和评论" }).fill(term);
      await page.getByRole("button", { name: "搜索", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/circle/search\\?q=`));
      const results = page.getByRole("list", { name: "搜索结果" });
      await expect(results.locator("mark")).toHaveText(term);
      await expect(results).toContainText("<script>window.hacked=1</script>");
      expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
      await results.getByRole("link").first().click();
      await expect(page).toHaveURL(/\/post\/\d+/);

      await page.goto("/circle/search?q=猫");
      await expect(page.getByRole("alert")).toHaveText("请至少输入两个字");
      await expect(page.getByRole("searchbox")).toHaveValue("猫");
    });
  });
}

test.describe("收藏 and 热门 without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("收藏 a post, find it in the backpack; the 热门 tab", async ({ page, loginAsStudent }) => {
    const student = await loginAsStudent({ nickname: "收藏者" });
    const content = `值得收藏的帖子 ${word()}`;
    const id = insertPost(student.userId, content);
    await page.goto(`/post/${id}`);
    await page.getByRole("button", { name: "收藏", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/post/${id}`));
    await expect(page.getByRole("button", { name: "已收藏" })).toHaveAttribute("aria-pressed", "true");
    await page.goto("/backpack");
    await page.getByRole("link", { name: "我的收藏" }).click();
    await expect(page.getByRole("list", { name: "我的收藏" })).toContainText(content);

    // 热门: the tab is a plain link; the list comes in heat order (the order itself: forum/favourites-hot.db.test.ts).
    await page.goto("/circle");
    await page.getByRole("link", { name: "热门", exact: true }).click();
    await expect(page).toHaveURL(/sort=hot/);
    await expect(page.getByRole("link", { name: "热门", exact: true })).toHaveAttribute("aria-current", "page");
  });
});
