import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, replace } from "@remix-run/node";
import { newCommentHref, type ForumAnswer } from "~/lib/forum";
import * as msg from "~/lib/messages";
import { PostActionSchema } from "~/lib/schemas/forum";
import { getUser, hasStudentAccount, requireStudent } from "../auth/session.server";
import { consumeRateLimit } from "../rate-limits.server";
import { draftFromForm, dropDraft, stashDraft, withDraftCookie } from "./draft-stash.server";
import type { ReportReason } from "../db/schema";
import {
  addComment,
  deleteOwnComment,
  deletePost,
  ForumError,
  hasPublicName,
  isOwnPost,
  markPostCompleted,
  report,
  toggleCommentLike,
  togglePostLike,
} from "./posts.server";

function answer(body: ForumAnswer, status = 200, headers?: Record<string, string>) {
  return Response.json(body, { status, headers });
}

/** "/post/12" → 12; anything else is a 404. */
export function parsePostId(value: string | undefined) {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw new Response("Not Found", { status: 404 });
  return Number(value);
}

/**
 * The forms of /post/:id (and its comment sheet), told apart by intent. Every caller gets the
 * same answer (decision 027): a like stays on the page and answers its data (action + like_count;
 * comment like: is_liked + like_count), which the page's fetcher and a plain form post (the page
 * again, revalidated) both show; a comment, a deletion or a report moves on with a redirect.
 * Without a student session, a comment and a comment like answer 401 with their message (the
 * sheet keeps what was typed); the other forms go to the login page.
 */
export async function postAction(request: Request, id: number, clientIp?: string) {
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const user = await getUser(request);
  if (!user || !hasStudentAccount(user)) {
    if (intent === "comment") {
      // The typed comment is kept for after the login (draft-stash.server), for every caller.
      const setCookie = await stashDraft(request, "comment", `/post/${id}/comment`, draftFromForm("comment", formData));
      try {
        await requireStudent(request);
      } catch (thrown) {
        throw withDraftCookie(thrown, setCookie);
      }
    }
    if (intent === "commentLike") return answer({ success: false, intent, message: msg.postSheets.pleaseLogin }, 401);
    await requireStudent(request);
    throw new Error("unreachable");
  }
  const submission = parseWithZod(formData, { schema: PostActionSchema });
  if (submission.status !== "success") return answer({ success: false, intent, result: submission.reply() }, 400);
  const value = submission.value;
  const back = (search = "", hash = "") => redirect(`/post/${id}${search}${hash}`);
  // Likes and comments are rate-limited (issue 18): 429 with the page's own error (the toast, or
  // the comment sheet's message, which keeps the typed comment).
  const limited = async (action: "like" | "comment") => {
    const verdict = await consumeRateLimit(action, { userId: user.id, ip: clientIp });
    if (verdict.ok) return null;
    return answer({ success: false, intent, message: verdict.message, result: submission.reply({ formErrors: [verdict.message] }) }, 429, verdict.headers);
  };
  try {
    switch (value.intent) {
      case "like": {
        const refused = await limited("like");
        if (refused) return refused;
        const result = await togglePostLike(id, user.id);
        return answer({ success: true, intent, action: result.action, like_count: result.likeCount });
      }
      case "commentLike": {
        const refused = await limited("like");
        if (refused) return refused;
        const result = await toggleCommentLike(id, value.commentId, user.id);
        return answer({ success: true, intent, is_liked: result.action === "liked", like_count: result.likeCount });
      }
      case "comment": {
        if (!hasPublicName(user)) {
          const message = msg.postDetail.commentNeedsProfile;
          return answer({ success: false, intent, message, result: submission.reply({ formErrors: [message] }) }, 400);
        }
        const refused = await limited("comment");
        if (refused) return refused;
        const created = await addComment({ postId: id, userId: user.id, content: value.content, parentId: value.parentId, isAnonymous: value.isAnonymous });
        await dropDraft(request, "comment");
        // The sheet closes on the new comment (replacing the sheet's history entry).
        return replace(newCommentHref(`/post/${id}`, created.id, created.rootId));
      }
      case "deletePost": {
        if (!(await deletePost(id, { userId: user.id }))) throw new ForumError("not_found", msg.postDetail.postNotFound);
        return redirect("/circle?notice=deleted");
      }
      case "deleteComment": {
        await deleteOwnComment(value.commentId, user.id);
        return back("?notice=commentDeleted", "#comments");
      }
      case "report": {
        const result = await report({ userId: user.id, postId: id, commentId: value.commentId, reason: value.reason as ReportReason });
        if (result.hidden && !value.commentId) return redirect("/circle?notice=reported");
        return back(`?notice=${result.status === "already" ? "alreadyReported" : "reported"}`);
      }
      case "complete": {
        // Already completed is fine; someone else's post is not found.
        if (!(await markPostCompleted(id, user.id)) && !(await isOwnPost(id, user.id))) throw new ForumError("not_found", msg.postDetail.postNotFound);
        return back("?notice=completed");
      }
    }
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    const status = error.code === "banned" || error.code === "forbidden" ? 403 : error.code === "not_found" ? 404 : 400;
    const message = intent === "like" ? msg.postDetail.likeFailed : error.message;
    return answer({ success: false, intent, message, result: submission.reply({ formErrors: [message] }) }, status);
  }
}
