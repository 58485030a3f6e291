import { Form, Link, useParams, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { Sheet } from "~/components/ui/Sheet";
import { commentOnPage } from "~/lib/comment-tree";
import { app as appMessages } from "~/lib/messages/app";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { postSheets as postSheetsMessages } from "~/lib/messages/postSheets";
import type { PostLoaderData } from "./post.$id";

const msg = { app: appMessages, postDetail: postDetailMessages, postSheets: postSheetsMessages };

/** /post/:id/delete (?comment=…): the author confirms; the form posts to the post's own action. */
export default function ConfirmDelete() {
  const data = useRouteLoaderData<PostLoaderData>("routes/post.$id");
  const { id } = useParams();
  const [params] = useSearchParams();
  const base = `/post/${id}`;
  const commentId = Number(params.get("comment"));
  const comment = commentId && data ? commentOnPage(data.comments, commentId) : null;
  if (!data || (commentId ? !comment?.author.isMine : !data.post.author.isMine)) return null;
  return (
    <Sheet title={comment ? msg.postDetail.deleteComment : msg.postDetail.deletePost} closeTo={base}>
      <p className="text-sm text-slate-600">{comment ? msg.postSheets.deleteCommentConfirm : msg.postSheets.deletePostConfirm}</p>
      <Form method="post" action={base} replace className="flex gap-3">
        <input type="hidden" name="intent" value={comment ? "deleteComment" : "deletePost"} />
        {comment ? <input type="hidden" name="commentId" value={comment.id} /> : null}
        <Link to={base} replace preventScrollReset className="btn-ghost flex-1 py-2.5">
          {msg.app.cancel}
        </Link>
        <button type="submit" className="btn flex-1 bg-red-600 py-2.5 text-white">
          {msg.app.confirm}
        </button>
      </Form>
    </Sheet>
  );
}
