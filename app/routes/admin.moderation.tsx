import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import { ReadinessBanner } from "~/components/admin/AdminNav";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { reportReasonLabel } from "~/lib/forum";
import { adminNav as adminMessages } from "~/lib/messages/adminNav";
import { app as appMessages } from "~/lib/messages/app";
import { moderation as moderationMessages } from "~/lib/messages/moderation";
import { formatShanghai } from "~/lib/time";
import { ModerationActionSchema } from "~/lib/schemas/forum";
import { readinessBanner } from "~/server/http/readiness-banner";
import { moderate, moderationQueue, type ModerationItem } from "~/server/forum/moderation.server";
import { ForumError } from "~/server/forum/posts.server";
import { FormError } from "~/components/FieldError";
import { requireAdmin } from "~/server/http/guards.server";

const msg = { admin: adminMessages, app: appMessages, moderation: moderationMessages };

export const meta: MetaFunction = () => [
  { title: `${msg.moderation.title} · ${msg.app.name}` },
  { name: "robots", content: "noindex" },
];

/**
 * Operators' moderation: posts and comments with open reports or hidden by moderation, with their
 * real author even when anonymous (operators may see it, decision 7), and hide, restore, delete,
 * ban. Only operators get here (requireAdmin); anyone else gets the operator login.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const [items, readiness] = await Promise.all([moderationQueue(), readinessBanner()]);
  return { displayName: operator.display_name, items, readiness };
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: ModerationActionSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  try {
    await moderate(submission.value, operator);
  } catch (error) {
    if (error instanceof ForumError) return redirect("/admin/moderation?notice=notFound");
    throw error;
  }
  return redirect("/admin/moderation?notice=done");
}

export default function Moderation() {
  const { displayName, items, readiness } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const notice = params.get("notice");
  const reply = useActionData<typeof action>();
  const location = useLocation();
  return (
    <Page title={msg.moderation.title} back="/admin/orders">
      <ReadinessBanner readiness={readiness} />
      <section className="card flex items-center gap-3 text-sm">
        <Icon name="shield" className="h-5 w-5 text-brand" />
        <span className="flex-1">
          {msg.admin.signedInAs}：<span className="font-semibold">{displayName}</span>
        </span>
        <Link to="/admin/orders" className="text-brand">
          {msg.admin.orders}
        </Link>
      </section>
      {notice ? (
        <p role="status" className={`rounded-xl px-3 py-2 text-sm ${notice === "done" ? "bg-green-50 text-green-700" : "bg-amber-50 text-amber-700"}`}>
          {notice === "done" ? msg.moderation.actionDone : msg.moderation.notFound}
        </p>
      ) : null}
      {/* Mounted afresh at each location: no stale message after the next action. */}
      <Refused key={location.key} reply={reply} />
      {items.length === 0 ? (
        <section className="card py-10 text-center text-sm text-slate-500">{msg.moderation.nothing}</section>
      ) : (
        <ul className="space-y-3">
          {items.map((item) => (
            <li key={`${item.target}-${item.id}`}>
              <Item item={item} />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

const STATE: Record<string, { label: string; tone: string }> = {
  visible: { label: msg.moderation.visibleState, tone: "bg-green-50 text-green-700" },
  pending: { label: msg.moderation.pending, tone: "bg-amber-50 text-amber-700" },
  hidden: { label: msg.moderation.hiddenState, tone: "bg-red-50 text-red-700" },
};

function Item({ item }: { item: ModerationItem }) {
  const busy = useNavigation().state !== "idle";
  const state = STATE[item.moderation]!;
  const label = `${item.target === "post" ? msg.moderation.post : msg.moderation.comment} #${item.id}`;
  return (
    <article className="card space-y-3" aria-label={label} data-testid={`moderation-${item.target}-${item.id}`}>
      <header className="flex flex-wrap items-center gap-2 text-xs">
        <span className="rounded bg-slate-800 px-1.5 py-0.5 font-medium text-white">{label}</span>
        {item.target === "comment" ? (
          <span className="text-slate-500">
            {msg.moderation.inPost} #{item.postId}
          </span>
        ) : null}
        <span className={`rounded px-1.5 py-0.5 ${state.tone}`}>{state.label}</span>
        {item.anonymous ? <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-600">{msg.moderation.anonymousPosted}</span> : null}
        <span className="flex-1" />
        <time className="text-slate-500" dateTime={item.createdAt}>
          {formatShanghai(item.createdAt)}
        </time>
      </header>
      {item.title ? <p className="text-sm font-semibold"># {item.title}</p> : null}
      <p className="whitespace-pre-wrap break-words text-sm text-slate-800">{item.content}</p>
      {item.images.length > 0 ? (
        <div className="flex flex-wrap gap-1.5">
          {item.images.map((src) => (
            <img key={src} src={src} alt="" className="h-16 w-16 rounded-lg object-cover" />
          ))}
        </div>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-xl bg-slate-50 p-3 text-xs">
        <dt className="col-span-2 mb-1 font-semibold text-slate-700">{msg.moderation.realAuthor}</dt>
        <dt className="text-slate-500">{msg.moderation.userId}</dt>
        <dd data-testid="real-author-id">
          {item.author.userId}
          {item.author.banned ? <span className="ml-2 rounded bg-red-600 px-1 text-white">{msg.moderation.banned}</span> : null}
        </dd>
        <dt className="text-slate-500">{msg.moderation.nickname}</dt>
        <dd>{item.author.nickname ?? "—"}</dd>
        <dt className="text-slate-500">{msg.moderation.wechatNickname}</dt>
        <dd>{item.author.wechatNickname ?? "—"}</dd>
        <dt className="text-slate-500">{msg.moderation.realName}</dt>
        <dd>{item.author.realName ?? "—"}</dd>
        <dt className="text-slate-500">{msg.moderation.studentId}</dt>
        <dd>{item.author.studentId ?? "—"}</dd>
      </dl>
      <p className="text-xs text-slate-600">
        {msg.moderation.reports} {item.openReports}
        {item.openReports > 0
          ? `：${Object.entries(item.reasons)
              .map(([reason, count]) => `${reportReasonLabel(reason)} ×${count}`)
              .join("，")}`
          : `（${msg.moderation.noReports}）`}
      </p>
      <div className="flex flex-wrap gap-2">
        {item.moderation === "visible" ? (
          <Action item={item} intent="hide" label={msg.moderation.hide} busy={busy} />
        ) : (
          <Action item={item} intent="restore" label={msg.moderation.restore} busy={busy} />
        )}
        {item.moderation === "visible" && item.openReports > 0 ? <Action item={item} intent="restore" label={msg.moderation.done} busy={busy} /> : null}
        <Action item={item} intent="delete" label={msg.moderation.delete} busy={busy} danger />
        {item.author.banned ? (
          <Action item={item} intent="unban" label={msg.moderation.unban} busy={busy} user />
        ) : (
          <Action item={item} intent="ban" label={msg.moderation.ban} busy={busy} user danger />
        )}
      </div>
    </article>
  );
}

function Action({
  item,
  intent,
  label,
  busy,
  danger = false,
  user = false,
}: {
  item: ModerationItem;
  intent: string;
  label: string;
  busy: boolean;
  danger?: boolean;
  user?: boolean;
}) {
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (intent === "delete" && !window.confirm(msg.moderation.deleteConfirm)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="target" value={user ? "user" : item.target} />
      <input type="hidden" name="id" value={user ? item.author.userId : item.id} />
      <button type="submit" disabled={busy} className={`${danger ? "btn border border-red-200 bg-white text-red-600" : "btn-ghost"} px-3 py-1.5 text-xs`} aria-label={`${label} ${item.target === "post" ? msg.moderation.post : msg.moderation.comment} #${item.id}`}>
        {label}
      </button>
    </Form>
  );
}

/** The actions are buttons only: conform's form reads a refused post's reply for the whole page. */
function Refused({ reply }: { reply?: SubmissionResult<string[]> }) {
  const [form] = useForm<{ intent: string; target: string; id: string }>({ id: "moderation", lastResult: reply });
  const refused = Object.values(form.allErrors)[0]?.[0];
  return <FormError id={form.errorId} message={refused} />;
}
