import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { DeleteSchema } from "~/lib/schemas/forum";
import { deleteOwnComment, deletePost, ForumError } from "~/server/forum/posts.server";
import { forumRefusal } from "~/server/http/forum-refusals";
import { requireStudent } from "~/server/http/guards.server";

/** /post/:id/delete: the form's constraints (zod stays on the server). */
export async function deleteSheetPage(request: Request) {
  await requireStudent(request);
  return { constraint: getZodConstraint(DeleteSchema) };
}

/** The author deletes the post (back to the circle) or one of their comments (back on the post). */
export async function deleteAction(request: Request, id: number) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: DeleteSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const value = submission.value;
  try {
    if (value.intent === "deletePost") {
      if (!(await deletePost(id, { userId: user.id }))) throw new ForumError("post_not_found");
      return redirect("/circle?notice=deleted");
    }
    await deleteOwnComment(value.commentId, user.id);
    return redirect(`/post/${id}?notice=commentDeleted#comments`);
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    const { status, message } = forumRefusal(error);
    return Response.json(submission.reply({ formErrors: [message] }), { status });
  }
}
