import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useParams, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { FieldError } from "~/components/FieldError";
import { Sheet, SheetConfirmButtons } from "~/components/ui/Sheet";
import { commentOnPage } from "~/lib/comment-tree";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { postSheets as postSheetsMessages } from "~/lib/messages/postSheets";
import { requirePostId } from "../post.$id/guards.server";
import type { PostLoaderData } from "../post.$id/route";
import { deleteAction, deleteSheetPage } from "./delete.server";

const msg = { postDetail: postDetailMessages, postSheets: postSheetsMessages };

export async function loader({ request, params }: LoaderFunctionArgs) {
  requirePostId(params.id);
  return deleteSheetPage(request);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return deleteAction(request, requirePostId(params.id));
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
