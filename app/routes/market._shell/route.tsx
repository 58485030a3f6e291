import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { Icon } from "~/components/icons";
import { ExpressList, ExpressTop, PromoCard } from "~/components/market/ExpressParts";
import { ExpressTab, ScreenshotForm } from "~/components/market/ExpressTab";
import { CampusSelector, InfoPanel } from "~/components/market/deferred";
import { ToastProvider } from "~/components/market/toast-context";
import { Page } from "~/components/Page";
import { MARKET_TABS, tabHref } from "~/lib/market-links";
import { app } from "~/lib/messages/app";
import { campus } from "~/lib/messages/campus";
import { market } from "~/lib/messages/market";
import { titles } from "~/lib/messages/titles";
import { priceVersion } from "~/lib/order-ledger";
import { getZodConstraint } from "@conform-to/zod/v4";
import { composeAddress, type AddressView } from "~/lib/address";
import { formatYuan } from "~/lib/money";
import { FEATURE_INTROS, MARKET_TIPS } from "~/lib/content/market";
import { fill, parseStaticSheet, parseTab, type StaticSheet } from "~/lib/market-url";
import type { FeatureTabView, InfoPanelView } from "~/lib/market-views";
import type { ProofChallenge } from "~/lib/proof-of-work";
import { createProofChallenge } from "~/server/auth/proof-of-work.server";
import { customerService } from "~/lib/messages/customerService";
import { marketMessages } from "~/lib/messages/market-answers";
import { marketPage } from "~/lib/messages/market-page";
import { payPage as payPageMessages } from "~/lib/messages/pay-page";
import { priceOf, totalParcels } from "~/lib/package-counts";
import { RecognizeSchema } from "~/lib/schemas/market";
import { AssistStartSchema } from "~/lib/schemas/coupons";
import { CUSTOMER_SERVICE_HOURS, PARCEL_SENDING_HOURS, PHONE_LINE_HOURS, PICKUP_HOURS, REPLY_WITHIN_MINUTES, SERVICE_PHONE, SERVICE_PHONE_HREF, fillTemplate, formatWindow } from "~/lib/service-hours";
import { messengerAuthPath } from "~/lib/wechat-auth";
import { getUser } from "~/server/auth/session.server";
import { assistDialog, checkoutQuote, couponRow, promoCard } from "~/server/coupons/market-parts.server";
import { listAddresses } from "~/server/errands/addresses.server";
import { checkoutKey, loadCheckout, type Checkout } from "~/server/errands/checkout.server";
import type { PackageTypeConfig } from "~/server/errands/market-config.server";
import { promisedDelivery } from "~/server/orders/slots.server";
import { expressState, recognizePendingSms } from "~/server/errands/market-state.server";
import { latestUnpaidOrder, pickAddress } from "~/server/orders/orders.server";
import { returnPath } from "./guards.server";

// The market (/market and its panels). This pathless layout holds the page: the campus, the
// tabs, the express tab with the recognised parcels, and the read-only panels (?sheet=…). The
// order-confirm sheet, the address picker and form and the parcel dialog are child routes
// (/market/checkout, /market/address, /market/parcel/…), so their code loads only when opened.
// The layout has no action: each route holds its own intents (the page's are on the index
// route, /market?index; see docs/decisions/023).

// The market layout's data (every /market page): the campus, the config, the checkout, the
// addresses, the totals, and the plain data of the parts that have no behaviour of their own
// (the hero, the promo card, the read-only panels, the assist dialog).
const m = marketMessages;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await getUser(request);
  const { selector, config, warning, setCookie: campusCookie } = await expressState(request, user);
  const pendingCookie = await recognizePendingSms(request, user, config);
  const setCookie = [campusCookie, pendingCookie].filter((cookie): cookie is string => Boolean(cookie));
  const tab = parseTab(url.searchParams.get("tab"));
  const staticSheet = parseStaticSheet(url.searchParams.get("sheet"));
  const messenger = Boolean(user?.openid);
  const authHref = messengerAuthPath(returnPath(request));
  // The promise as payment would make it now: a full slot of the campus moves it to the next.
  const estimate = await promisedDelivery(config?.campusCode ?? null, new Date());

  let checkout: Checkout | null = null;
  let addresses: AddressView[] = [];
  if (user?.openid && config) {
    [checkout, addresses] = await Promise.all([loadCheckout(user.id, config.packageTypes), listAddresses(user.id)]);
    // docs/architecture.md "Parcels": the picker offers only addresses on the order's service campus.
    addresses = addresses.filter((address) => address.campusCode === config.campusCode);
  }
  const selectedAddress = (config && pickAddress(addresses, checkout?.addressId ?? null, config.campusCode)) ?? null;
  const totalFen = checkout && config ? priceOf(checkout.counts, config.packageTypes) : 0;
  const types = config?.packageTypes ?? null;
  // Coupons: the sheet's discount and coupon row, the promo card, the assist dialog.
  const [quote, promo, assist, unpaid] = await Promise.all([
    checkoutQuote(user, types, checkout?.counts ?? null),
    tab === "express" ? promoCard({ user, types, authHref }) : null,
    assistDialog(url, user),
    user?.openid ? latestUnpaidOrder(user.id) : null,
  ]);
  const priceFromFen = config ? Math.min(...config.packageTypes.map((type) => type.priceFen)) : null;

  const headers = new Headers();
  for (const cookie of setCookie) headers.append("Set-Cookie", cookie);
  return json(
    {
      selector,
      unpaidOrder: unpaid && {
        text: fillTemplate(payPageMessages.unpaidBanner, { orderNumber: unpaid }),
        action: payPageMessages.unpaidAction,
        href: `/market/pay/${unpaid}`,
      },
      campusWarning: warning,
      tab,
      sheetError: url.searchParams.get("sheetError") === "empty" ? m.checkout.emptyList : null,
      messenger,
      authHref,
      config: config && {
        campusCode: config.campusCode,
        campusName: config.campusName,
        packageTypes: config.packageTypes.map(({ standards: _standards, ...type }) => type),
        pickupPlaces: config.pickupPlaces,
      },
      checkout: checkout && {
        id: checkout.id,
        version: checkout.version,
        key: checkoutKey(checkout),
        smsText: checkout.smsText,
        entries: checkout.entries,
        counts: checkout.counts,
        remark: checkout.remark,
      },
      addresses: addresses.map((address) => ({ ...address, text: composeAddress(address) })),
      selectedAddressId: selectedAddress?.id ?? null,
      summary: {
        parcels: checkout ? totalParcels(checkout.counts) : 0,
        originalFen: totalFen,
        paidFen: quote?.finalFen ?? totalFen,
        // I2: the version of this price; the pay intent charges nothing if it changed meanwhile.
        priceVersion:
          checkout && config
            ? priceVersion({ prices: config.packageTypes, counts: checkout.counts, couponId: quote?.coupon?.id ?? null, discountFen: quote?.discountFen ?? 0, amountFen: quote?.finalFen ?? totalFen })
            : "",
      },
      coupon: couponRow(quote),
      estimate: { time: estimate.time, dayOffset: estimate.dayOffset },
      priceFrom: priceFromFen ? fill(marketPage.express.priceFrom, { price: formatYuan(priceFromFen) }) : null,
      promo,
      feature: tab === "express" ? null : featureTab(tab, await createProofChallenge()),
      // The read-only panel open over the page it was opened from (closing returns there), or the assist dialog.
      panel: staticSheet && (staticSheet !== "ordering" || checkout) ? infoPanel(staticSheet, { packageTypes: config?.packageTypes ?? null, focus: url.searchParams.get("type"), closeTo: url.pathname }) : null,
      assist,
      // The forms' constraints, from the schemas their actions validate with (zod stays on the server).
      constraints: { sms: getZodConstraint(RecognizeSchema), assist: getZodConstraint(AssistStartSchema) },
    },
    { headers },
  );
}

function featureTab(kind: "online" | "errand", proof: ProofChallenge): FeatureTabView {
  const f = m.feature;
  return {
    kind,
    ...FEATURE_INTROS[kind],
    points: [...FEATURE_INTROS[kind].points],
    labels: { comingSoon: f.comingSoon, want: f.want, submitOrder: f.submitOrder, address: f.address, phone: f.phone },
    proof,
  };
}

/** The read-only panels (size guide, service notice, contact, order tips, the pay placeholder). */
function infoPanel(sheet: StaticSheet, options: { packageTypes: PackageTypeConfig[] | null; focus: string | null; closeTo: string }): InfoPanelView | null {
  const { closeTo } = options;
  switch (sheet) {
    case "size":
      if (!options.packageTypes) return null;
      return {
        kind: "size",
        title: m.sizeGuide.title,
        closeTo,
        focus: options.focus,
        examples: m.sizeGuide.examples,
        types: options.packageTypes.map((type) => ({
          type: type.type,
          name: type.name,
          desc: type.desc,
          price: fillTemplate(m.sizeGuide.price, { price: formatYuan(type.priceFen) }),
          standards: type.standards.map((standard) => ({ title: standard.title, desc: standard.desc, examples: [...standard.examples] })),
        })),
      };
    case "notice":
      return {
        kind: "rows",
        title: m.notice.title,
        closeTo,
        rows: [
          { label: customerService.noticePickup, value: formatWindow(PICKUP_HOURS) },
          { label: customerService.noticeSending, value: formatWindow(PARCEL_SENDING_HOURS) },
          { label: customerService.noticeService, value: formatWindow(CUSTOMER_SERVICE_HOURS) },
          { label: customerService.noticePhone, value: formatWindow(PHONE_LINE_HOURS) },
          { label: customerService.noticeReply, value: fillTemplate(customerService.replyWithin, { minutes: REPLY_WITHIN_MINUTES }) },
        ],
      };
    case "contact":
      return {
        kind: "contact",
        title: m.express.contactService,
        closeTo,
        links: [
          { href: SERVICE_PHONE_HREF, title: customerService.phone, detail: `${SERVICE_PHONE.display} · ${formatWindow(PHONE_LINE_HOURS)}`, action: customerService.call },
          { href: "/CustomerService", title: customerService.qrTitle, detail: formatWindow(CUSTOMER_SERVICE_HOURS), action: "›", muted: true },
        ],
      };
    case "tip":
      return { kind: "list", title: m.panels.tipTitle, closeTo, items: [...MARKET_TIPS] };
    case "ordering":
      return { kind: "message", title: m.panels.placeholderTitle, closeTo, body: m.panels.placeholderBody };
    default:
      return null;
  }
}

const msg = { app, campus, market, titles };
export const MARKET_LAYOUT_ID = "routes/market._shell";

export const meta: MetaFunction = () => [{ title: `${msg.titles.market} · ${msg.app.name}` }];

/** The layout's data, for the panel routes. */
export function useMarketData() {
  return useRouteLoaderData<typeof loader>(MARKET_LAYOUT_ID)!;
}

export default function Market() {
  const data = useLoaderData<typeof loader>();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
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
