import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PostCard } from "~/components/circle/PostCard";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { backpack as backpackMessages } from "~/lib/messages/backpack";
import { circle as circleMessages } from "~/lib/messages/circle";
import { requireStudent } from "~/server/auth/session.server";
import { listFavourites, type FavouriteCursor } from "~/server/forum/posts.server";
import { cursorParam } from "~/lib/comment-tree";

const msg = { app: appMessages, backpack: backpackMessages, circle: circleMessages };

/** "2026-11-28T10:00:00.000Z" and a post id from ?at=&post= (the last card of the previous page); anything else: the first page. */
function cursorOf(params: URLSearchParams): FavouriteCursor | null {
  const at = params.get("at");
  const postId = cursorParam(params.get("post"));
  if (!at || !postId || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(at)) return null;
  return { at, postId };
}

/** /backpack/favourites: the posts the student keeps (收藏 on a post), newest kept first, a page at a time. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const after = cursorOf(new URL(request.url).searchParams);
  const page = await listFavourites({ userId: user.id, after });
  return {
    page: { posts: page.posts, next: page.nextCursor ? `?${new URLSearchParams({ at: page.nextCursor.at, post: String(page.nextCursor.postId) })}` : null },
    paged: after !== null,
  };
}

export const meta: MetaFunction = () => [{ title: `${msg.backpack.favourites} · ${msg.app.name}` }];

const PATH = "/backpack/favourites";

export default function Favourites() {
  const { page, paged } = useLoaderData<typeof loader>();
  return (
    <Page title={msg.backpack.favourites} back="/backpack">
      {paged ? (
        <Link to={PATH} className="block text-center text-sm text-brand">
          {msg.circle.backToNewest}
        </Link>
      ) : null}
      {page.posts.length === 0 ? (
        <section className="card flex flex-col items-center gap-3 py-12 text-center">
          <Icon name="star" className="h-10 w-10 text-slate-300" />
          <p className="text-sm text-slate-500">{msg.backpack.favouritesEmpty}</p>
        </section>
      ) : (
        <ul className="space-y-3" aria-label={msg.backpack.favourites}>
          {page.posts.map((post) => (
            <li key={post.id}>
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      )}
      {page.next ? (
        <Link to={`${PATH}${page.next}`} className="btn-ghost mx-auto flex w-40">
          {msg.circle.loadMore}
        </Link>
      ) : page.posts.length > 0 ? (
        <p className="py-2 text-center text-xs text-slate-500">{msg.circle.noMore}</p>
      ) : null}
    </Page>
  );
}
