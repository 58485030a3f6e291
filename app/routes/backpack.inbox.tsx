// /backpack/inbox — the in-app inbox (beyond the product rules, which shows a fixed badge of 5): replies to
// my posts and comments, likes on them, my order status changes and announcements, newest first.
// Opening an item (/backpack/inbox/:id) marks it read; 'mark all read' is a form. Above the list,
// the subscribe card offers the messenger's order-status notification.
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Icon } from "~/components/icons";
import { SubscribeWidget } from "~/components/notify/SubscribeWidget";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { notify as notifyMessages } from "~/lib/messages/notify";
import { fillTemplate } from "~/lib/template";
import { InboxSchema } from "~/lib/schemas/notify";
import { listInbox, markAllRead, unreadCount } from "~/server/notify/inbox.server";
import { subscribeWidgetState } from "~/server/notify/subscribe.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, notify: notifyMessages };

export const meta: MetaFunction = () => [{ title: `${msg.notify.inbox.title} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const before = Number(new URL(request.url).searchParams.get("before"));
  const [page, unread, widget] = await Promise.all([
    listInbox(user.id, { before: Number.isInteger(before) && before > 0 ? before : null }),
    unreadCount(user.id),
    subscribeWidgetState(user, "ORDER_STATUS", request),
  ]);
  return { ...page, unread, widget, paged: Number.isInteger(before) && before > 0 };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: InboxSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  await markAllRead(user.id);
  return redirect("/backpack/inbox?read=all");
}

const ICON_STYLE = {
  chat: "bg-sky-50 text-sky-600",
  heart: "bg-rose-50 text-rose-500",
  order: "bg-amber-50 text-amber-600",
  bell: "bg-brand-soft text-brand",
} as const;

export default function Inbox() {
  const { items, nextBefore, unread, widget, paged } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <Page
      title={msg.notify.inbox.title}
      back="/backpack"
      actions={
        unread > 0 ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="read-all" />
            <button type="submit" className="rounded-full px-2 py-1 text-sm hover:bg-white/10" disabled={navigation.state !== "idle"}>
              {msg.notify.inbox.markAllRead}
            </button>
          </Form>
        ) : null
      }
    >
      {widget ? <SubscribeWidget state={widget} mode="card" /> : null}

      {unread > 0 ? <p className="px-1 text-sm text-slate-500">{fillTemplate(msg.notify.inbox.unreadCount, { count: unread })}</p> : null}

      {items.length === 0 ? (
        <section className="card flex flex-col items-center gap-2 py-10 text-center">
          <Icon name="inbox" className="h-10 w-10 text-slate-300" />
          <p className="text-base font-semibold">{msg.notify.inbox.empty}</p>
          <p className="max-w-xs text-sm text-slate-500">{msg.notify.inbox.emptyHint}</p>
        </section>
      ) : (
        <ul className="card divide-y divide-slate-100 p-0" aria-label={msg.notify.inbox.title}>
          {items.map((item) => (
            <li key={item.id}>
              <Link to={item.href} className="flex items-start gap-3 px-4 py-3.5">
                <span className={`flex h-9 w-9 shrink-0 items-center justify-center rounded-full ${ICON_STYLE[item.icon]}`}>
                  <Icon name={item.icon} className="h-4 w-4" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-center gap-2">
                    <span className={`truncate ${item.unread ? "font-semibold text-slate-900" : "text-slate-700"}`}>{item.title}</span>
                    {item.unread ? (
                      <span className="h-2 w-2 shrink-0 rounded-full bg-red-500">
                        <span className="sr-only">{msg.notify.inbox.unread}</span>
                      </span>
                    ) : null}
                  </span>
                  {item.body ? <span className="mt-0.5 block truncate text-sm text-slate-500">{item.body}</span> : null}
                </span>
                <time dateTime={item.at} className="shrink-0 text-xs text-slate-500">
                  {item.time}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}

      {nextBefore || paged ? (
        <nav className="flex justify-center gap-3">
          {paged ? (
            <Link to="/backpack/inbox" className="btn-ghost">
              {msg.notify.inbox.newest}
            </Link>
          ) : null}
          {nextBefore ? (
            <Link to={`/backpack/inbox?before=${nextBefore}`} className="btn-ghost">
              {msg.notify.inbox.older}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </Page>
  );
}
