import { Form, useParams, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { Sheet } from "~/components/ui/Sheet";
import { commentOnPage } from "~/lib/comment-tree";
import { REPORT_REASONS } from "~/lib/forum";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { postSheets as postSheetsMessages } from "~/lib/messages/postSheets";
import type { PostLoaderData } from "./post.$id";

const msg = { postDetail: postDetailMessages, postSheets: postSheetsMessages };

/** /post/:id/report (?comment=…): the reasons; the form posts to the post's own action. */
export default function ReportSheet() {
  const data = useRouteLoaderData<PostLoaderData>("routes/post.$id");
  const { id } = useParams();
  const [params] = useSearchParams();
  const base = `/post/${id}`;
  const commentId = Number(params.get("comment"));
  const comment = commentId && data ? commentOnPage(data.comments, commentId) : null;
  if (!data || (commentId && !comment)) return null;
  return (
    <Sheet title={msg.postDetail.report} closeTo={base}>
      <Form method="post" action={base} replace preventScrollReset className="space-y-3">
        <input type="hidden" name="intent" value="report" />
        {comment ? <input type="hidden" name="commentId" value={comment.id} /> : null}
        {comment ? <p className="line-clamp-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">{comment.content}</p> : null}
        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm text-slate-500">{msg.postSheets.reportReason}</legend>
          {REPORT_REASONS.map((reason) => (
            <label key={reason.value} className="flex items-center gap-3 rounded-xl border border-slate-200 px-3 py-2.5 text-sm has-[:checked]:border-brand">
              <input type="radio" name="reason" value={reason.value} required className="accent-[rgb(var(--brand))]" />
              {reason.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn-primary w-full py-2.5">
          {msg.postSheets.reportSubmit}
        </button>
      </Form>
    </Sheet>
  );
}
