import { parseWithZod } from "@conform-to/zod/v4";
import { replace } from "@remix-run/node";
import { commentLinkHref } from "~/lib/comment-tree";
import { ONLY_MENTION, type ForumAnswer } from "~/lib/forum";
import * as msg from "~/lib/messages";
import { CommentSchema } from "~/lib/schemas/forum";
import { getUser, hasStudentAccount } from "~/server/auth/session.server";
import { draftFromForm, dropDraft, keepClosedDraft, takeDraft } from "~/server/forum/draft-stash.server";
import { addComment, ForumError, hasPublicName } from "~/server/forum/posts.server";
import { noticeComment } from "~/server/forum/notices.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { forumRefusal } from "~/server/http/forum-refusals";
import { requireStudentKeepingDraft } from "~/server/http/draft-guard.server";
import { requireStudent } from "~/server/http/guards.server";

export function commentPath(id: number) {
  return `/post/${id}/comment`;
}

/** /post/:id/comment: the comment draft sent when the session had ended, back after the login. */
export async function commentSheetPage(request: Request, id: number) {
  const user = await requireStudent(request);
  // Only the draft of this sheet: a reply to the same comment (or a comment on the post).
  const replyTo = Number(new URL(request.url).searchParams.get("reply")) || null;
  const stashed = await takeDraft(request, user.id, "comment", commentPath(id), (draft) => (draft.parentId ?? null) === replyTo);
  return { draft: stashed ? { content: stashed.content, isAnonymous: stashed.isAnonymous, notice: msg.publish.draftRestored } : null };
}

/**
 * The sheet closed with its backdrop or × without JavaScript (they submit the form with
 * intent=dismiss): what was typed is kept for when it opens again, then back to the post.
 */
async function dismissComment(request: Request, id: number, formData: FormData, student: { userId: number; clientIp?: string }) {
  const draft = draftFromForm("comment", formData);
  const setCookie = await keepClosedDraft(request, student, "comment", commentPath(id), draft && !ONLY_MENTION.test(draft.content) ? draft : null);
  return replace(`/post/${id}`, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

function answer(body: ForumAnswer, status: number, headers?: Record<string, string>) {
  return Response.json(body, { status, headers });
}

/**
 * A comment or a reply. The new comment closes the sheet (a redirect to it, replacing the sheet's
 * history entry) for a fetcher and a plain form post alike; a refusal answers conform's result
 * and the message (the sheet keeps what was typed). Without a student session the typed comment
 * is kept for after the login (draft-stash.server), then the login page, for every caller.
 */
export async function commentAction(request: Request, id: number, clientIp?: string) {
  const formData = await request.formData();
  const user = await getUser(request);
  if (!user || !hasStudentAccount(user)) return requireStudentKeepingDraft(request, "comment", commentPath(id), formData, clientIp);
  if (formData.get("intent") === "dismiss") return dismissComment(request, id, formData, { userId: user.id, clientIp });
  const submission = parseWithZod(formData, { schema: CommentSchema });
  const intent = "comment";
  if (submission.status !== "success") return answer({ success: false, intent, result: submission.reply() }, 400);
  const value = submission.value;
  const refuse = (message: string, status: number, headers?: Record<string, string>) =>
    answer({ success: false, intent, message, result: submission.reply({ formErrors: [message] }) }, status, headers);
  if (!hasPublicName(user)) return refuse(msg.postDetail.commentNeedsProfile, 400);
  // Comments are rate-limited: 429 with the sheet's message, which keeps the typed comment.
  const verdict = await consumeRateLimit("comment", { userId: user.id, ip: clientIp });
  if (!verdict.ok) {
    const refused = tooMany(verdict);
    return refuse(refused.message, 429, refused.headers);
  }
  try {
    const created = await addComment({ postId: id, userId: user.id, content: value.content, parentId: value.parentId, isAnonymous: value.isAnonymous });
    await dropDraft(request, "comment");
    await noticeComment({ postId: id, commentId: created.id, parentId: value.parentId ?? null, rootId: created.rootId, threadFrom: created.threadFrom, actor: user, isAnonymous: Boolean(value.isAnonymous), content: value.content });
    return replace(commentLinkHref(`/post/${id}`, created.id, created.rootId, created.threadFrom));
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    return refuse(forumRefusal(error).message, forumRefusal(error).status);
  }
}
