// /express/orders/:orderId — the customer's order (student login): the status card with the
// progress bar, the order info card, the pickup-code list, the subscribe card, and the actions the
// status table allows (pay, cancel, refund request, review, contact service), each a form that
// works without JavaScript; the dialogs are child routes (…/cancel, …/refund, …/review,
// …/contact) rendered in the Outlet. The order number is the id; another user's order is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { Icon } from "~/components/icons";
import { InfoRows, Notice, PayForm, PickupCodeList, ProgressCard } from "~/components/orders/OrderParts";
import { usePay } from "~/components/orders/usePay";
import { Page } from "~/components/Page";
import { useShareCard } from "~/components/share";
import { app as appMessages } from "~/lib/messages/app";
import { orderPage as orderPageMessages } from "~/lib/messages/order-page";
import { formatYuan } from "~/lib/money";
import { PAY_RELOADS } from "~/lib/order-limits";
import { fillTemplate } from "~/lib/template";
import { SubscribeWidget } from "~/components/notify/SubscribeWidget";
import type { OrderActionData } from "./order-action.server";
import { orderPageLoader, payIntentAction } from "./order-page.server";

const msg = { app: appMessages, orders: orderPageMessages };
const o = msg.orders;

// The page's titles come with the data (the titles group stays out of this page's JavaScript).
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${(data as { titles?: { page: string } } | undefined)?.titles?.page ?? ""} · ${msg.app.name}` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return orderPageLoader(request, params.orderId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return payIntentAction(request, params.orderId);
}

type Data = Exclude<Awaited<ReturnType<typeof orderPageLoader>>, Response>;
type Loaded = { kind: "invalid" | "error"; message: string; titles: { page: string; orders: string } } | Data;

/** The page reloads this long after the pay flow ends (product rules: 2 s). */
const RELOAD_AFTER_MS = 2000;

export default function OrderDetailPage() {
  const data = useLoaderData<typeof loader>() as unknown as Loaded;
  if (data.kind !== "ok") {
    return (
      <Page title={data.titles.page} back="/orders">
        <section className="card flex flex-col items-center gap-2 py-10 text-center" role="alert">
          <Icon name="alert" className="h-10 w-10 text-red-500" />
          <p className="text-base font-semibold">{data.message}</p>
          <Link to="/orders" className="btn-ghost mt-2">
            {data.titles.orders}
          </Link>
        </section>
      </Page>
    );
  }
  return <Detail data={data} />;
}

function Detail({ data }: { data: Data }) {
  const { order, subscribe, done, paying, path } = data;
  useShareCard(data.share);
  const actionData = useActionData<typeof action>() as OrderActionData | undefined;
  const navigate = useNavigate();
  const [notice, setNotice] = useState<{ text: string; tone: "info" | "error" } | null>(null);
  const [reloading, setReloading] = useState(false);
  const { stage, start } = usePay(order.order_number, (outcome) => {
    if (outcome.kind === "cancelled") setNotice({ text: outcome.message, tone: "info" });
    else if (outcome.kind === "failed") setNotice({ text: outcome.message, tone: "error" });
    else {
      setReloading(true);
      setTimeout(() => navigate(`${path}?notice=paid`, { replace: true, preventScrollReset: true }), RELOAD_AFTER_MS);
    }
  });

  // 补差价 with JavaScript: the supplement's pay parameters go to the messenger's bridge (the flow
  // loads on the tap); without it the form posts and only the simulated provider can pay.
  const [supplementBusy, setSupplementBusy] = useState(false);
  const payDifference = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (supplementBusy) return;
    setSupplementBusy(true);
    try {
      const outcome = await (await import("~/components/orders/pay-flow")).runSupplementPayment(`${path}/supplement`);
      if (outcome.kind === "go") window.location.assign(outcome.to);
      else setNotice({ text: outcome.message, tone: outcome.kind === "failed" ? "error" : "info" });
    } catch {
      setNotice({ text: o.pay.networkError, tone: "error" });
    } finally {
      setSupplementBusy(false);
    }
  };

  const view = order.view;
  const actions = view.actions;
  const doneText = done;
  const pageError = actionData?.error ?? null;

  const infoRows: [string, React.ReactNode][] = [
    [o.detail.number, <span className="font-mono">{order.order_number}</span>],
    [o.detail.service, order.service_name],
    [o.detail.createdAt, order.creation_text],
    ...(order.paid_text ? ([[o.detail.paidAt, order.paid_text]] as [string, string][]) : []),
    [o.detail.payment, order.payment_label],
    [
      // Only money that was paid is 实付; an unpaid order is due, one closed unpaid has a total.
      { paid: o.detail.amount, due: o.detail.amountDue, total: o.detail.amountTotal }[view.amountKind],
      <span data-testid="order-amount">
        <span className="font-semibold text-red-600">{formatYuan(order.amount_fen, { style: "amount", symbol: true })}</span>
        {order.discount_fen > 0 ? <span className="ml-2 text-xs text-slate-500 line-through">{formatYuan(order.original_fen, { style: "amount", symbol: true })}</span> : null}
      </span>,
    ],
    [
      o.detail.breakdown,
      <ul className="space-y-0.5 text-right text-xs text-slate-600" data-testid="order-breakdown">
        {order.breakdown.lines.map((line) => (
          <li key={line.type}>
            {fillTemplate(o.detail.breakdownLine, { name: line.name, count: line.count })}
            {line.unitFen !== null ? ` · ${fillTemplate(o.detail.breakdownUnit, { price: formatYuan(line.unitFen, { style: "amount", symbol: true }) })}` : null}
          </li>
        ))}
        {order.breakdown.discountFen > 0 ? (
          <li>
            {o.detail.couponLine} −{formatYuan(order.breakdown.discountFen, { style: "amount", symbol: true })}
          </li>
        ) : null}
        <li>
          {o.detail.deliveryFee} {formatYuan(order.breakdown.deliveryFeeFen, { style: "amount", symbol: true })}
        </li>
        {order.breakdown.refunds.map((refund, index) => (
          <li key={index} className="text-purple-700">
            {fillTemplate(o.detail.refundLine, { amount: formatYuan(refund.amountFen, { style: "amount", symbol: true }) })}
            {refund.reason ? `（${refund.reason}）` : null}
          </li>
        ))}
      </ul>,
    ],
    [o.detail.parcels, fillTemplate(o.list.parcels, { count: order.parcel_count })],
    [o.detail.recipient, order.recipient_name ? `${order.recipient_name} ${order.recipient_phone ?? ""}` : "—"],
    [o.detail.address, order.delivery_address ?? "—"],
    ...(view.showEstimate ? ([[o.detail.estimated, order.estimated_text]] as [string, string][]) : []),
    ...(order.remark ? ([[o.detail.remark, order.remark]] as [string, string][]) : []),
    ...(order.refund_reason ? ([[o.detail.refundReason, order.refund_reason]] as [string, string][]) : []),
    ...(order.refund_rejection ? ([[o.detail.refundRejection, order.refund_rejection]] as [string, string][]) : []),
  ];

  return (
    <Page title={data.titles.page} back="/orders">
      {/* Without JavaScript the page reloads itself every 2 s while the payment is confirmed (10 times at most). */}
      {paying && paying < PAY_RELOADS ? <meta httpEquiv="refresh" content={`2;url=${path}?paying=${paying + 1}`} /> : null}
      <ProgressCard label={view.label} percent={view.percent} group={view.group} groupLabel={view.groupLabel} refundLabel={view.refundLabel}>
        {paying || reloading ? (
          <p className="flex items-center gap-2 rounded-xl bg-brand-soft px-3 py-2 text-sm text-brand" role="status">
            <Icon name="clock" className="h-4 w-4" />
            {o.detail.reloadSoon}
          </p>
        ) : null}
      </ProgressCard>

      {order.late_notice ? (
        <p role="status" className="rounded-xl bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900" data-testid="order-late">
          {order.late_notice}
        </p>
      ) : null}
      {notice ? <Notice text={notice.text} tone={notice.tone} /> : pageError ? <Notice text={pageError} tone="error" /> : <Notice text={doneText} />}

      {order.handover_code ? (
        <section className="card flex items-center gap-4" aria-labelledby="handover-title" data-testid="handover-code">
          <div className="min-w-0 flex-1">
            <h2 id="handover-title" className="text-base font-semibold">
              {o.detail.handoverCode}
            </h2>
            <p className="mt-1 text-xs text-slate-500">{o.detail.handoverCodeHint}</p>
          </div>
          <p className="font-mono text-3xl font-bold tracking-[0.3em] text-brand">{order.handover_code}</p>
        </section>
      ) : null}

      {order.supplement ? (
        <section className="card space-y-2" aria-labelledby="supplement-title" data-testid="order-supplement">
          {data.supplementReload ? <meta httpEquiv="refresh" content={`2;url=${path}?supplement=paying&r=${data.supplementReload}`} /> : null}
          <h2 id="supplement-title" className="text-base font-semibold">
            {o.supplement.title}
          </h2>
          <p className="text-sm text-slate-700">
            {fillTemplate(o.supplement.found, { real: order.supplement.real, declared: order.supplement.declared, amount: formatYuan(order.supplement.amountFen, { style: "amount", symbol: true }) })}
          </p>
          {order.supplement.refundText ? (
            <p role="status" data-testid="supplement-refund" className="text-sm font-medium text-slate-600">
              {order.supplement.refundText}
            </p>
          ) : order.supplement.state === "paid" ? (
            <p role="status" className="text-sm font-medium text-emerald-700">
              {fillTemplate(o.supplement.paid, { amount: formatYuan(order.supplement.amountFen, { style: "amount", symbol: true }) })}
            </p>
          ) : order.supplement.state === "declined" ? (
            <p role="status" className="text-sm font-medium text-slate-600">
              {o.supplement.declined}
            </p>
          ) : data.supplementReload ? (
            <p role="status" className="text-sm text-slate-600">
              {o.supplement.paying}
            </p>
          ) : null}
          {data.supplementRefusal ? (
            <p role="alert" className="text-sm text-red-600">
              {data.supplementRefusal}
            </p>
          ) : null}
          {order.supplement.open && !data.supplementReload ? (
            <div className="space-y-2">
              <form method="post" action={`${path}/supplement`} onSubmit={payDifference}>
                <input type="hidden" name="intent" value="supplement-accept" />
                <button type="submit" disabled={supplementBusy} className="btn-primary h-11 w-full text-[15px]">
                  {fillTemplate(o.supplement.accept, { amount: formatYuan(order.supplement.amountFen, { style: "amount", symbol: true }) })}
                </button>
              </form>
              <form method="post" action={`${path}/supplement`}>
                <input type="hidden" name="intent" value="supplement-decline" />
                <button type="submit" className="btn-ghost h-11 w-full text-[15px]">
                  {o.supplement.decline}
                </button>
              </form>
              <p className="text-xs text-slate-500">{o.supplement.declineHint}</p>
            </div>
          ) : null}
        </section>
      ) : null}

      {order.delivery_photo_url ? (
        <section className="card space-y-2" aria-labelledby="delivery-photo-title" data-testid="delivery-photo">
          <h2 id="delivery-photo-title" className="text-base font-semibold">
            {o.detail.deliveryPhoto}
          </h2>
          <img src={order.delivery_photo_url} alt={o.detail.deliveryPhoto} loading="lazy" className="max-h-80 w-full rounded-xl bg-slate-100 object-contain" />
          <p className="text-xs text-slate-500">{o.detail.deliveryPhotoHint}</p>
        </section>
      ) : null}

      <section className="card" aria-labelledby="actions-title">
        <h2 id="actions-title" className="sr-only">
          {o.detail.info}
        </h2>
        <div className="space-y-2">
          {actions.includes("pay") ? (
            <PayForm label={`${o.actions.pay} ${formatYuan(order.amount_fen, { style: "amount", symbol: true })}`} stage={stage} pending={Boolean(paying) || reloading} onPay={start} />
          ) : null}
          {actions.includes("review") ? (
            <Link to={`${path}/review`} preventScrollReset className="btn-primary h-11 w-full text-[15px]">
              <Icon name="star" className="h-4 w-4" />
              {o.actions.review}
            </Link>
          ) : null}
          <div className="flex gap-2 whitespace-nowrap">
            {actions.includes("cancel") ? (
              <Link to={`${path}/cancel`} preventScrollReset className="btn-ghost h-10 min-w-0 flex-1">
                {o.actions.cancel}
              </Link>
            ) : null}
            {actions.includes("refund") ? (
              <Link to={`${path}/refund`} preventScrollReset className="btn-ghost h-10 min-w-0 flex-1">
                {o.actions.refund}
              </Link>
            ) : null}
            <Link to={`${path}/contact`} preventScrollReset className="btn-ghost h-10 min-w-0 flex-1">
              <Icon name="service" className="h-4 w-4" />
              {o.actions.contact}
            </Link>
          </div>
        </div>
        {order.review ? (
          <div className="mt-3 rounded-xl bg-amber-50 px-3 py-2 text-sm" data-testid="my-review">
            <p className="font-medium text-amber-800">
              {o.detail.yourReview} <span aria-hidden="true">{"★".repeat(order.review.rating)}</span> {order.review.text}
            </p>
            {order.review.comment ? <p className="mt-1 text-slate-600">{order.review.comment}</p> : null}
          </div>
        ) : null}
      </section>

      <section className="card" aria-labelledby="info-title">
        <h2 id="info-title" className="mb-1 text-base font-semibold">
          {o.detail.info}
        </h2>
        <InfoRows rows={infoRows} />
      </section>

      <section className="card space-y-2" aria-labelledby="codes-title">
        <h2 id="codes-title" className="text-base font-semibold">
          {o.detail.pickupCodes}
        </h2>
        <PickupCodeList items={order.pickup_codes} />
      </section>

      {/* The subscribe card (the notifications issue's widget), from the loader's state. */}
      {subscribe ? <SubscribeWidget state={subscribe} mode="card" /> : null}

      <Outlet />

    </Page>
  );
}
