import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { cursorParam } from "~/lib/comment-tree";
import { MUTUAL_HELP_CATEGORY_ID, type ForumAnswer } from "~/lib/forum";
import * as msg from "~/lib/messages";
import { PostPageActionSchema } from "~/lib/schemas/forum";
import { getUser, hasStudentAccount } from "~/server/auth/session.server";
import { ForumError, getPostWithAuthor, hasPublicName, isFavourite, isOwnPost, loadComments, markPostCompleted, recordView, toggleCommentLike, toggleFavourite, togglePostLike } from "~/server/forum/posts.server";
import { noticeLike } from "~/server/forum/notices.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { uploadKeyFromUrl } from "~/server/storage/images.server";
import { shareThumbUrl } from "~/server/storage/upload-access.server";
import { forumRefusal } from "~/server/http/forum-refusals";
import { requireStudent } from "~/server/http/guards.server";

const POST_NOTICES: Record<string, "reported" | "alreadyReported" | "commentDeleted" | "markedCompleted"> = {
  reported: "reported",
  alreadyReported: "alreadyReported",
  commentDeleted: "commentDeleted",
  completed: "markedCompleted",
};

/** /post/:id: the post (a view counted once a day), its comments, whether the viewer may comment. */
export async function postPage(request: Request, id: number) {
  const user = await requireStudent(request);
  const found = await getPostWithAuthor(id, user.id);
  if (!found) throw new Response("Not Found", { status: 404 });
  const { post } = found;
  if (await recordView(id, user.id)) post.viewCount += 1;
  const params = new URL(request.url).searchParams;
  // Comments come a page at a time: ?after= pages the top-level comments, ?thread= (and
  // ?from=) pages one thread's replies; a sheet's ?reply= or ?comment= brings that comment along.
  const page = {
    after: cursorParam(params.get("after")),
    thread: cursorParam(params.get("thread")),
    from: cursorParam(params.get("from")),
    focus: cursorParam(params.get("reply")) ?? cursorParam(params.get("comment")),
  };
  const [{ comments, failed: commentsFailed }, favourite] = await Promise.all([loadComments(id, user.id, found.author, page), isFavourite(id, user.id)]);
  const notice = params.get("notice");
  const mutualHelp = post.categoryId === MUTUAL_HELP_CATEGORY_ID && post.status === "ongoing";
  return {
    post,
    favourite,
    comments,
    commentsPage: { after: page.after, thread: page.thread, from: page.from },
    commentsError: commentsFailed ? msg.postSheets.loadCommentsFailed : null,
    canComment: hasPublicName(user),
    // Texts shown only sometimes travel as data, not in the page's JavaScript.
    noticeText: notice && notice in POST_NOTICES ? msg.postSheets[POST_NOTICES[notice]!] : null,
    moderationNote: post.moderation === "pending" ? msg.postSheets.underReview : post.moderation === "hidden" ? msg.postSheets.hiddenByOperator : null,
    /** 我来帮忙 (or the author's 查看帮忙) on an ongoing mutual-help request, else null. */
    helpLink: mutualHelp ? (post.author.isMine ? msg.mutualHelp.viewOffers : msg.mutualHelp.offer) : null,
    /** The share card's picture: a public thumbnail of its own (the images themselves are private). */
    shareImage: shareImageOf(post.images[0]?.url),
  };
}

function shareImageOf(firstImageUrl: string | undefined) {
  const key = firstImageUrl ? uploadKeyFromUrl(firstImageUrl) : null;
  return key ? shareThumbUrl(key) : undefined;
}

function answer(body: ForumAnswer, status = 200, headers?: Record<string, string>) {
  return Response.json(body, { status, headers });
}

/**
 * The forms of /post/:id itself, told apart by intent: the post's like, a comment's like and
 * 标记完成. Every caller gets the same answer (decision 027): a like stays on the page and
 * answers its data (action + like_count; comment like: is_liked + like_count), which the page's
 * fetcher and a plain form post (the page again, revalidated) both show; 标记完成 redirects.
 * Without a student session a comment like answers 401 with its message; the rest go to the login.
 * (The comment, the report and the deletion are the sheets' own actions.)
 */
/** Post/redirect/get for a like sent without JavaScript: back to the same view of the post, at the like. */
function afterPlainLike(id: number, formData: FormData, anchor: string) {
  // returnTo: the query of the view the like was on (threads opened, comments paged).
  const query = new URLSearchParams(String(formData.get("returnTo") ?? "").replace(/^\?/, "")).toString();
  return redirect(`/post/${id}${query ? `?${query}` : ""}#${anchor}`, 303);
}

export async function postPageAction(request: Request, id: number, clientIp?: string) {
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const user = await getUser(request);
  if (!user || !hasStudentAccount(user)) {
    if (intent === "commentLike") return answer({ success: false, intent, message: msg.postSheets.pleaseLogin }, 401);
    await requireStudent(request);
    throw new Error("unreachable");
  }
  const submission = parseWithZod(formData, { schema: PostPageActionSchema });
  if (submission.status !== "success") return answer({ success: false, intent, result: submission.reply() }, 400);
  const value = submission.value;
  // The page's JavaScript marks its like forms (via=fetcher) and reads the answer; a plain form
  // post (no JavaScript) is sent on to the page again, so a refresh or Back never likes twice.
  const fromFetcher = formData.get("via") === "fetcher";
  try {
    if (value.intent === "complete") {
      // Already completed is fine; someone else's post is not found.
      if (!(await markPostCompleted(id, user.id)) && !(await isOwnPost(id, user.id))) throw new ForumError("post_not_found");
      return redirect(`/post/${id}?notice=completed`);
    }
    // Likes and 收藏 (toggles alike) are rate-limited: 429 with the page's toast.
    const verdict = await consumeRateLimit("like", { userId: user.id, ip: clientIp });
    if (!verdict.ok) {
      const refused = tooMany(verdict);
      return answer({ success: false, intent, message: refused.message, result: submission.reply({ formErrors: [refused.message] }) }, 429, refused.headers);
    }
    if (value.intent === "favourite") {
      // A plain form in every case (no JavaScript of its own on the page): post/redirect/get.
      await toggleFavourite(id, user.id);
      return afterPlainLike(id, formData, "post-favourite");
    }
    if (value.intent === "like") {
      const result = await togglePostLike(id, user.id);
      if (result.action === "liked") await noticeLike({ postId: id, actor: user });
      if (!fromFetcher) return afterPlainLike(id, formData, "post-like");
      return answer({ success: true, intent, action: result.action, like_count: result.likeCount });
    }
    const result = await toggleCommentLike(id, value.commentId, user.id);
    if (result.action === "liked") await noticeLike({ postId: id, commentId: value.commentId, actor: user });
    if (!fromFetcher) return afterPlainLike(id, formData, `comment-${value.commentId}`);
    return answer({ success: true, intent, is_liked: result.action === "liked", like_count: result.likeCount });
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    const refused = forumRefusal(error);
    const message = intent === "like" ? msg.postDetail.likeFailed : intent === "favourite" ? msg.postDetail.favouriteFailed : refused.message;
    return answer({ success: false, intent, message, result: submission.reply({ formErrors: [message] }) }, refused.status);
  }
}
