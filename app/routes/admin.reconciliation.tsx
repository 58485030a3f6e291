// /admin/reconciliation — one Shanghai day's books (对账): what was received and refunded by
// the pay provider's success times, where the money of the day's orders is now (refunded, earned
// by delivery, still held), each total itemised down to the order, and matched against the
// provider's trade bill of that day, the differences listed. A GET form picks the day (works
// without JavaScript); the CSV of the same day is /admin/reconciliation.csv. Operators only.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { adminReconciliation } from "~/lib/messages/adminReconciliation";
import { formatYuan } from "~/lib/money";
import { ReconciliationQuerySchema } from "~/lib/schemas/adminReconciliation";
import { fillTemplate } from "~/lib/template";
import { formatShanghai, shanghaiToday } from "~/lib/time";
import { readinessBanner } from "~/server/http/readiness-banner";
import { reconcileDay, RECONCILIATION_MAX_ROWS } from "~/server/orders/reconciliation.server";
import { requireAdmin } from "~/server/http/guards.server";

const m = adminReconciliation;

export const meta: MetaFunction = () => [{ title: `${m.title} · ${appMessages.name}` }, { name: "robots", content: "noindex" }];

const yuan = (fen: number) => formatYuan(fen, { style: "amount", symbol: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const query = ReconciliationQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const day = query.day ?? shanghaiToday();
  const [books, readiness] = await Promise.all([reconcileDay(day), readinessBanner()]);
  const { ledger, bill } = books;
  const status = !bill.ok
    ? { tone: "warn" as const, text: bill.reason === "no_provider" ? m.noProvider : m.providerFailed }
    : books.truncated
      ? { tone: "warn" as const, text: fillTemplate(m.truncated, { max: RECONCILIATION_MAX_ROWS }) }
      : books.differences.length > 0
        ? { tone: "bad" as const, text: fillTemplate(m.differing, { count: books.differences.length }) }
        : { tone: "good" as const, text: fillTemplate(m.matched, { payments: ledger.payments.count, refunds: ledger.refunds.count }) };
  return {
    displayName: operator.display_name,
    readiness,
    day,
    today: shanghaiToday(),
    status,
    totals: [
      { label: m.payments, value: fillTemplate(m.countAmount, { count: ledger.payments.count, amount: yuan(ledger.payments.fen) }) },
      { label: m.refunds, value: fillTemplate(m.countAmount, { count: ledger.refunds.count, amount: yuan(ledger.refunds.fen) }) },
      { label: m.earned, value: yuan(ledger.earnedFen) },
      { label: m.held, value: yuan(ledger.heldFen) },
      ...(ledger.refundingFen > 0 ? [{ label: m.refunding, value: yuan(ledger.refundingFen) }] : []),
    ],
    ledgerCheck: fillTemplate(m.ledgerCheck, { received: yuan(ledger.receivedFen), refunded: yuan(ledger.refundedFen), earned: yuan(ledger.earnedFen), held: yuan(ledger.heldFen) }),
    billLine: bill.ok ? fillTemplate(m.billTotals, { payments: yuan(bill.paidFen), refunds: yuan(bill.refundFen) }) : null,
    differences: books.differences.map((difference) => ({
      key: `${difference.kind}:${difference.key}`,
      kind: m.kinds[difference.kind],
      number: difference.key,
      problem: m.problems[difference.problem],
      ours: difference.oursFen === null ? "—" : yuan(difference.oursFen),
      bill: difference.billFen === null ? "—" : yuan(difference.billFen),
    })),
    payments: books.payments.map((entry) => ({ key: entry.outTradeNo, number: entry.outTradeNo, time: formatShanghai(entry.at), amount: yuan(entry.fen) })),
    refunds: books.refunds.map((entry) => ({
      key: entry.outRefundNo ?? entry.outTradeNo,
      number: entry.outTradeNo,
      refundNumber: entry.outRefundNo,
      time: formatShanghai(entry.at),
      amount: yuan(entry.fen),
      detail: [m.refundKinds[entry.refundKind], entry.reason].filter(Boolean).join("：").slice(0, 60),
    })),
    orders: books.orders.map((order) => ({
      key: order.orderNumber,
      number: order.orderNumber,
      campus: order.campusName,
      received: yuan(order.receivedFen),
      parts: [
        order.refundedFen ? `${m.refunds} ${yuan(order.refundedFen)}` : null,
        order.earnedFen ? `${m.earned} ${yuan(order.earnedFen)}` : null,
        order.heldFen ? `${m.held} ${yuan(order.heldFen)}` : null,
      ]
        .filter(Boolean)
        .join(" · "),
    })),
  };
}

/** A row's number, a note beside it (the time, the campus) and its amount at the right. */
function Figures({ number, note, amount }: { number: string | null; note: string | null; amount: string }) {
  return (
    <>
      <span className="min-w-0 flex-1 truncate font-mono text-xs">{number}</span>
      <span className="text-xs text-slate-500">{note}</span>
      <span className="w-20 text-right tabular-nums">{amount}</span>
    </>
  );
}

function Section({ title, count, children }: { title: string; count: number; children: React.ReactNode }) {
  return (
    <details className="card p-0" open={count > 0 && count <= 20}>
      <summary className="flex cursor-pointer items-center justify-between px-4 py-3 text-sm font-semibold">
        <span>{title}</span>
        <span className="text-xs font-normal text-slate-500">{count}</span>
      </summary>
      {count === 0 ? <p className="px-4 pb-3 text-sm text-slate-500">{m.none}</p> : <ul className="divide-y divide-slate-100 border-t border-slate-100">{children}</ul>}
    </details>
  );
}

export default function AdminReconciliation() {
  const data = useLoaderData<typeof loader>();
  const tone = { good: "bg-green-50 text-green-800", bad: "bg-red-50 text-red-800", warn: "bg-amber-50 text-amber-900" }[data.status.tone];
  return (
    <Page title={m.title} back="/admin/orders">
      <OperatorBar displayName={data.displayName} current="orders" />
      <AdminNav current="reconciliation" readiness={data.readiness} />
      <Form method="get" className="card flex items-end gap-2">
        <label className="min-w-0 flex-1">
          <span className="field-label">{m.day}</span>
          <input type="date" name="day" defaultValue={data.day} max={data.today} required className="field-input h-10 text-sm" />
        </label>
        <button type="submit" className="btn-primary h-10 shrink-0 px-4">
          {m.show}
        </button>
      </Form>
      <p role="status" className={`rounded-xl px-3 py-2 text-sm font-medium ${tone}`} data-testid="reconciliation-status">
        {data.status.text}
      </p>
      <section className="card space-y-2" aria-label={m.totals}>
        <h2 className="text-sm font-semibold">{m.totals}</h2>
        <dl className="grid grid-cols-2 gap-2 text-sm">
          {data.totals.map((total) => (
            <div key={total.label} className="rounded-xl bg-slate-50 px-3 py-2">
              <dt className="text-xs text-slate-500">{total.label}</dt>
              <dd className="font-semibold tabular-nums">{total.value}</dd>
            </div>
          ))}
        </dl>
        <p className="text-xs text-slate-500">{data.ledgerCheck}</p>
        {data.billLine ? <p className="text-xs text-slate-500">{data.billLine}</p> : null}
        <a href={`/admin/reconciliation.csv?day=${data.day}`} className="btn-ghost h-10 w-full text-sm" download>
          {m.exportCsv}
        </a>
      </section>
      {data.differences.length > 0 ? (
        <Section title={m.differencesList} count={data.differences.length}>
          {data.differences.map((difference) => (
            <li key={difference.key} className="space-y-0.5 px-4 py-2.5 text-sm" data-testid="difference">
              <p className="flex gap-2">
                <span className="font-medium text-red-700">{difference.kind}</span>
                <span className="font-mono text-xs leading-5">{difference.number}</span>
              </p>
              <p className="text-xs text-slate-600">
                {difference.problem}　{m.ours} {difference.ours} · {m.bill} {difference.bill}
              </p>
            </li>
          ))}
        </Section>
      ) : null}
      <Section title={m.paymentsList} count={data.payments.length}>
        {data.payments.map((row) => (
          <li key={row.key} className="flex items-center gap-2 px-4 py-2.5 text-sm">
            <Figures number={row.number} note={row.time.slice(11)} amount={row.amount} />
          </li>
        ))}
      </Section>
      <Section title={m.refundsList} count={data.refunds.length}>
        {data.refunds.map((row) => (
          <li key={row.key} className="space-y-0.5 px-4 py-2.5 text-sm">
            <p className="flex items-center gap-2">
              <Figures number={row.refundNumber} note={row.time.slice(11)} amount={row.amount} />
            </p>
            {row.detail ? <p className="truncate text-xs text-slate-500">{row.detail}</p> : null}
          </li>
        ))}
      </Section>
      <Section title={m.ordersList} count={data.orders.length}>
        {data.orders.map((row) => (
          <li key={row.key} className="space-y-0.5 px-4 py-2.5 text-sm">
            <p className="flex items-center gap-2">
              <Figures number={row.number} note={row.campus} amount={row.received} />
            </p>
            {row.parts ? <p className="text-xs text-slate-500">{row.parts}</p> : null}
          </li>
        ))}
      </Section>
    </Page>
  );
}
