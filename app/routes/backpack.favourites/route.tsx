import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PostCard } from "~/components/circle/PostCard";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { backpack as backpackMessages } from "~/lib/messages/backpack";
import { circle as circleMessages } from "~/lib/messages/circle";
import { favouritesPage } from "./favourites.server";

const msg = { app: appMessages, backpack: backpackMessages, circle: circleMessages };

export const meta: MetaFunction = () => [{ title: `${msg.backpack.favourites} · ${msg.app.name}` }];

const PATH = "/backpack/favourites";

/** The posts the student keeps (收藏 on a post), newest kept first. */
export async function loader({ request }: LoaderFunctionArgs) {
  return favouritesPage(request);
}

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
