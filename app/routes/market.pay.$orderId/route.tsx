// /market/pay/:orderId — paying right after the order-confirm sheet (messenger identity only: the
// student login is not needed to order and pay). The sheet's pay button creates the order and
// lands here with ?start=1: the page's JavaScript creates the payment, invokes the pay bridge (the
// simulated provider in development pays by itself after 1.5 s) and polls the status. Paid: the
// checkout is already emptied and the success card shows. Cancelled: the product rules' message, the
// order stays payable. Failed: the dialog saying the order exists and can be paid after the
// student-id login, with its button to the login. Without JavaScript the pay button is a form.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Icon } from "~/components/icons";
import { Notice, PayForm } from "~/components/orders/OrderParts";
import { usePay } from "~/components/orders/usePay";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { orderPage as orderPageMessages } from "~/lib/messages/order-page";
import { formatYuan } from "~/lib/money";
import { payPage as payPageMessages } from "~/lib/messages/pay-page";
import { PAY_RELOADS } from "~/lib/order-limits";
import { fillTemplate } from "~/lib/template";
import { payPageAction, payPageLoader, type PayActionData } from "./pay-page.server";

const msg = { app: appMessages, orders: orderPageMessages, payPage: payPageMessages };
const p = { ...msg.orders.pay, ...msg.payPage };

export const meta: MetaFunction = () => [{ title: `${p.title} · ${msg.app.name}` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return payPageLoader(request, params.orderId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return payPageAction(request, params.orderId);
}

export default function PayPage() {
  const { order, start: autoStart, paying, simulated, cancelled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as PayActionData | undefined;
  const location = useLocation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(actionData?.error && !actionData.paid ? actionData.error : null);
  const [pending, setPending] = useState(false);
  const paid = order.paymentStatus === "paid";
  const { stage, start } = usePay(order.number, (outcome) => {
    if (outcome.kind === "cancelled") setNotice(outcome.message);
    else if (outcome.kind === "failed") setFailure(outcome.message);
    else {
      if (outcome.kind === "pending") setPending(true);
      navigate(location.pathname, { replace: true, preventScrollReset: true });
    }
  });

  // ?start=1: the sheet's one tap goes on into the payment.
  const started = useRef(false);
  useEffect(() => {
    if (!autoStart || started.current || !order.canPay) return;
    started.current = true;
    navigate(location.pathname, { replace: true, preventScrollReset: true });
    void start();
  }, [autoStart, order.canPay, start, navigate, location.pathname]);

  const orderHref = `/express/orders/${order.number}`;

  return (
    <Page title={p.title} back="/market">
      {paying && paying < PAY_RELOADS ? <meta httpEquiv="refresh" content={`2;url=${location.pathname}?paying=${paying + 1}`} /> : null}
      {paid ? (
        <section className="card flex flex-col items-center gap-2 py-8 text-center" aria-labelledby="paid-title" data-testid="pay-success">
          <span className="flex h-14 w-14 items-center justify-center rounded-full bg-green-50 text-green-600">
            <Icon name="check" className="h-8 w-8" />
          </span>
          <h2 id="paid-title" className="text-xl font-bold">
            {p.successTitle}
          </h2>
          <p className="text-2xl font-bold text-slate-900">{formatYuan(order.amountFen, { style: "amount", symbol: true })}</p>
          <p className="text-sm text-slate-500">{fillTemplate(p.successHint, { time: order.estimated })}</p>
          <div className="mt-3 flex w-full gap-2">
            <Link to="/market" className="btn-ghost h-11 flex-1">
              {p.backToMarket}
            </Link>
            <Link to={orderHref} className="btn-primary h-11 flex-1">
              {p.viewOrder}
            </Link>
          </div>
        </section>
      ) : (
        <section className="card space-y-4" aria-labelledby="pay-title">
          <div className="text-center">
            <p id="pay-title" className="text-sm text-slate-500">
              {order.canPay ? p.amount : order.label}
            </p>
            <p className="mt-1 text-3xl font-bold text-slate-900" data-testid="pay-amount">
              {formatYuan(order.amountFen, { style: "amount", symbol: true })}
            </p>
            {order.originalFen !== order.amountFen ? <p className="text-xs text-slate-500 line-through">{formatYuan(order.originalFen, { style: "amount", symbol: true })}</p> : null}
          </div>
          <dl className="space-y-1.5 rounded-xl bg-slate-50 px-3 py-3 text-sm">
            <div className="flex justify-between gap-3">
              <dt className="text-slate-500">{msg.orders.detail.number}</dt>
              <dd className="font-mono">{order.number}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-slate-500">{msg.orders.detail.parcels}</dt>
              <dd>{fillTemplate(msg.orders.list.parcels, { count: order.parcelCount })}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="shrink-0 text-slate-500">{msg.orders.detail.address}</dt>
              <dd className="text-right">
                {order.recipient} {order.address}
              </dd>
            </div>
            {order.showEstimate ? (
              <div className="flex justify-between gap-3">
                <dt className="text-slate-500">{msg.orders.detail.estimated}</dt>
                <dd>{order.estimated}</dd>
              </div>
            ) : null}
          </dl>
          {pending || paying ? (
            <p className="rounded-xl bg-brand-soft px-3 py-2 text-sm text-brand" role="status">
              {pending ? p.pendingHint : p.checking}
            </p>
          ) : null}
          <Notice text={notice ?? (cancelled ? p.cancelled : null)} />
          {order.canPay ? <PayForm label={`${p.payNow} ${formatYuan(order.amountFen, { style: "amount", symbol: true })}`} stage={stage} pending={Boolean(paying)} onPay={start} /> : null}
          {order.canCancel ? (
            <Form method="post" replace>
              <input type="hidden" name="intent" value="cancel" />
              <button type="submit" className="btn-ghost h-10 w-full" data-testid="pay-page-cancel">
                {p.cancel}
              </button>
            </Form>
          ) : null}
          {simulated && order.canPay ? <p className="text-center text-xs text-slate-500">{p.simulated}</p> : null}
          <Link to={orderHref} className="block text-center text-sm text-brand">
            {p.viewOrder}
          </Link>
        </section>
      )}

      {failure ? (
        <div className="fixed inset-0 z-50 !mt-0 flex items-center justify-center bg-black/40 px-6" role="presentation">
          <section role="alertdialog" aria-modal="true" aria-labelledby="pay-failed-title" aria-describedby="pay-failed-body" className="w-full max-w-sm space-y-3 rounded-2xl bg-white p-5 text-center">
            <h2 id="pay-failed-title" className="text-lg font-semibold">
              {p.failedTitle}
            </h2>
            <p className="text-sm text-red-600">{failure}</p>
            <p id="pay-failed-body" className="text-sm text-slate-600">
              {p.failedHint}
            </p>
            <div className="flex gap-2">
              <Link
                to={location.pathname}
                replace
                preventScrollReset
                className="btn-ghost h-11 flex-1"
                onClick={(event) => {
                  event.preventDefault();
                  setFailure(null);
                }}
              >
                {p.close}
              </Link>
              <Link to={`/login?${new URLSearchParams({ redirectTo: orderHref })}`} className="btn-primary h-11 flex-1">
                {p.login}
              </Link>
            </div>
          </section>
        </div>
      ) : null}
    </Page>
  );
}
