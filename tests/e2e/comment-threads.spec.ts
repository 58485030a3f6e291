// Comments two levels deep on a 390×844 phone: top-level comments 20 to a page with
// their first 3 replies, 展开更多 for the rest of a thread, a reply to a reply in the same thread
// with its @mention; with JavaScript and without.
import Database from "better-sqlite3";
import { E2E_DB_FILE } from "./env";
import { expect, test } from "./fixtures";

/** A post with 25 top-level comments; the first has 8 replies, each answering the one before. */
function seedThreads(userId: number, nickname: string) {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    const at = new Date().toISOString();
    const post = database
      .prepare(
        `INSERT INTO posts (user_id, category_id, title, content, status, visibility, is_anonymous, view_count, comment_count, like_count, moderation, reviewed_at, created_at, updated_at)
         VALUES (?, 1, NULL, ?, NULL, 'public', 0, 0, 33, 0, 'visible', NULL, ?, ?) RETURNING id`,
      )
      .get(userId, `${nickname}的热门帖子`, at, at) as { id: number };
    const insert = database.prepare(
      `INSERT INTO comments (post_id, user_id, parent_id, root_id, content, is_anonymous, like_count, moderation, reviewed_at, created_at)
       VALUES (?, ?, ?, ?, ?, 0, 0, 'visible', NULL, ?) RETURNING id`,
    );
    const roots = Array.from({ length: 25 }, (_, i) => (insert.get(post.id, userId, null, null, `顶层评论${i + 1}`, at) as { id: number }).id);
    let parent = roots[0]!;
    for (let i = 1; i <= 8; i++) parent = (insert.get(post.id, userId, parent, roots[0], `楼中回复${i}`, at) as { id: number }).id;
    return post.id;
  } finally {
    database.close();
  }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("20 top-level comments a page, 3 replies each, 展开更多 and a reply to a reply at level 2", async ({ page, loginAsStudent }) => {
      const nickname = javaScriptEnabled ? "翻页同学甲" : "翻页同学乙";
      const student = await loginAsStudent({ nickname });
      const postId = seedThreads(student.userId, nickname);
      await page.goto(`/post/${postId}`);
      const comments = page.locator("#comments");
      await expect(comments.getByText("顶层评论20", { exact: true })).toBeVisible();
      await expect(comments.getByText("顶层评论21", { exact: true })).toHaveCount(0);
      await expect(comments.getByText(/^楼中回复\d$/)).toHaveCount(3);
      await expect(comments.getByText("共 8 条回复")).toBeVisible();

      // The next page of top-level comments.
      await comments.getByRole("link", { name: "查看更多评论" }).click();
      await expect(page).toHaveURL(/\?after=\d+/);
      await expect(comments.getByText("顶层评论25", { exact: true })).toBeVisible();
      await expect(comments.getByText("顶层评论1", { exact: true })).toHaveCount(0);
      await comments.getByRole("link", { name: "回到最早的评论" }).click();
      await expect(comments.getByText("顶层评论1", { exact: true })).toBeVisible();

      // 展开更多: the whole thread, flat, each reply naming whom it answers.
      await comments.getByRole("link", { name: "展开更多" }).click();
      await expect(page).toHaveURL(/\?thread=\d+/);
      await expect(comments.getByText(/^楼中回复\d$/)).toHaveCount(8);
      const eighth = comments.getByRole("article").filter({ hasText: "楼中回复8" });
      await expect(eighth).toContainText(`回复 ${nickname}`);

      // A reply to the 8th reply: the sheet starts with the @mention; the reply joins the same thread.
      await eighth.getByRole("link", { name: "回复", exact: true }).click();
      const box = page.getByRole("textbox");
      await expect(box).toHaveValue(`@${nickname} `);
      await box.fill(`@${nickname} 第九条回复`);
      await page.getByRole("button", { name: "发送" }).click();
      await expect(page).toHaveURL(/\?thread=\d+#comment-\d+$/);
      const ninth = page.locator("#comments").getByRole("article").filter({ hasText: "第九条回复" });
      await expect(ninth).toBeVisible();
      // The replies before it stay in view.
      await expect(page.locator("#comments").getByText(/^楼中回复\d$/)).toHaveCount(8);
      await expect(ninth).toContainText(`回复 ${nickname}`);
    });
  });
}
