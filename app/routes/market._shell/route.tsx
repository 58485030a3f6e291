import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { Icon } from "~/components/icons";
import { ExpressList, ExpressTop, PromoCard } from "~/components/market/ExpressParts";
import { ExpressTab, ScreenshotForm } from "~/components/market/ExpressTab";
import { CampusSelector, InfoPanel } from "~/components/market/deferred";
import { ToastProvider } from "~/components/market/toast-context";
import { Page, useHydrated } from "~/components/Page";
import { MARKET_TABS, tabHref } from "~/lib/market-links";
import { app } from "~/lib/messages/app";
import { campus } from "~/lib/messages/campus";
import { market } from "~/lib/messages/market";
import { titles } from "~/lib/messages/titles";
import { marketLoader } from "./market.server";

// The market (/market and its panels). This pathless layout holds the page: the campus, the
// tabs, the express tab with the recognised parcels, and the read-only panels (?sheet=…). The
// order-confirm sheet, the address picker and form and the parcel dialog are child routes
// (/market/checkout, /market/address, /market/parcel/…), so their code loads only when opened.
// The layout has no action: each route holds its own intents (the page's are on the index
// route, /market?index; see docs/decisions/023).

const msg = { app, campus, market, titles };
export const MARKET_LAYOUT_ID = "routes/market._shell";

export const meta: MetaFunction = () => [{ title: `${msg.titles.market} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { data, setCookie } = await marketLoader(request);
  const headers = new Headers();
  for (const cookie of setCookie) headers.append("Set-Cookie", cookie);
  return json(data, { headers });
}

/** The layout's data, for the panel routes. */
export function useMarketData() {
  return useRouteLoaderData<typeof loader>(MARKET_LAYOUT_ID)!;
}

export default function Market() {
  const data = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const { selector, checkout } = data;

  // The routes' own answers to a plain form post are their toasts; the layout's are the loader's.
  const initialToast = useMemo(() => {
    const message = data.sheetError ?? data.campusWarning;
    if (!message) return null;
    return { message, tone: data.sheetError ? ("error" as const) : ("info" as const), stamp: Date.now() };
  }, [data.sheetError, data.campusWarning]);

  return (
    <ToastProvider initial={initialToast}>
      <Page
        title={msg.titles.market}
        withTabBar
        actions={
          <Link to="?selectCampus=1" className="flex items-center gap-1 rounded-full bg-black/20 px-3 py-1 text-sm" preventScrollReset>
            <Icon name="map" className="h-4 w-4" />
            {selector.current?.name ?? msg.campus.switch}
          </Link>
        }
      >
        <nav aria-label={msg.titles.market} className="grid grid-cols-3 gap-1 rounded-2xl bg-white p-1 shadow-sm">
          {MARKET_TABS.map((tab) => (
            <Link
              key={tab}
              to={tabHref(tab)}
              preventScrollReset
              aria-current={data.tab === tab ? "page" : undefined}
              className={`rounded-xl py-2 text-center text-sm transition ${
                data.tab === tab ? "bg-brand font-semibold text-white shadow-sm" : "text-slate-600 hover:bg-slate-50"
              }`}
              id={`tab-${tab}`}
            >
              {msg.market.tabs[tab]}
            </Link>
          ))}
        </nav>

        {data.unpaidOrder ? (
          // The order waiting for payment stays within reach (pay or cancel on its pay page).
          <p className="flex items-center justify-between gap-2 rounded-2xl bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="unpaid-order">
            <span className="min-w-0">{data.unpaidOrder.text}</span>
            <Link to={data.unpaidOrder.href} className="shrink-0 rounded-full bg-amber-600 px-3 py-1 text-white">
              {data.unpaidOrder.action}
            </Link>
          </p>
        ) : null}

        {data.tab === "express" ? (
          <>
            <ExpressTop priceFrom={data.priceFrom} estimate={data.estimate} messenger={data.messenger} authHref={data.authHref} />
            {data.promo ? <PromoCard promo={data.promo} /> : null}
            <ExpressTab messenger={data.messenger} authHref={data.authHref} smsText={checkout?.smsText ?? ""} hydrated={hydrated} constraint={data.constraints.sms} />
            <ExpressList entries={checkout?.entries ?? []} />
          </>
        ) : null}
        <ScreenshotForm />

        <Outlet />
        {data.panel ? <InfoPanel panel={data.panel} /> : null}

        {selector.open ? (
          <CampusSelector campuses={selector.campuses} current={selector.current?.code} redirectTo={selector.redirectTo} error={selector.error} />
        ) : null}
      </Page>
    </ToastProvider>
  );
}
