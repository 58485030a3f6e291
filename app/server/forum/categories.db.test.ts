import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEFAULT_FORUM_CATEGORIES } from "~/lib/catalog";
import { consoleError } from "../../../tests/setup/console";
import { db } from "~/server/db/db.server";
import { loader as publishLoader } from "~/routes/publish-post/route";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { forumCategories } from "./categories.server";

describe("forum categories", () => {
  it("are the six defaults, ids 1–6; an operator's change is read on the next request, not before", async () => {
    const first = await forumCategories();
    expect(first.fallback).toBe(false);
    expect(first.categories.map((category) => [category.id, category.name])).toEqual(DEFAULT_FORUM_CATEGORIES.map((category) => [category.id, category.name]));
    // Kept in memory: the same list without reading the table again.
    expect((await forumCategories()).categories).toBe(first.categories);

    await db().updateTable("forum_categories").set({ name: "闲聊八卦" }).where("id", "=", 1).execute();
    expect((await forumCategories()).categories[0]!.name).toBe("闲聊八卦");
    await db().updateTable("forum_categories").set({ name: "吃瓜闲聊" }).where("id", "=", 1).execute();
    expect((await forumCategories()).categories[0]!.name).toBe("吃瓜闲聊");
  });

  it("fall back to the defaults with the product rules' warning when loading fails", async () => {
    // An operator's change (the kept copy is stale), then the table cannot be read.
    await db().updateTable("reference_version").set((eb) => ({ version: eb("version", "+", 1) })).execute();
    await sql`ALTER TABLE forum_categories RENAME TO forum_categories_away`.execute(db());
    try {
      const result = await forumCategories();
      expect(result.fallback).toBe(true);
      expect(result.categories.map((category) => category.id)).toEqual([1, 2, 3, 4, 5, 6]);
      // The publish page shows the defaults with the product rules' warning.
      const student = await createStudent({ nickname: "分类测试" });
      const page = await publishLoader({ request: request("/publish-post", { cookie: await sessionCookieFor(student.id) }), params: {}, context: {} });
      expect(page.warning).toBe("获取分类列表失败，使用默认分类");
      expect(page.categories.map((category) => category.id)).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      await sql`ALTER TABLE forum_categories_away RENAME TO forum_categories`.execute(db());
    }
    // A failure is not cached.
    expect((await forumCategories()).fallback).toBe(false);
    expect(consoleError).not.toHaveBeenCalled();
  });
});
