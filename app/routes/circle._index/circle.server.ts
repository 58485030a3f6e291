import { cursorParam } from "~/lib/comment-tree";
import * as msg from "~/lib/messages";
import { requireStudent } from "~/server/auth/session.server";
import { forumCategories } from "~/server/forum/categories.server";
import { listPosts, type PostPage } from "~/server/forum/posts.server";
import { log } from "~/server/log.server";

/** /circle: categories (cached, or the defaults with the warning), one page of posts, the notice. */
export async function circlePage(request: Request) {
  const user = await requireStudent(request);
  const url = new URL(request.url);
  const { categories, warning } = await forumCategories();
  const requested = cursorParam(url.searchParams.get("category"));
  const categoryId = requested && categories.some((category) => category.id === requested) ? requested : null;
  const before = cursorParam(url.searchParams.get("before"));
  // With JavaScript, 加载更多 records how far the list was loaded, so Back renders it again.
  const until = cursorParam(url.searchParams.get("until"));
  let page: PostPage = { posts: [], nextCursor: null };
  let error: string | null = null;
  try {
    page = await listPosts({ viewerId: user.id, categoryId, before, until });
  } catch (cause) {
    log("error", "circle-list", { error: String(cause) });
    error = `${msg.circle.loadPostsFailed}${msg.errors.serverErrorBody}`;
  }
  return {
    categories: categories.map(({ id, name }) => ({ id, name })),
    warning,
    categoryId,
    before,
    page,
    error,
    notice: url.searchParams.get("notice"),
  };
}
