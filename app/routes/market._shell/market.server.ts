// The market layout's data (every /market page): the campus, the config, the checkout, the
// addresses, the totals, and the plain data of the parts that have no behaviour of their own
// (the hero, the promo card, the read-only panels, the assist dialog).
import { priceVersion } from "~/lib/order-ledger";
import { getZodConstraint } from "@conform-to/zod/v4";
import { composeAddress, type AddressView } from "~/lib/address";
import { formatYuan } from "~/lib/money";
import { FEATURE_INTROS, MARKET_TIPS } from "~/lib/content/market";
import { parseStaticSheet, parseTab, type StaticSheet } from "~/lib/market-url";
import type { FeatureTabView, InfoPanelView } from "~/lib/market-views";
import type { ProofChallenge } from "~/lib/proof-of-work";
import { createProofChallenge } from "~/server/auth/proof-of-work.server";
import { campus as campusMessages } from "~/lib/messages/campus";
import { customerService } from "~/lib/messages/customerService";
import { marketMessages } from "~/lib/messages/market-answers";
import { marketPage } from "~/lib/messages/market-page";
import { payPage as payPageMessages } from "~/lib/messages/pay-page";
import { priceOf, totalParcels } from "~/lib/package-counts";
import { RecognizeSchema } from "~/lib/schemas/market";
import { AssistStartSchema } from "~/lib/schemas/coupons";
import {
  CUSTOMER_SERVICE_HOURS,
  PARCEL_SENDING_HOURS,
  PHONE_LINE_HOURS,
  PICKUP_HOURS,
  REPLY_WITHIN_MINUTES,
  SERVICE_PHONE,
  SERVICE_PHONE_HREF,
  fillTemplate,
  formatWindow,
} from "~/lib/service-hours";
import { messengerAuthPathFor } from "~/lib/wechat-auth";
import { getUser } from "~/server/auth/session.server";
import { assistRefusalText } from "~/server/http/coupon-refusals";
import { campusChoiceText } from "~/server/http/campus-refusals";
import { EXPRESS_CONFIG_FALLBACK, EXPRESS_CONFIG_REFUSALS } from "~/server/http/market-refusals";
import { assistDialog, checkoutQuote, couponRow, promoCard } from "./coupon-parts.server";
import { listAddresses } from "~/server/market/addresses.server";
import { checkoutKey, loadCheckout, type Checkout } from "~/server/market/checkout.server";
import { type PackageTypeConfig } from "~/server/market/market-config.server";
import { promisedDelivery } from "~/server/orders/slots.server";
import { expressState, recognizePendingSms } from "~/server/market/market-state.server";
import { latestUnpaidOrder, pickAddress } from "~/server/orders/orders.server";

const m = marketMessages;

export async function marketLoader(request: Request) {
  const url = new URL(request.url);
  const user = await getUser(request);
  const { selector, refusal, config, fallback, setCookie: campusCookie } = await expressState(request, user);
  const { refused, ...shownSelector } = selector;
  const pendingCookie = await recognizePendingSms(request, user, config);
  const setCookie = [campusCookie, pendingCookie].filter((cookie): cookie is string => Boolean(cookie));
  const tab = parseTab(url.searchParams.get("tab"));
  const staticSheet = parseStaticSheet(url.searchParams.get("sheet"));
  const messenger = Boolean(user?.openid);
  const authHref = messengerAuthPathFor(request.url);
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
    assistDialog(url, user, assistRefusalText(url.searchParams.get("assistError"))),
    user?.openid ? latestUnpaidOrder(user.id) : null,
  ]);
  const priceFromFen = config ? Math.min(...config.packageTypes.map((type) => type.priceFen)) : null;

  return {
    data: {
      // The selector reopened by a refusal says why.
      selector: { ...shownSelector, error: refusal === "campus_list_failed" ? campusMessages.loadFailed : refusal ? EXPRESS_CONFIG_REFUSALS[refusal] : campusChoiceText(refused) },
      unpaidOrder: unpaid && {
        text: fillTemplate(payPageMessages.unpaidBanner, { orderNumber: unpaid }),
        action: payPageMessages.unpaidAction,
        href: `/market/pay/${unpaid}`,
      },
      campusWarning: fallback ? EXPRESS_CONFIG_FALLBACK : null,
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
      priceFrom: priceFromFen ? fillTemplate(marketPage.express.priceFrom, { price: formatYuan(priceFromFen) }) : null,
      promo,
      feature: tab === "express" ? null : featureTab(tab, await createProofChallenge()),
      // The read-only panel open over the page it was opened from (closing returns there), or the assist dialog.
      panel: staticSheet && (staticSheet !== "ordering" || checkout) ? infoPanel(staticSheet, { packageTypes: config?.packageTypes ?? null, focus: url.searchParams.get("type"), closeTo: url.pathname }) : null,
      assist,
      // The forms' constraints, from the schemas their actions validate with (zod stays on the server).
      constraints: { sms: getZodConstraint(RecognizeSchema), assist: getZodConstraint(AssistStartSchema) },
    },
    setCookie,
  };
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
export function infoPanel(sheet: StaticSheet, options: { packageTypes: PackageTypeConfig[] | null; focus: string | null; closeTo: string }): InfoPanelView | null {
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
