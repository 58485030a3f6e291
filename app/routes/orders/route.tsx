// /orders — my orders (student login; the product rules do not show the page, so it shows what users
// expect): newest first, each with its status, amount, parcel count and time, 10 at a time. 'More'
// is a plain link (?page=2 shows the first 20), so it works without JavaScript and keeps the
// list. Orders placed with the messenger identity before the student login are here too: the
// login merged the two rows.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Icon } from "~/components/icons";
import { GroupBadge, RefundBadge } from "~/components/orders/OrderParts";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { orderPage as orderPageMessages } from "~/lib/messages/order-page";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { formatYuan } from "~/lib/money";
import { fillTemplate } from "~/lib/template";
import { requireStudent } from "~/server/http/guards.server";
import { listOrders, ORDERS_PAGE_SIZE } from "~/server/orders/orders.server";

const msg = { app: appMessages, orders: orderPageMessages, titles: titlesMessages };
const o = msg.orders;

export const meta: MetaFunction = () => [{ title: `${msg.titles.orders} · ${msg.app.name}` }];

/** 'More' stops here: 20 pages (200 orders); older ones are rare. */
const MAX_PAGES = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const page = Math.min(MAX_PAGES, Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1));
  const { items, next } = await listOrders(user.id, { limit: page * ORDERS_PAGE_SIZE });
  return { items, page, more: next !== null };
}

export default function Orders() {
  const { items, page, more } = useLoaderData<typeof loader>();
  return (
    <Page title={msg.titles.orders} back="/backpack">
      {items.length === 0 ? (
        <section className="card flex flex-col items-center gap-2 py-10 text-center">
          <Icon name="order" className="h-10 w-10 text-slate-300" />
          <p className="text-base font-semibold">{o.list.empty}</p>
          <p className="text-sm text-slate-500">{o.list.emptyHint}</p>
          <Link to="/market" className="btn-primary mt-2">
            {o.list.goOrder}
          </Link>
        </section>
      ) : (
        <ul className="space-y-3" aria-label={msg.titles.orders}>
          {items.map((item) => (
            <li key={item.orderNumber}>
              <Link
                to={`/express/orders/${item.orderNumber}`}
                className="card block space-y-2 active:bg-slate-50"
                data-testid="order-card"
                aria-label={`${item.orderNumber} ${item.groupLabel}`}
              >
                <div className="flex items-center justify-between gap-2">
                  <span className="flex min-w-0 items-center gap-1.5 text-sm font-medium text-slate-700">
                    <Icon name="bag" className="h-4 w-4 shrink-0 text-brand" />
                    <span className="truncate">
                      {o.detail.serviceName} · {item.campusName}
                    </span>
                  </span>
                  <GroupBadge group={item.group} label={item.groupLabel} />
                </div>
                <div className="flex items-end justify-between gap-2">
                  <div className="min-w-0 space-y-0.5">
                    <p className="text-base font-semibold text-slate-900">{item.label}</p>
                    <p className="text-xs text-slate-500">
                      {fillTemplate(o.list.parcels, { count: item.parcelCount })} · {o.list.createdAt} {item.createdText}
                    </p>
                    <p className="font-mono text-xs text-slate-500">{item.orderNumber}</p>
                  </div>
                  <span className="shrink-0 text-lg font-bold text-slate-900">{formatYuan(item.amountFen, { style: "amount", symbol: true })}</span>
                </div>
                <RefundBadge label={item.refundLabel} />
              </Link>
            </li>
          ))}
        </ul>
      )}
      {more ? (
        <Link to={`/orders?page=${page + 1}`} preventScrollReset replace className="btn-ghost w-full">
          {o.list.more}
        </Link>
      ) : items.length > 0 ? (
        <p className="py-2 text-center text-xs text-slate-500">{o.list.end}</p>
      ) : null}
    </Page>
  );
}
