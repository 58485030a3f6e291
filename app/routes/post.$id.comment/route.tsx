import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useFetcher, useLoaderData, useNavigate, useParams, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FieldError } from "~/components/FieldError";
import { Sheet } from "~/components/ui/Sheet";
import { commentOnPage } from "~/lib/comment-tree";
import { COMMENT_MAX_LENGTH, ONLY_MENTION, commentDraftKey, type ForumAnswer } from "~/lib/forum";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { commentSheet as commentSheetMessages } from "~/lib/messages/commentSheet";
import { requirePostId } from "../post.$id/guards.server";
import { commentAction, commentSheetPage } from "./comment.server";
import type { PostLoaderData } from "../post.$id/route";
import type { RouteHandle } from "~/root";

const msg = { commentSheet: commentSheetMessages, postDetail: postDetailMessages };

/** A POST sent after the session ended keeps what was typed for after the login (the draft stash). */
export const handle: RouteHandle = { keepsDraft: true };

/** A comment typed when the session had ended comes back here after the login (draft-stash.server). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return commentSheetPage(request, requirePostId(params.id));
}

/** The comment and reply form posts here (its own action, so a refused form without JS comes back to this sheet). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return commentAction(request, requirePostId(params.id), context?.clientIp);
}

/**
 * /post/:id/comment (?reply=…): the comment sheet, a child route so its code loads when opened.
 * A reply starts with an @mention of the comment's author. With JS it sends without leaving the
 * page (the comment shows at once in the list behind); the action's redirect to the new comment
 * closes it, for a fetcher and a plain form post alike.
 */
export default function CommentSheet() {
  const data = useRouteLoaderData<PostLoaderData>("routes/post.$id");
  const { id } = useParams();
  const [params] = useSearchParams();
  const fetcher = useFetcher<ForumAnswer>({ key: "comment" });
  const documentAnswer = useActionData<ForumAnswer>();
  const draft = useLoaderData<typeof loader>()?.draft ?? null;
  const base = `/post/${id}`;
  const replyId = Number(params.get("reply"));
  const replyTo = replyId && data ? commentOnPage(data.comments, replyId) : null;
  const actionPath = `${base}/comment${replyTo ? `?reply=${replyTo.id}` : ""}`;
  const navigate = useNavigate();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fetcherState = useRef(fetcher.state);
  fetcherState.current = fetcher.state;
  const draftKey = commentDraftKey(id ?? "", replyTo?.id ?? null);
  // A stored comment answers with a redirect, which brings no new data: the fetcher is "loading"
  // (the post behind reloads) still holding the answer it had when this send began. A refusal's
  // revalidation holds the refusal, a new answer.
  const dataAtSend = useRef(fetcher.data);
  if (fetcher.state === "submitting") dataAtSend.current = fetcher.data;
  const storedNow = fetcher.state === "loading" && fetcher.data === dataAtSend.current;
  const sent = useRef(false);
  useEffect(() => {
    if (storedNow) sent.current = true;
  }, [storedNow]);
  const [localRestored, setLocalRestored] = useState(false);

  const answer = (fetcher.state === "idle" && fetcher.data && !fetcher.data.success ? fetcher.data : null) ?? (documentAnswer && !documentAnswer.success ? documentAnswer : null);
  // conform shows the server's answer (the fetcher's, or the document's without JS); the server validates.
  const [form, fields] = useForm<{ content: string }>({
    id: "comment-form",
    lastResult: answer?.result as SubmissionResult<string[]> | undefined,
  });
  const hadServerDraft = draft !== null;
  const typedBefore = fields.content.initialValue !== undefined;
  // Nothing typed is lost when the sheet closes (×, backdrop, Back) or the page is left with it open
  // (a reload, a closed tab, or a link followed before the sheet has unmounted: the URL changes
  // first): the text stays in this browser and, for another visit or another device's
  // JavaScript-less view, in the server's stash (intent=dismiss, the same the × and backdrop send
  // without JavaScript). A sent comment is done with.
  useEffect(() => {
    const textarea = textRef.current;
    if (!textarea) return;
    const key = draftKey;
    const startedWith = textarea.value;
    if (!hadServerDraft && !typedBefore) {
      try {
        const saved = localStorage.getItem(key);
        if (saved && !ONLY_MENTION.test(saved)) {
          textarea.value = saved;
          setLocalRestored(true);
        }
      } catch {
        // storage blocked: the server's stash still has it
      }
    }
    const form = textarea.form;
    const keep = () => {
      const text = textarea.value;
      const empty = !text.trim() || ONLY_MENTION.test(text);
      // Sent (or being sent): the server drops its copy once the comment is stored.
      const sending = sent.current || fetcherState.current !== "idle";
      try {
        if (sending || empty) localStorage.removeItem(key);
        else localStorage.setItem(key, text);
      } catch {
        // storage blocked or full
      }
      if (sending || !form || (empty && !hadServerDraft && !startedWith.trim())) return;
      const body = new FormData(form);
      body.set("intent", "dismiss");
      // Kept by the server as the × does without JavaScript; the answer (a redirect) is not followed.
      void fetch(form.action, { method: "POST", body, keepalive: true, redirect: "manual", credentials: "same-origin" }).catch(() => undefined);
    };
    window.addEventListener("pagehide", keep);
    return () => {
      window.removeEventListener("pagehide", keep);
      keep();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [replyTo?.id]);
  if (!data) return null;
  const errors = [...(fields.content.errors ?? []), ...(form.errors ?? [])];
  if (answer && errors.length === 0) errors.push(answer.message ?? msg.postDetail.actionFailed);
  const anonymousByDefault = data.post.author.isMine && data.post.author.anonymous;
  const title = replyTo ? `${msg.commentSheet.replyTo} @${replyTo.author.name}` : msg.postDetail.commentsTitle;

  return (
    <Sheet
      title={title}
      closeTo={base}
      dismiss={data.canComment ? { form: form.id, onDismiss: () => navigate(base, { replace: true, preventScrollReset: true }) } : undefined}
    >
      {data.canComment ? (
        <fetcher.Form
          method="post"
          action={actionPath}
          {...getFormProps(form)}
          onSubmit={(event) => {
            form.onSubmit(event);
            if (event.defaultPrevented) return;
            // The text leaves this browser's keeping as it is sent: the page may be left before the
            // sheet closes (the post behind still reloading), and what was sent must not come back
            // as a draft. A refused send keeps the sheet open with the text, kept again on closing.
            try {
              localStorage.removeItem(draftKey);
            } catch {
              // storage blocked
            }
          }}
          noValidate={false}
          className="space-y-3"
        >
          <input type="hidden" name="intent" value="comment" />
          {replyTo ? <input type="hidden" name="parentId" value={replyTo.id} /> : null}
          {replyTo ? <p className="line-clamp-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-500">{replyTo.content}</p> : null}
          <label htmlFor={fields.content.id} className="sr-only">
            {title}
          </label>
          <textarea
            {...getTextareaProps(fields.content, { value: false })}
            ref={textRef}
            rows={4}
            required
            maxLength={COMMENT_MAX_LENGTH}
            defaultValue={fields.content.initialValue ?? draft?.content ?? (replyTo ? `@${replyTo.author.name} ` : "")}
            autoFocus
            onFocus={(event) => event.target.setSelectionRange(event.target.value.length, event.target.value.length)}
            placeholder={msg.postDetail.commentPlaceholder}
            className="field-input resize-none text-[15px]"
            aria-invalid={errors.length > 0 || undefined}
            aria-describedby={errors.length > 0 ? fields.content.errorId : undefined}
          />
          {(draft || localRestored) && !answer ? (
            <p role="status" className="text-xs text-slate-500">
              {draft?.notice ?? msg.commentSheet.draftRestored}
            </p>
          ) : null}
          <FieldError field={{ errorId: fields.content.errorId, errors }} alert all className="mt-0" />
          <div className="flex items-center gap-3">
            <label className="flex flex-1 items-center gap-2 text-sm text-slate-600">
              <input type="checkbox" name="isAnonymous" defaultChecked={draft ? draft.isAnonymous : anonymousByDefault} className="h-4 w-4 accent-[rgb(var(--brand))]" />
              {anonymousByDefault ? msg.commentSheet.commentAnonymousAsAuthor : msg.commentSheet.commentAnonymous}
            </label>
            <button type="submit" className="btn-primary px-6" disabled={fetcher.state !== "idle"}>
              {fetcher.state !== "idle" ? msg.postDetail.sending : msg.commentSheet.sendComment}
            </button>
          </div>
        </fetcher.Form>
      ) : (
        <p className="text-sm text-slate-600">
          {msg.postDetail.commentNeedsProfile}{" "}
          <Link to={base} className="text-brand">
            {msg.commentSheet.cancelReply}
          </Link>
        </p>
      )}
    </Sheet>
  );
}
