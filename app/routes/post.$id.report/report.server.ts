import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import type { ReportReason } from "~/server/db/schema";
import { ReportSchema } from "~/lib/schemas/forum";
import { ForumError, report } from "~/server/forum/posts.server";
import { forumRefusal } from "~/server/http/forum-refusals";
import { requireStudent } from "~/server/http/guards.server";

/** /post/:id/report: the form's constraints (zod stays on the server). */
export async function reportSheetPage(request: Request) {
  await requireStudent(request);
  return { constraint: getZodConstraint(ReportSchema) };
}

/**
 * Reports the post or one of its comments. Back on the post with the notice; a post that the
 * reports hid goes back to the circle. A refusal answers conform's result (shown in the sheet).
 */
export async function reportAction(request: Request, id: number) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: ReportSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const value = submission.value;
  try {
    const result = await report({ userId: user.id, postId: id, commentId: value.commentId, reason: value.reason as ReportReason });
    if (result.hidden && !value.commentId) return redirect("/circle?notice=reported");
    return redirect(`/post/${id}?notice=${result.status === "already" ? "alreadyReported" : "reported"}`);
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    const { status, message } = forumRefusal(error);
    return Response.json(submission.reply({ formErrors: [message] }), { status });
  }
}
