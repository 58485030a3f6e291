// /admin/audit — the operators' audit log: every admin action, newest first, 20 at a
// time ('earlier' is a link: ?before=<id>), or one order's actions (?order=E…). Operators only.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { adminRefunds as adminRefundsMessages } from "~/lib/messages/adminRefunds";
import { app as appMessages } from "~/lib/messages/app";
import { AdminAuditQuerySchema } from "~/lib/schemas/adminOrders";
import { fillTemplate } from "~/lib/template";
import { formatShanghai } from "~/lib/time";
import { listAudit } from "~/server/admin/audit.server";
import { readinessBanner } from "~/server/http/readiness-banner";
import { requireAdmin } from "~/server/http/guards.server";

const msg = { adminRefunds: adminRefundsMessages, app: appMessages };
const a = msg.adminRefunds.audit;

export const meta: MetaFunction = () => [{ title: `${a.title} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const query = AdminAuditQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [{ items, next }, readiness] = await Promise.all([listAudit({ orderNumber: query.order ?? null, before: query.before ?? null }), readinessBanner()]);
  return {
    displayName: operator.display_name,
    readiness,
    order: query.order ?? null,
    next,
    items: items.map((item) => ({ ...item, actionText: a.actions[item.action] ?? item.action, timeText: formatShanghai(item.createdAt) })),
  };
}

export default function AdminAudit() {
  const { displayName, order, next, items, readiness } = useLoaderData<typeof loader>();
  const base = order ? `/admin/audit?order=${order}` : "/admin/audit";
  return (
    <Page title={a.title} back="/admin/orders">
      <OperatorBar displayName={displayName} current="orders" />
      <AdminNav current="audit" readiness={readiness} />
      {order ? (
        <p className="flex items-center gap-2 px-1 text-sm">
          <span className="flex-1">{fillTemplate(a.filtered, { order })}</span>
          <Link to="/admin/audit" className="text-brand">
            {a.showAll}
          </Link>
        </p>
      ) : null}
      {items.length === 0 ? (
        <section className="card flex flex-col items-center gap-2 py-12 text-center">
          <Icon name="clock" className="h-10 w-10 text-slate-300" />
          <p className="text-sm text-slate-500">{a.empty}</p>
        </section>
      ) : (
        <ol className="card divide-y divide-slate-100 p-0" aria-label={a.title}>
          {items.map((item) => (
            <li key={item.id} className="space-y-0.5 px-4 py-3 text-sm" data-testid="audit-row">
              <p className="flex items-center gap-2">
                <span className="font-semibold">{item.actionText}</span>
                {item.orderNumber ? (
                  <Link to={`/admin/audit?order=${item.orderNumber}`} className="font-mono text-xs text-brand">
                    {item.orderNumber}
                  </Link>
                ) : null}
                <span className="flex-1" />
                <time className="text-xs text-slate-500" dateTime={item.createdAt}>
                  {item.timeText}
                </time>
              </p>
              <p className="text-xs text-slate-500">
                {a.operator}：{item.operatorName}
                {item.detail ? `　${item.detail}` : null}
              </p>
            </li>
          ))}
        </ol>
      )}
      {next ? (
        <Link to={`${base}${order ? "&" : "?"}before=${next}`} className="btn-ghost w-full">
          {a.more}
        </Link>
      ) : null}
    </Page>
  );
}
