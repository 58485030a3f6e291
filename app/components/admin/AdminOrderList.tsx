// The parts of /admin/orders below the search form and the daily summary above it: the status
// tabs with their counts, the order cards, 'load more' and the export link. Ordinary components
// rendered by Remix from the loader's typed data; their links go through the router (the scroll
// stays; 'load more' replaces the history entry) and are plain links without JavaScript.
import { Link } from "@remix-run/react";
import { Icon } from "~/components/icons";
import { adminListQuery, type AdminListState } from "~/lib/admin-orders";
import { adminNav as adminMessages } from "~/lib/messages/adminNav";
import { adminOrderData } from "~/lib/messages/adminOrderData";
import type { OrderGroup } from "~/lib/order-status";
import { fillTemplate } from "~/lib/template";
import type { AdminOrderCard, AdminOrderPage, DailySummary } from "~/server/admin/orders.server";

const d = adminOrderData;

const GROUP_TONE: Record<OrderGroup, string> = {
  pending_payment: "bg-amber-50 text-amber-700",
  in_progress: "bg-blue-50 text-blue-700",
  completed: "bg-green-50 text-green-700",
  cancelled: "bg-slate-100 text-slate-600",
  refunded: "bg-purple-50 text-purple-700",
};

export function groupTone(group: OrderGroup) {
  return GROUP_TONE[group];
}

export function Summary({ summary }: { summary: DailySummary }) {
  const s = d.summary;
  const figures: [string, string, string?][] = [
    [s.orders, String(summary.orders)],
    [s.revenue, summary.revenueText],
    [s.pending, String(summary.pending), "/admin/orders?status=in_progress"],
    [s.refunds, String(summary.refundRequests), "/admin/refunds"],
  ];
  return (
    <section className="card space-y-3" aria-labelledby="summary-title">
      <h2 id="summary-title" className="flex items-center gap-1.5 text-base font-semibold">
        <Icon name="calendar" className="h-5 w-5 text-brand" />
        {s.title}
        <span className="text-xs font-normal text-slate-500">{summary.day}</span>
      </h2>
      <dl className="grid grid-cols-4 gap-2 text-center">
        {figures.map(([label, value, to]) => (
          <div key={label} className="rounded-xl bg-slate-50 px-1 py-2">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="mt-0.5 text-base font-semibold tabular-nums" data-testid={`summary-${label}`}>
              {to ? (
                <Link to={to} className="text-brand">
                  {value}
                </Link>
              ) : (
                value
              )}
            </dd>
          </div>
        ))}
      </dl>
      {summary.byCampus.length === 0 ? (
        <p className="text-xs text-slate-500">{s.none}</p>
      ) : (
        <div className="space-y-1 text-xs text-slate-600">
          <ul className="space-y-0.5" aria-label={s.byCampus}>
            {summary.byCampus.map((campus) => (
              <li key={campus.code} className="flex justify-between">
                <span>{campus.name}</span>
                <span className="tabular-nums">{fillTemplate(s.campusLine, { orders: campus.orders, revenue: campus.revenueText })}</span>
              </li>
            ))}
          </ul>
          <p data-testid="summary-breakdown">{summary.breakdownText}</p>
          {summary.parcels.length > 0 ? (
            <p>
              {s.parcels}：{summary.parcels.map((parcel) => `${parcel.name} ×${parcel.count}`).join("　")}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

function OrderCard({ order, actionsTo }: { order: AdminOrderCard; actionsTo: string }) {
  const c = d.card;
  const address = order.address;
  return (
    <article className="card space-y-2 text-sm" aria-label={`${c.number} ${order.orderNumber}`} data-testid={`admin-order-${order.orderNumber}`}>
      <header className="flex items-start gap-2">
        <p className="flex-1 break-all font-mono text-sm font-semibold">{order.orderNumber}</p>
        <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${GROUP_TONE[order.group]}`} data-testid="order-status">
          {order.label}
        </span>
      </header>
      {order.refundLabel ? <p className="text-xs font-medium text-purple-700">{order.refundLabel}</p> : null}
      <dl className="grid grid-cols-[4.5em_1fr] gap-x-2 gap-y-1">
        <dt className="text-slate-500">{c.address}</dt>
        <dd>{address}</dd>
        <dt className="text-slate-500">{c.recipient}</dt>
        <dd>
          {order.recipientName ?? "—"}
          {order.recipientPhone ? (
            <a href={`tel:${order.recipientPhone}`} className="ml-2 text-brand tabular-nums">
              {order.recipientPhone}
            </a>
          ) : null}
        </dd>
        <dt className="text-slate-500">{c.pickup}</dt>
        <dd>
          {order.pickup.length === 0 ? (
            <span className="text-slate-500">{c.noPickup}</span>
          ) : (
            <ul className="space-y-0.5">
              {order.pickup.map((item, index) => (
                <li key={index} className="break-all">
                  {item.company ? <span>{item.company} · </span> : null}
                  {item.code ? <b className="font-mono">{item.code}</b> : null}
                  {item.trackingNumber ? <span className="text-slate-500"> {item.trackingNumber}</span> : null}
                  {item.station ? <span className="text-slate-500"> @{item.station}</span> : null}
                  {item.deadline ? (
                    <span className="ml-1 text-amber-700" data-testid="admin-pickup-deadline">
                      {fillTemplate(c.deadline, { deadline: item.deadline })}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt className="text-slate-500">{c.parcels}</dt>
        <dd>{order.parcels.map((parcel) => `${parcel.name}×${parcel.count}`).join("　") || order.parcelCount}</dd>
        {order.deliveryPhotoUrl ? (
          <>
            <dt className="text-slate-500">{c.deliveryPhoto}</dt>
            <dd>
              <a href={order.deliveryPhotoUrl} target="_blank" rel="noreferrer" data-testid="admin-delivery-photo">
                <img src={order.deliveryPhotoUrl} alt={c.deliveryPhoto} loading="lazy" className="h-24 w-24 rounded-lg bg-slate-100 object-cover" />
              </a>
            </dd>
          </>
        ) : null}
        {order.remark ? (
          <>
            <dt className="text-slate-500">{c.remark}</dt>
            <dd className="break-words">{order.remark}</dd>
          </>
        ) : null}
      </dl>
      <footer className="flex items-center gap-2 border-t border-slate-100 pt-2">
        <span className="text-base font-semibold text-red-600 tabular-nums">{order.amountText}</span>
        <time className="flex-1 text-xs text-slate-500" dateTime={order.createdAt}>
          {order.createdText}
        </time>
        <Link to={actionsTo} preventScrollReset className="btn-ghost px-3 py-1.5 text-xs" aria-label={`${c.moreActions} ${order.orderNumber}`}>
          {c.moreActions}
        </Link>
      </footer>
    </article>
  );
}

/** The tabs with their counts, then the cards (or the empty state), 'load more' and the export link. */
export function OrderList({ state, page, tabs: groupTabs }: { state: AdminListState; page: AdminOrderPage; tabs: { group: OrderGroup; label: string }[] }) {
  const list = (patch: Partial<AdminListState>) => `/admin/orders${adminListQuery({ ...state, ...patch })}`;
  const tabs = [{ group: null, label: d.all }, ...groupTabs];
  return (
    <div className="space-y-3">
      <nav aria-label={d.tabsLabel} className="-mx-3 overflow-x-auto px-3">
        <ul className="flex gap-1.5 whitespace-nowrap">
          {tabs.map((tab) => {
            const active = tab.group === state.group;
            return (
              <li key={tab.group ?? "all"}>
                <Link
                  to={list({ group: tab.group, page: 1 })}
                  preventScrollReset
                  aria-current={active ? "page" : undefined}
                  className={`inline-flex items-center gap-1 rounded-full px-3 py-1.5 text-sm ${active ? "bg-slate-800 font-semibold text-white" : "bg-white text-slate-600 shadow-sm"}`}
                >
                  {tab.label}
                  <span className={`text-xs tabular-nums ${active ? "text-white/80" : "text-slate-500"}`} data-testid={`count-${tab.group ?? "all"}`}>
                    {page.counts[tab.group ?? "all"]}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {page.items.length === 0 ? (
        <section className="card flex flex-col items-center gap-2 py-12 text-center">
          <Icon name="inbox" className="h-10 w-10 text-slate-300" />
          <p className="text-base font-semibold">{page.searched ? d.noResults : adminMessages.noOrders}</p>
          {page.searched ? null : <p className="text-sm text-slate-500">{adminMessages.noOrdersHint}</p>}
        </section>
      ) : (
        <>
          <div className="flex justify-end">
            <a href={`/admin/export.csv${adminListQuery({ ...state, page: 1 })}`} download className="inline-flex items-center gap-1 text-xs text-brand">
              <Icon name="material" className="h-4 w-4" />
              {d.exportCsv}
            </a>
          </div>
          <ul className="space-y-3">
            {page.items.map((order) => (
              <li key={order.orderNumber}>
                <OrderCard order={order} actionsTo={`/admin/orders${adminListQuery(state, { order: order.orderNumber, panel: "actions" })}`} />
              </li>
            ))}
          </ul>
          {page.more ? (
            <Link to={list({ page: state.page + 1 })} preventScrollReset replace className="btn-ghost w-full">
              {d.more}
            </Link>
          ) : (
            <p className="py-2 text-center text-xs text-slate-500">{d.end}</p>
          )}
        </>
      )}
    </div>
  );
}
