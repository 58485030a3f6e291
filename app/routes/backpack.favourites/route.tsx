import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PostCard } from "~/components/circle/PostCard";
import { BackToNewest, NextPosts, NoPosts } from "~/components/circle/PostPages";
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
      {paged ? <BackToNewest to={PATH} /> : null}
      {page.posts.length === 0 ? (
        <NoPosts icon="star" text={msg.backpack.favouritesEmpty} />
      ) : (
        <ul className="space-y-3" aria-label={msg.backpack.favourites}>
          {page.posts.map((post) => (
            <li key={post.id}>
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      )}
      {page.next || page.posts.length > 0 ? <NextPosts next={page.next ? `${PATH}${page.next}` : null} /> : null}
    </Page>
  );
}
