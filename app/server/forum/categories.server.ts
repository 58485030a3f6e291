import { DEFAULT_FORUM_CATEGORIES } from "~/lib/catalog";
import { db } from "../db/db.server";
import { referenceCached } from "../db/reference-cache.server";
import { log } from "../log.server";

export type Category = { id: number; name: string; description: string; icon: string };
/** `fallback`: the table could not be read and the defaults stand in (the pages warn of it). */
export type Categories = { categories: Category[]; fallback: boolean };

const DEFAULTS: Category[] = DEFAULT_FORUM_CATEGORIES.map(({ id, name, description, icon }) => ({ id, name, description, icon }));

// Every circle page reads them: kept in memory until an operator changes one (decision 056; the
// older client kept them 24 hours, so a rename could take a day to show).
const cachedCategories = referenceCached(async (): Promise<Category[]> => {
  const rows = await db().selectFrom("forum_categories").select(["id", "name", "description", "icon"]).orderBy("sort_order").orderBy("id").execute();
  if (rows.length === 0) throw new Error("no forum categories");
  return rows;
});

/**
 * The forum categories. When loading fails the default six are used, marked as the fallback,
 * and the failure is not kept.
 */
export async function forumCategories(): Promise<Categories> {
  try {
    return { categories: await cachedCategories(), fallback: false };
  } catch (error) {
    log("warn", "forum-categories", { error: String(error) });
    return { categories: DEFAULTS, fallback: true };
  }
}
