import { DEFAULT_FORUM_CATEGORIES } from "~/lib/catalog";
import { CATEGORY_CACHE_MS } from "~/lib/forum";
import * as msg from "~/lib/messages";
import { config } from "../config.server";
import { db } from "../db/db.server";
import { log } from "../log.server";

export type Category = { id: number; name: string; description: string; icon: string };
export type Categories = { categories: Category[]; warning: string | null };

const DEFAULTS: Category[] = DEFAULT_FORUM_CATEGORIES.map(({ id, name, description, icon }) => ({ id, name, description, icon }));

let cache: { databaseUrl: string; at: number; categories: Category[] } | undefined;

/**
 * The forum categories, cached for 24 hours (docs/product-rules.md, "Limits"). When loading fails the default six
 * are used with the product rules' warning, and the failure is not cached.
 */
export async function forumCategories(at = Date.now()): Promise<Categories> {
  const databaseUrl = config().databaseUrl;
  if (cache && cache.databaseUrl === databaseUrl && at - cache.at < CATEGORY_CACHE_MS) return { categories: cache.categories, warning: null };
  try {
    const rows = await db().selectFrom("forum_categories").select(["id", "name", "description", "icon"]).orderBy("sort_order").orderBy("id").execute();
    if (rows.length === 0) throw new Error("no forum categories");
    cache = { databaseUrl, at, categories: rows };
    return { categories: rows, warning: null };
  } catch (error) {
    log("warn", "forum-categories", { error: String(error) });
    return { categories: DEFAULTS, warning: msg.forumData.categoriesFallback };
  }
}

/** Operators changed the categories: the next request reads them afresh. */
export function forgetForumCategories() {
  cache = undefined;
}
