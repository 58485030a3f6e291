import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useParams, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { FieldError } from "~/components/FieldError";
import { Sheet, SheetConfirmButtons } from "~/components/ui/Sheet";
import { commentOnPage } from "~/lib/comment-tree";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { postSheets as postSheetsMessages } from "~/lib/messages/postSheets";
import { requirePostId, forumStatus } from "../post.$id/guards.server";
import type { PostLoaderData } from "../post.$id/route";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { DeleteSchema } from "~/lib/schemas/forum";
import { requireStudent } from "~/server/auth/session.server";
import { deleteOwnComment, deletePost, ForumError } from "~/server/forum/posts.server";

const msg = { postDetail: postDetailMessages, postSheets: postSheetsMessages };

/** /post/:id/delete: the form's constraints (zod stays on the server). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  requirePostId(params.id);
  await requireStudent(request);
  return { constraint: getZodConstraint(DeleteSchema) };
}

/** The author deletes the post (back to the circle) or one of their comments (back on the post). */
export async function action({ request, params }: ActionFunctionArgs) {
  const id = requirePostId(params.id);
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: DeleteSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const value = submission.value;
  try {
    if (value.intent === "deletePost") {
      if (!(await deletePost(id, { userId: user.id }))) throw new ForumError("not_found", msg.postDetail.postNotFound);
      return redirect("/circle?notice=deleted");
    }
    await deleteOwnComment(value.commentId, user.id);
    return redirect(`/post/${id}?notice=commentDeleted#comments`);
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    return Response.json(submission.reply({ formErrors: [error.message] }), { status: forumStatus(error) });
  }
}

/** /post/:id/delete (?comment=…): the author confirms; the sheet's own action deletes. */
export default function ConfirmDelete() {
  const data = useRouteLoaderData<PostLoaderData>("routes/post.$id");
  const { constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const { id } = useParams();
  const [params] = useSearchParams();
  const [form] = useForm({ id: "delete-form", lastResult, constraint });
  const base = `/post/${id}`;
  const commentId = Number(params.get("comment"));
  const comment = commentId && data ? commentOnPage(data.comments, commentId) : null;
  if (!data || (commentId ? !comment?.author.isMine : !data.post.author.isMine)) return null;
  return (
    <Sheet title={comment ? msg.postDetail.deleteComment : msg.postDetail.deletePost} closeTo={base}>
      <p className="text-sm text-slate-600">{comment ? msg.postSheets.deleteCommentConfirm : msg.postSheets.deletePostConfirm}</p>
      <FieldError field={form} alert all />
      <Form method="post" action={`${base}/delete${comment ? `?comment=${comment.id}` : ""}`} replace {...getFormProps(form)} className="flex gap-3">
        <input type="hidden" name="intent" value={comment ? "deleteComment" : "deletePost"} />
        {comment ? <input type="hidden" name="commentId" value={comment.id} /> : null}
        <SheetConfirmButtons cancelTo={base} />
      </Form>
    </Sheet>
  );
}
