import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useParams, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { FieldError } from "~/components/FieldError";
import { Sheet } from "~/components/ui/Sheet";
import { commentOnPage } from "~/lib/comment-tree";
import { REPORT_REASONS } from "~/lib/forum";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { postSheets as postSheetsMessages } from "~/lib/messages/postSheets";
import { requirePostId } from "../post.$id/guards.server";
import type { PostLoaderData } from "../post.$id/route";
import { reportAction, reportSheetPage } from "./report.server";

const msg = { postDetail: postDetailMessages, postSheets: postSheetsMessages };

export async function loader({ request, params }: LoaderFunctionArgs) {
  requirePostId(params.id);
  return reportSheetPage(request);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return reportAction(request, requirePostId(params.id));
}

/** /post/:id/report (?comment=…): the reasons; the sheet's own action reports. */
export default function ReportSheet() {
  const data = useRouteLoaderData<PostLoaderData>("routes/post.$id");
  const { constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const { id } = useParams();
  const [params] = useSearchParams();
  const [form, fields] = useForm<{ reason: string }>({ id: "report-form", lastResult, constraint, shouldRevalidate: "onInput" });
  const base = `/post/${id}`;
  const commentId = Number(params.get("comment"));
  const comment = commentId && data ? commentOnPage(data.comments, commentId) : null;
  if (!data || (commentId && !comment)) return null;
  const reasonErrors = fields.reason.errors ?? [];
  return (
    <Sheet title={msg.postDetail.report} closeTo={base}>
      <Form method="post" action={`${base}/report${comment ? `?comment=${comment.id}` : ""}`} replace preventScrollReset {...getFormProps(form)} noValidate={false} className="space-y-3">
        <input type="hidden" name="intent" value="report" />
        {comment ? <input type="hidden" name="commentId" value={comment.id} /> : null}
        {comment ? <p className="line-clamp-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600">{comment.content}</p> : null}
        <FieldError field={form} alert all />
        <fieldset className="space-y-2" aria-invalid={reasonErrors.length > 0 || undefined} aria-describedby={reasonErrors.length > 0 ? fields.reason.errorId : undefined}>
          <legend className="mb-2 text-sm text-slate-500">{msg.postSheets.reportReason}</legend>
          {REPORT_REASONS.map((reason) => (
            <label key={reason.value} className="flex items-center gap-3 rounded-xl border border-slate-200 px-3 py-2.5 text-sm has-[:checked]:border-brand">
              <input
                type="radio"
                name={fields.reason.name}
                value={reason.value}
                required={fields.reason.required}
                defaultChecked={fields.reason.initialValue === reason.value}
                className="accent-[rgb(var(--brand))]"
              />
              {reason.label}
            </label>
          ))}
        </fieldset>
        <FieldError field={fields.reason} alert all />
        <button type="submit" className="btn-primary w-full py-2.5">
          {msg.postSheets.reportSubmit}
        </button>
      </Form>
    </Sheet>
  );
}
