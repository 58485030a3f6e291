// The pieces of the order pages: status badge, progress card, info rows, pickup-code list and
// the pay form (a plain form post without JavaScript; with it, the pay flow runs in the page).
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { orderPage as orderPageMessages } from "~/lib/messages/order-page";
import type { PickupCodeItem } from "~/lib/orders";
import { fillTemplate } from "~/lib/template";
import { Icon } from "../icons";
import type { PayStage } from "./pay-flow";

const msg = { orders: orderPageMessages };

const GROUP_TONE: Record<string, string> = {
  pending_payment: "bg-amber-50 text-amber-700 ring-amber-200",
  in_progress: "bg-brand-soft text-brand ring-brand/20",
  completed: "bg-green-50 text-green-700 ring-green-200",
  cancelled: "bg-slate-100 text-slate-500 ring-slate-200",
  refunded: "bg-violet-50 text-violet-700 ring-violet-200",
};

export function GroupBadge({ group, label }: { group: string; label: string }) {
  return <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ${GROUP_TONE[group] ?? GROUP_TONE.cancelled}`}>{label}</span>;
}

export function RefundBadge({ label }: { label: string | null }) {
  if (!label) return null;
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-orange-50 px-2.5 py-0.5 text-xs font-medium text-orange-700 ring-1 ring-orange-200" data-testid="refund-state">
      <Icon name="refresh" className="h-3.5 w-3.5" />
      {label}
    </span>
  );
}

export function ProgressCard({
  label,
  percent,
  group,
  groupLabel,
  refundLabel,
  children,
}: {
  label: string;
  percent: number | null;
  group: string;
  groupLabel: string;
  refundLabel: string | null;
  children?: ReactNode;
}) {
  return (
    <section className="card space-y-3" aria-labelledby="status-title">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs text-slate-500">{msg.orders.detail.progress}</p>
          <h2 id="status-title" className="mt-0.5 text-xl font-bold text-slate-900" data-testid="order-status">
            {label}
          </h2>
        </div>
        <GroupBadge group={group} label={groupLabel} />
      </div>
      {percent !== null ? (
        <div>
          <div
            className="h-2 overflow-hidden rounded-full bg-slate-100"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-label={msg.orders.detail.progress}
          >
            <div className="h-full rounded-full bg-brand transition-all" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-right text-xs tabular-nums text-slate-500">{percent}%</p>
        </div>
      ) : null}
      <RefundBadge label={refundLabel} />
      {children}
    </section>
  );
}

/** A notice under the status (an action's result, the pay flow's answer): server-rendered from the URL or set by the page. */
export function Notice({ text, tone = "info" }: { text: string | null | undefined; tone?: "info" | "error" }) {
  if (!text) return null;
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      className={`flex items-center gap-2 rounded-xl px-3 py-2 text-sm ${tone === "error" ? "bg-red-50 text-red-700" : "bg-green-50 text-green-700"}`}
    >
      <Icon name={tone === "error" ? "alert" : "check"} className="h-4 w-4 shrink-0" />
      {text}
    </p>
  );
}

export function InfoRows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="flex gap-3 py-2">
          <dt className="w-20 shrink-0 text-slate-500">{label}</dt>
          <dd className="min-w-0 flex-1 break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** `deadlineWhen`: the deadline's day and time as the server formats it ("11-28 19:00"). */
export function PickupCodeList({ items }: { items: (PickupCodeItem & { deadlineWhen?: string | null })[] }) {
  if (items.length === 0) return <p className="text-sm text-slate-500">{msg.orders.detail.noCodes}</p>;
  return (
    <ul className="space-y-2" data-testid="pickup-codes">
      {items.map((item, index) => (
        <li key={index} className="rounded-xl bg-slate-50 px-3 py-2.5 ring-1 ring-slate-100">
          <p className="flex items-center justify-between gap-2">
            <span className="text-sm font-medium text-slate-700">{item.company || "—"}</span>
            {item.code ? (
              <span className="font-mono text-base font-bold tracking-wide text-brand" aria-label={msg.orders.detail.pickupCode}>
                {item.code}
              </span>
            ) : null}
          </p>
          {item.station ? (
            <p className="mt-1 flex items-center gap-1 text-xs text-slate-500">
              <Icon name="map" className="h-3.5 w-3.5 shrink-0" />
              {item.station}
            </p>
          ) : null}
          {item.trackingNumber ? (
            <p className="mt-0.5 text-xs text-slate-500">
              {msg.orders.detail.tracking} <span className="font-mono">{item.trackingNumber}</span>
            </p>
          ) : null}
          {item.deadline ? (
            <p className="mt-0.5 text-xs text-amber-700" data-testid="order-pickup-deadline">
              {fillTemplate(msg.orders.detail.deadline, { deadline: item.deadline })}
              {item.deadlineAt && item.deadlineWhen ? (
                <time dateTime={item.deadlineAt} className="ml-1 tabular-nums">
                  ({item.deadlineWhen})
                </time>
              ) : null}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function stageText(stage: PayStage | null, idle: string, pending: boolean) {
  if (stage === "checking") return msg.orders.pay.checking;
  if (stage || pending) return msg.orders.pay.paying;
  return idle;
}

/** The pay form: posts without JavaScript; with it, `onPay` runs the flow in the page. */
export function PayForm({
  label,
  stage,
  pending,
  onPay,
  className = "btn-primary h-11 w-full text-[15px]",
}: {
  label: string;
  stage: PayStage | null;
  pending: boolean;
  onPay: () => void;
  className?: string;
}) {
  return (
    <Form
      method="post"
      preventScrollReset
      onSubmit={(event) => {
        event.preventDefault();
        onPay();
      }}
    >
      <input type="hidden" name="intent" value="pay" />
      <button type="submit" className={className} disabled={stage !== null || pending}>
        {stageText(stage, label, pending)}
      </button>
    </Form>
  );
}
