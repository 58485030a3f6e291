import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, Link, Outlet, isRouteErrorResponse, useActionData, useFetcher, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Avatar } from "~/components/circle/Avatar";
import { PostHead } from "~/components/circle/PostHead";
import { Toast } from "~/components/Toast";
import { ErrorScreen } from "~/components/ErrorScreen";
import { Icon } from "~/components/icons";
import { Glyph } from "~/components/circle/glyphs";
import { Page, useHydrated } from "~/components/Page";
import { copyText, useShareCard } from "~/components/share";
import { commentsHref, hasMoreReplies } from "~/lib/comment-tree";
import { fillTemplate } from "~/lib/template";
import type { ForumAnswer } from "~/lib/forum";
import { imageGrid } from "~/lib/image-grid";
import { app as appMessages } from "~/lib/messages/app";
import { errors as errorsMessages } from "~/lib/messages/errors";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { requirePostId } from "./guards.server";
import { postPage, postPageAction } from "./post.server";
import type { CommentView, PostView } from "~/server/forum/posts.server";


const msg = { app: appMessages, errors: errorsMessages, postDetail: postDetailMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.titles.post} · ${msg.app.name}` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return postPage(request, requirePostId(params.id));
}

const COMMENT_PAGE_PARAMS = ["after", "thread", "from"];

// Opening the preview, a reply, a report or a confirmation stays on the same post: no reload.
// Another page of comments or replies (?after=, ?thread=, ?from=) is new data.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, currentParams, nextParams, formMethod, defaultShouldRevalidate }) => {
  const samePage = COMMENT_PAGE_PARAMS.every((name) => currentUrl.searchParams.get(name) === nextUrl.searchParams.get(name));
  const onPostPage = nextUrl.pathname === `/post/${nextParams.id}`;
  if (
    (!formMethod || formMethod === "GET") &&
    currentParams.id === nextParams.id &&
    currentUrl.pathname.startsWith("/post/") &&
    nextUrl.pathname.startsWith("/post/") &&
    (samePage || !onPostPage)
  ) {
    return false;
  }
  return defaultShouldRevalidate;
};

/** The parent's data for the child routes (preview, report, delete). */
export type PostLoaderData = SerializeFrom<typeof loader>;

/** The page's own forms (the likes, 标记完成), told apart by intent (see post.server.ts). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return postPageAction(request, requirePostId(params.id), context?.clientIp);
}

export default function PostDetail() {
  const { post, favourite, comments, commentsPage, commentsError, canComment, noticeText, moderationNote, helpLink, shareImage } = useLoaderData<typeof loader>();
  const actionData = useActionData<ForumAnswer>();
  const [params] = useSearchParams();
  const [toast, setToast] = useState<string | null>(null);
  const base = `/post/${post.id}`;
  // Inside the messenger, a shared post shows its title, a line of its text and its first picture.
  useShareCard({
    title: post.title || excerptOf(post.content, 30),
    desc: excerptOf(post.content, 60),
    link: base,
    imgUrl: shareImage,
  });

  const notice = params.get("notice") ? noticeText : null;
  // A plain form post that failed (no JS): its message, and the comment text kept in the form.
  const failed = actionData && !actionData.success ? actionData : null;
  const banner = failed ? (failed.message ?? msg.postDetail.actionFailed) : null;
  const message = toast ?? banner ?? notice;

  return (
    <Page title={msg.titles.post} back="/circle" actions={<ShareButton url={base} onDone={setToast} />}>
      {moderationNote ? (
        <p role="status" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-700">
          {moderationNote}
        </p>
      ) : null}

      <article className="card space-y-3" aria-labelledby="post-author">
        <PostHead post={post} authorId="post-author" mineLabel={msg.postDetail.mine} wrapTags />
        <p className="whitespace-pre-wrap break-words text-[15px] leading-7 text-slate-800">{post.content}</p>
        <ImageGrid post={post} base={base} />
        <div className="flex items-center gap-4 border-t border-slate-100 pt-3 text-xs text-slate-500">
          <span className="inline-flex items-center gap-1">
            <Glyph name="eye" className="h-4 w-4" />
            {msg.postDetail.views} {post.viewCount}
          </span>
          <a href="#comments" className="inline-flex items-center gap-1">
            <Icon name="chat" className="h-4 w-4" />
            {msg.postDetail.comments} {post.commentCount}
          </a>
          <span className="flex-1" />
          {/* 收藏: a plain form (post/redirect/get), no script of its own. */}
          <Form method="post" replace preventScrollReset id="post-favourite">
            <input type="hidden" name="intent" value="favourite" />
            <input type="hidden" name="returnTo" value={`?${params}`} />
            <button type="submit" aria-pressed={favourite} className={`inline-flex items-center gap-1 rounded-full border px-3 py-1.5 text-sm ${favourite ? "border-amber-200 bg-amber-50 text-amber-600" : "border-slate-200 text-slate-500"}`}>
              <Icon name="star" className="h-5 w-5" />
              {favourite ? msg.postDetail.favourited : msg.postDetail.favourite}
            </button>
          </Form>
          <LikeButton intent="like" liked={post.isLiked} count={post.likeCount} fetcherKey={`like-${post.id}`} onError={setToast} large />
        </div>
        <footer className="flex flex-wrap items-center gap-2 text-xs">
          {post.author.isMine && post.status === "ongoing" ? (
            <Form method="post" replace preventScrollReset>
              <input type="hidden" name="intent" value="complete" />
              <button type="submit" className="btn-ghost px-3 py-1 text-xs">
                <Icon name="check" className="h-3.5 w-3.5" />
                {msg.postDetail.markCompleted}
              </button>
            </Form>
          ) : null}
          {helpLink ? (
            <Link to={`${base}/help`} replace preventScrollReset className="btn-primary px-3 py-1 text-xs">
              {helpLink}
            </Link>
          ) : null}
          <span className="flex-1" />
          {post.author.isMine ? (
            <Link to={`${base}/delete`} replace preventScrollReset className="inline-flex items-center gap-1 px-1 py-1 text-slate-500">
              <Glyph name="trash" className="h-3.5 w-3.5" />
              {msg.postDetail.deletePost}
            </Link>
          ) : (
            <Link to={`${base}/report`} replace preventScrollReset className="inline-flex items-center gap-1 px-1 py-1 text-slate-500">
              <Glyph name="flag" className="h-3.5 w-3.5" />
              {msg.postDetail.report}
            </Link>
          )}
        </footer>
      </article>

      <section id="comments" className="card space-y-4" aria-labelledby="comments-title">
        <h2 id="comments-title" className="text-base font-semibold">
          {msg.postDetail.commentsTitle} {post.commentCount}
        </h2>
        {commentsError ? (
          <p role="alert" className="text-sm text-red-600">
            {commentsError}
          </p>
        ) : comments.threads.length === 0 && !commentsPage.after ? (
          <p className="py-4 text-center text-sm text-slate-500">{msg.postDetail.noComments}</p>
        ) : (
          <>
            {commentsPage.after ? (
              <Link to={commentsHref(base, {})} preventScrollReset className="block text-center text-sm text-brand">
                {msg.postDetail.firstComments}
              </Link>
            ) : null}
            {/* Two levels, never deeper: each top-level comment with one flat list of its replies. */}
            <ul className="space-y-4">
              {comments.threads.map((thread) => (
                <li key={thread.root.id}>
                  <CommentItem comment={thread.root} base={base} onError={setToast} />
                  {thread.replies.length > 0 || hasMoreReplies(thread) ? (
                    <div className="ml-10 mt-2 space-y-3 rounded-xl bg-slate-50 p-3">
                      {thread.replies.length > 0 ? (
                        <ul className="space-y-3">
                          {thread.replies.map((reply) => (
                            <li key={reply.id}>
                              <CommentItem comment={reply} base={base} replyTo={reply.replyTo} onError={setToast} small />
                            </li>
                          ))}
                        </ul>
                      ) : null}
                      <ThreadLinks base={base} after={commentsPage.after} thread={thread} />
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
            {comments.nextAfter ? (
              <Link to={commentsHref(base, { after: comments.nextAfter })} preventScrollReset className="btn-ghost block w-full py-2 text-center text-sm">
                {msg.postDetail.moreComments}
              </Link>
            ) : null}
          </>
        )}
        <PendingComment />
      </section>

      {/* The comment input: a bar that opens the comment sheet (a child route, like the others). */}
      <div className="h-12" aria-hidden="true" />
      <div className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 px-3 py-2 pb-[calc(0.5rem+env(safe-area-inset-bottom))] backdrop-blur">
        <div className="mx-auto max-w-screen-sm">
          {canComment ? (
            <Link to={`${base}/comment`} preventScrollReset className="block rounded-full bg-slate-100 px-4 py-2.5 text-sm text-slate-500">
              {msg.postDetail.commentPlaceholder}
            </Link>
          ) : (
            // No name yet (a school-account login): set one, then the comment sheet opens. No dead end.
            <Link to={`/backpack/profile?${new URLSearchParams({ redirectTo: `${base}/comment` })}`} className="block py-2 text-center text-sm text-brand">
              {msg.postDetail.commentNeedsProfile}
            </Link>
          )}
        </div>
      </div>

      {/* The preview, the report sheet and the delete confirmation are child routes: their code loads only when opened. */}
      <Outlet />
      {/* Last: a fixed toast placed first would push the page down by space-y's margin. */}
      {message ? <Toast text={message} tone={!toast && banner ? "error" : "info"} clearTo={notice ? base : undefined} onHide={() => setToast(null)} /> : null}
    </Page>
  );
}

const GRID_CLASS: Record<string, string> = {
  single: "grid-cols-1",
  double: "grid-cols-2",
  triple: "grid-cols-3",
  quad: "grid-cols-2 w-2/3",
  six: "grid-cols-3",
  nine: "grid-cols-3",
};

/** The image grid: its layout follows the count; each image opens the full-screen preview. */
function ImageGrid({ post, base }: { post: PostView; base: string }) {
  const grid = imageGrid(post.images.length);
  if (grid.layout === "none") return null;
  const single = grid.layout === "single" ? post.images[0]! : null;
  return (
    <ul className={`grid gap-1.5 ${GRID_CLASS[grid.layout]}`} data-layout={grid.layout}>
      {post.images.map((image, index) => (
        <li key={image.url}>
          <Link
            to={`${base}/images/${index + 1}`}
            preventScrollReset
            className={`block overflow-hidden rounded-lg bg-slate-100 ${single ? "max-h-80" : "aspect-square"}`}
            aria-label={`${msg.postDetail.openImage} ${index + 1}/${post.images.length}`}
          >
            <img
              src={single ? image.url : image.thumbUrl}
              alt={`${msg.postDetail.imageAlt} ${index + 1}`}
              width={single ? image.width : undefined}
              height={single ? image.height : undefined}
              loading="lazy"
              className={single ? "max-h-80 w-auto max-w-full object-contain" : "h-full w-full object-cover"}
            />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** A like toggle: a plain form without JS; with JS it answers at once and shows the server's count after. */
function LikeButton({
  intent,
  liked,
  count,
  fetcherKey,
  commentId,
  onError,
  large = false,
}: {
  intent: "like" | "commentLike";
  liked: boolean;
  count: number;
  fetcherKey: string;
  commentId?: number;
  onError: (message: string) => void;
  large?: boolean;
}) {
  const fetcher = useFetcher<ForumAnswer>({ key: fetcherKey });
  const [params] = useSearchParams();
  const pending = fetcher.formData?.get("intent") === intent;
  const shownLiked = pending ? fetcher.formData!.get("liked") !== "1" : liked;
  const shownCount = pending ? Math.max(0, count + (shownLiked === liked ? 0 : shownLiked ? 1 : -1)) : count;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.success) {
      onError(fetcher.data.message ?? (intent === "like" ? msg.postDetail.likeFailed : msg.postDetail.actionFailed));
    }
  }, [fetcher.state, fetcher.data, intent, onError]);
  return (
    <fetcher.Form
      method="post"
      preventScrollReset
      id={intent === "like" ? "post-like" : undefined}
      // With JavaScript the answer is read here (via=fetcher); a plain post gets the page again.
      onSubmit={(event) => ((event.currentTarget.elements.namedItem("via") as HTMLInputElement).disabled = false)}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="liked" value={shownLiked ? "1" : "0"} />
      {/* Without JavaScript the answer is the page again (post/redirect/get), at this view of it. */}
      <input type="hidden" name="returnTo" value={`?${params}`} />
      <input type="hidden" name="via" value="fetcher" disabled />
      {commentId ? <input type="hidden" name="commentId" value={commentId} /> : null}
      <button
        type="submit"
        aria-pressed={shownLiked}
        aria-label={`${shownLiked ? msg.postDetail.liked : msg.postDetail.like} ${shownCount}`}
        className={`inline-flex items-center gap-1 rounded-full ${large ? "border px-3 py-1.5 text-sm" : "px-1 text-xs"} ${shownLiked ? "border-rose-200 bg-rose-50 text-rose-500" : "border-slate-200 text-slate-500"}`}
      >
        <Icon name="heart" className={large ? "h-5 w-5" : "h-4 w-4"} />
        <span className="tabular-nums">{shownCount}</span>
      </button>
    </fetcher.Form>
  );
}

function CommentItem({
  comment,
  base,
  replyTo,
  onError,
  small = false,
}: {
  comment: CommentView;
  base: string;
  replyTo?: string | null;
  onError: (message: string) => void;
  small?: boolean;
}) {
  const replyUrl = `${base}/comment?reply=${comment.id}`;
  return (
    <article id={`comment-${comment.id}`} className="flex gap-2.5" aria-label={comment.author.name}>
      <Avatar author={comment.author} size="sm" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-1 text-xs text-slate-500">
          <span className="font-medium text-slate-700">{comment.author.name}</span>
          {comment.author.isPostAuthor ? <span className="rounded bg-brand px-1 text-[10px] text-white">{msg.postDetail.author}</span> : null}
          {comment.author.isMine ? <span className="rounded bg-slate-200 px-1 text-[10px] text-slate-600">{msg.postDetail.mine}</span> : null}
          {comment.underReview ? <span className="rounded bg-amber-100 px-1 text-[10px] text-amber-700">{msg.postDetail.commentUnderReview}</span> : null}
          {replyTo ? (
            <span>
              {msg.postDetail.reply} <span className="text-slate-700">{replyTo}</span>
            </span>
          ) : null}
        </p>
        <Link to={replyUrl} preventScrollReset replace className={`mt-0.5 block whitespace-pre-wrap break-words text-slate-800 ${small ? "text-sm" : "text-[15px]"}`}>
          {comment.content}
        </Link>
        <div className="mt-1 flex items-center gap-3 text-xs text-slate-500">
          <time dateTime={comment.createdAt}>{comment.time}</time>
          <Link to={replyUrl} preventScrollReset replace className="text-slate-500">
            {msg.postDetail.reply}
          </Link>
          {comment.author.isMine ? (
            <Link to={`${base}/delete?comment=${comment.id}`} preventScrollReset replace className="text-slate-500">
              {msg.postDetail.deleteComment}
            </Link>
          ) : (
            <Link to={`${base}/report?comment=${comment.id}`} preventScrollReset replace className="text-slate-500">
              {msg.postDetail.report}
            </Link>
          )}
          <span className="flex-1" />
          <LikeButton intent="commentLike" liked={comment.isLiked} count={comment.likeCount} commentId={comment.id} fetcherKey={`clike-${comment.id}`} onError={onError} />
        </div>
      </div>
    </article>
  );
}

/** 展开更多 (the thread's next page of replies: a link, so it works without JS) and 收起回复. */
function ThreadLinks({ base, after, thread }: { base: string; after: number | null; thread: PostLoaderData["comments"]["threads"][number] }) {
  const more = hasMoreReplies(thread);
  if (!more && !thread.expanded) return null;
  return (
    <p className="flex flex-wrap items-center gap-3 text-xs">
      {more ? (
        <Link to={commentsHref(base, { after, thread: thread.root.id, from: thread.expanded ? thread.moreFrom : null })} preventScrollReset className="text-brand">
          {msg.postDetail.moreReplies}
        </Link>
      ) : null}
      <span className="text-slate-400">{fillTemplate(msg.postDetail.replyCount, { count: thread.replyCount })}</span>
      {thread.expanded ? (
        <Link to={commentsHref(base, { after })} preventScrollReset className="text-slate-500">
          {msg.postDetail.collapseReplies}
        </Link>
      ) : null}
    </p>
  );
}

/** The comment being sent, shown at once (JS), until the page has the real one. */
function PendingComment() {
  const fetcher = useFetcher<ForumAnswer>({ key: "comment" });
  const content = fetcher.formData?.get("content");
  if (typeof content !== "string" || !content.trim()) return null;
  return (
    <p className="flex items-center gap-2 rounded-xl bg-slate-50 px-3 py-2 text-sm text-slate-500" aria-live="polite">
      <span className="min-w-0 flex-1 truncate">{content.trim()}</span>
      <span className="shrink-0 text-xs">{msg.postDetail.sending}</span>
    </p>
  );
}

/** Copies the post's link (the messenger's own share comes with its JS-SDK, see the notifications issue). */
function excerptOf(text: string, max: number) {
  const flat = text.replace(/\s+/g, " ").trim();
  return [...flat].length <= max ? flat : `${[...flat].slice(0, max - 1).join("")}…`;
}

function ShareButton({ url, onDone }: { url: string; onDone: (message: string) => void }) {
  // Copying needs JavaScript: without it the button would do nothing, so it is left out.
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="rounded-full p-1.5 hover:bg-white/10"
      aria-label={msg.postDetail.share}
      onClick={() => {
        const link = new URL(url, window.location.href).href;
        void copyText(link).then((copied) => onDone(copied ? msg.postDetail.linkCopied : `${msg.postDetail.copyFailed} ${link}`));
      }}
    >
      <Glyph name="share" className="h-5 w-5" />
    </button>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorScreen title={msg.postDetail.postNotFound} body={msg.postDetail.postNotFoundBody} code={404} home="/circle" homeLabel={msg.postDetail.backToCircle} />;
  }
  return (
    <Page title={msg.titles.post} back="/circle">
      <section role="alert" className="card py-10 text-center text-sm text-red-600">
        {msg.postDetail.loadPostFailed}
      </section>
    </Page>
  );
}
