import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEFAULT_FORUM_CATEGORIES } from "~/lib/catalog";
import { consoleError } from "../../../tests/setup/console";
import { db } from "~/server/db/db.server";
import { forgetForumCategories, forumCategories } from "./categories.server";

const DAY = 24 * 60 * 60 * 1000;

describe("forum categories", () => {
  it("are the six defaults, ids 1–6, cached for 24 hours", async () => {
    forgetForumCategories();
    const start = Date.now();
    const first = await forumCategories(start);
    expect(first.warning).toBeNull();
    expect(first.categories.map((category) => [category.id, category.name])).toEqual(DEFAULT_FORUM_CATEGORIES.map((category) => [category.id, category.name]));

    await db().updateTable("forum_categories").set({ name: "闲聊八卦" }).where("id", "=", 1).execute();
    expect((await forumCategories(start + DAY - 1000)).categories[0]!.name).toBe("吃瓜闲聊");
    expect((await forumCategories(start + DAY + 1000)).categories[0]!.name).toBe("闲聊八卦");
    await db().updateTable("forum_categories").set({ name: "吃瓜闲聊" }).where("id", "=", 1).execute();
  });

  it("fall back to the defaults with the product rules' warning when loading fails", async () => {
    forgetForumCategories();
    await sql`ALTER TABLE forum_categories RENAME TO forum_categories_away`.execute(db());
    try {
      const result = await forumCategories();
      expect(result.warning).toBe("获取分类列表失败，使用默认分类");
      expect(result.categories.map((category) => category.id)).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      await sql`ALTER TABLE forum_categories_away RENAME TO forum_categories`.execute(db());
    }
    // A failure is not cached.
    expect((await forumCategories()).warning).toBeNull();
    expect(consoleError).not.toHaveBeenCalled();
  });
});
