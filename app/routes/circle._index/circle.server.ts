import { cursorParam } from "~/lib/comment-tree";
import * as msg from "~/lib/messages";
import { forumCategories } from "~/server/forum/categories.server";
import { listHotPosts, listPosts, type HotCursor, type PostView } from "~/server/forum/posts.server";
import { log } from "~/server/log.server";
import { requireStudent } from "~/server/http/guards.server";

export type CircleSort = "new" | "hot";

/** ?hot=<score>_<id>: the 热门 list's cursor (the last card's stored score and id); anything else is the first page. */
function hotCursor(value: string | null): HotCursor | null {
  const match = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)_([1-9]\d{0,9})$/i.exec(value ?? "");
  if (!match) return null;
  const score = Number(match[1]);
  return Number.isFinite(score) ? { score, id: Number(match[2]) } : null;
}

/**
 * /circle: categories (cached, or the defaults with the warning), one page of posts (最新: newest
 * first; 热门: by heat, app/lib/hot.ts), the query of the next page, the notice.
 */
export async function circlePage(request: Request) {
  const user = await requireStudent(request);
  const url = new URL(request.url);
  const { categories, fallback } = await forumCategories();
  const warning = fallback ? msg.forumData.categoriesFallback : null;
  const requested = cursorParam(url.searchParams.get("category"));
  const categoryId = requested && categories.some((category) => category.id === requested) ? requested : null;
  const sort: CircleSort = url.searchParams.get("sort") === "hot" ? "hot" : "new";
  const before = sort === "new" ? cursorParam(url.searchParams.get("before")) : null;
  // With JavaScript, 加载更多 records how far the 最新 list was loaded, so Back renders it again.
  const until = sort === "new" ? cursorParam(url.searchParams.get("until")) : null;
  const after = sort === "hot" ? hotCursor(url.searchParams.get("hot")) : null;
  let page: { posts: PostView[]; more: Record<string, string> | null } = { posts: [], more: null };
  let error: string | null = null;
  try {
    if (sort === "hot") {
      const hot = await listHotPosts({ viewerId: user.id, categoryId, after });
      page = { posts: hot.posts, more: hot.nextCursor ? { sort, hot: `${hot.nextCursor.score}_${hot.nextCursor.id}` } : null };
    } else {
      const newest = await listPosts({ viewerId: user.id, categoryId, before, until });
      page = { posts: newest.posts, more: newest.nextCursor ? { before: String(newest.nextCursor) } : null };
    }
  } catch (cause) {
    log("error", "circle-list", { error: String(cause) });
    error = `${msg.circle.loadPostsFailed}${msg.errors.serverErrorBody}`;
  }
  return {
    categories: categories.map(({ id, name }) => ({ id, name })),
    warning,
    categoryId,
    sort,
    before,
    /** Not the first page (a cursor was given): the page offers 回到最新. */
    paged: Boolean(before || after),
    page,
    error,
    notice: url.searchParams.get("notice"),
  };
}
