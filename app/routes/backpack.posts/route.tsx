import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { PostCard } from "~/components/circle/PostCard";
import { Sheet, SheetConfirmButtons } from "~/components/ui/Sheet";
import { Toast } from "~/components/Toast";
import { BackToNewest, NextPosts, NoPosts } from "~/components/circle/PostPages";
import { Glyph } from "~/components/circle/glyphs";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { backpack as backpackMessages } from "~/lib/messages/backpack";
import { circle as circleMessages } from "~/lib/messages/circle";
import { myPosts as myPostsMessages } from "~/lib/messages/myPosts";
import { myPostsAction, myPostsPage } from "./my-posts.server";

const msg = { app: appMessages, backpack: backpackMessages, circle: circleMessages, myPosts: myPostsMessages };

export const meta: MetaFunction = () => [{ title: `${msg.backpack.posts} · ${msg.app.name}` }];

const PATH = "/backpack/posts";

/** The user's own posts, anonymous and hidden ones included (marked), newest first, with delete. */
export async function loader({ request }: LoaderFunctionArgs) {
  return myPostsPage(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return myPostsAction(request);
}

export default function MyPosts() {
  const { page, before, confirm, deleted } = useLoaderData<typeof loader>();
  const confirming = confirm ? page.posts.find((post) => post.id === confirm) : null;
  return (
    <Page title={msg.backpack.posts} back="/backpack">
      {before ? <BackToNewest to={PATH} /> : null}
      {page.posts.length === 0 ? (
        <NoPosts icon="edit" text={msg.myPosts.myPostsEmpty} publish />
      ) : (
        <ul className="space-y-3">
          {page.posts.map((post) => (
            <li key={post.id}>
              <PostCard
                post={post}
                extra={
                  <div className="flex items-center gap-2 border-t border-slate-100 px-4 py-2 text-xs">
                    {post.author.anonymous ? <span className="rounded bg-slate-700 px-1.5 py-0.5 text-white">{msg.myPosts.anonymousMark}</span> : null}
                    {post.moderation === "pending" ? <span className="text-amber-700">{msg.myPosts.underReviewLong}</span> : null}
                    {post.moderation === "hidden" ? <span className="text-red-600">{msg.myPosts.hiddenLong}</span> : null}
                    <span className="flex-1" />
                    <Link to={`${PATH}?delete=${post.id}${before ? `&before=${before}` : ""}`} preventScrollReset replace className="inline-flex items-center gap-1 text-slate-500">
                      <Glyph name="trash" className="h-3.5 w-3.5" />
                      {msg.myPosts.delete}
                    </Link>
                  </div>
                }
              />
            </li>
          ))}
        </ul>
      )}
      {page.nextCursor || page.posts.length > 0 ? <NextPosts next={page.nextCursor ? `${PATH}?before=${page.nextCursor}` : null} /> : null}
      {confirming ? (
        <Sheet title={msg.myPosts.delete} closeTo={before ? `${PATH}?before=${before}` : PATH}>
          <p className="line-clamp-3 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">{confirming.content}</p>
          <p className="text-sm text-slate-600">{msg.myPosts.deleteConfirm}</p>
          <Form method="post" replace className="flex gap-3">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="postId" value={confirming.id} />
            <SheetConfirmButtons cancelTo={PATH} />
          </Form>
        </Sheet>
      ) : null}
      {/* Last: a fixed toast placed first would push the page down by space-y's margin. */}
      {deleted ? <Toast text={msg.circle.deleted} clearTo={PATH} /> : null}
    </Page>
  );
}
