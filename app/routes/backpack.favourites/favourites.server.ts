import { listFavourites, type FavouriteCursor } from "~/server/forum/posts.server";
import { cursorParam } from "~/lib/comment-tree";
import { requireStudent } from "~/server/http/guards.server";

/** "2026-11-28T10:00:00.000Z" and a post id from ?at=&post= (the last card of the previous page); anything else: the first page. */
function cursorOf(params: URLSearchParams): FavouriteCursor | null {
  const at = params.get("at");
  const postId = cursorParam(params.get("post"));
  if (!at || !postId || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(at)) return null;
  return { at, postId };
}

/** /backpack/favourites: the posts the student keeps, newest kept first, a page at a time. */
export async function favouritesPage(request: Request) {
  const user = await requireStudent(request);
  const after = cursorOf(new URL(request.url).searchParams);
  const page = await listFavourites({ userId: user.id, after });
  return {
    page: { posts: page.posts, next: page.nextCursor ? `?${new URLSearchParams({ at: page.nextCursor.at, post: String(page.nextCursor.postId) })}` : null },
    paged: after !== null,
  };
}
