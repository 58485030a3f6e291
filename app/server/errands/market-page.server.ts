import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  createCookie,
  MaxPartSizeExceededError,
  redirect,
  redirectDocument,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { composeAddress, type AddressView } from "~/lib/address";
import { estimateDelivery } from "~/lib/delivery-slot";
import { marketHref, parseStaticSheet, parseTab } from "~/lib/market-url";
import * as msg from "~/lib/messages";
import { priceOf, stepCount, totalParcels } from "~/lib/package-counts";
import { DEFAULT_COMPANY, DEFAULT_STATION, canSave, entryFromInput, isDuplicate, mergeRecognized, type PickupEntry } from "~/lib/pickup-entries";
import { AddressSchema } from "~/lib/schemas/address";
import { MarketIntentSchema } from "~/lib/schemas/market";
import { fillTemplate } from "~/lib/service-hours";
import { messengerAuthPath } from "~/lib/wechat-auth";
import { getUser, type User } from "../auth/session.server";
import { campusConfig, clearCampusChoice, listCampuses } from "../campus/campus.server";
import { campusSelectorState } from "../campus/selector.server";
import { config } from "../config.server";
import { log } from "../log.server";
import { createOrderFromCheckout, latestUnpaidOrder, pickAddress } from "../orders/orders.server";
import { payPage as payPageMessages } from "~/lib/messages/pay-page";
import { subscribeWidgetState } from "../notify/subscribe.server";
import { deleteAddress, findAddress, listAddresses, saveAddress, setDefaultAddress } from "./addresses.server";
import { CheckoutConflictError, checkoutKey, loadCheckout, newEntryId, updateCheckout, type Checkout } from "./checkout.server";
import { recordFeatureRequest } from "./feature-requests.server";
import { loadDeliverySchedule, loadExpressConfig, type ExpressConfig } from "./market-config.server";
import { MAX_IMAGE_BYTES, MAX_IMAGES } from "./ocr.server";
import { outcomeHeaders, recognizeImage, recognizeText } from "./recognition.server";
import { renderExpressList, renderExpressTop } from "./express-html.server";
import { renderFeatureTab, renderStaticPanel } from "./static-panels.server";
import { marketCouponParts } from "../coupons/market-parts.server";
import { campus } from "~/lib/messages/campus";
import { marketMessages } from "~/lib/messages/market-answers";
import type { RateLimitedAction } from "~/lib/rate-limits";
import { consumeRateLimit } from "../rate-limits.server";

const m = marketMessages;

/** What every action answers when it stays on the page: a toast, an error, a hint. */
export type MarketActionData = {
  intent: string;
  notice?: string;
  error?: string;
  /** '智能识别未识别出取件码，请手动填写': flash the manual-add hint for 5 s. */
  manualHint?: boolean;
  /** The address form's conform result. */
  result?: SubmissionResult<string[]>;
  /** The parcel form's error beside its fields. */
  entryError?: string;
  /** The live order that already holds a parcel of this order (the error links to it). */
  liveOrder?: string;
};

function returnPath(request: Request) {
  const url = new URL(request.url);
  url.searchParams.delete("_data");
  url.searchParams.delete("index");
  return url.pathname + url.search;
}

/**
 * Text an anonymous visitor pasted survives the messenger authorization (issue 16): kept for
 * 30 minutes in a signed cookie of their own browser, recognised into the checkout on return.
 * At most PENDING_SMS_MAX characters (a cookie holds about 4 KB).
 */
const PENDING_SMS_MAX = 800;
function pendingSmsCookie() {
  return createCookie("__pending_sms", { secrets: [config().sessionSecret], httpOnly: true, sameSite: "lax", secure: config().isProduction, path: "/market", maxAge: 30 * 60 });
}

async function recognizePendingSms(request: Request, user: User | null, config: ExpressConfig | null): Promise<string | null> {
  if (!user?.openid || !config) return null;
  const text: unknown = await pendingSmsCookie().parse(request.headers.get("Cookie"));
  if (typeof text !== "string" || !text.trim()) return null;
  const found = recognizeText(text);
  await updateCheckout(user.id, config.packageTypes, (current) => {
    const merged = mergeRecognized(current.entries, found, "text", newEntryId);
    return { set: { smsText: text, entries: merged.entries }, result: null };
  });
  return pendingSmsCookie().serialize("", { maxAge: 0 });
}

/**
 * The messenger identity that recognition, the checkout and addresses need. A page without it
 * goes through the messenger authorization (a full document redirect, also from a fetcher).
 */
async function requireMarketUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (user?.openid) return user;
  throw redirectDocument(messengerAuthPath(returnPath(request)));
}

// ---------------------------------------------------------------------------------------------
// Loader

type SelectorState = Omit<Awaited<ReturnType<typeof campusSelectorState>>, "error"> & { error: string | null };

async function selectorState(request: Request, user: User | null): Promise<SelectorState> {
  try {
    return await campusSelectorState(request, user);
  } catch (error) {
    // The spec: the list could not be loaded → the selector says so and asks for a refresh.
    log("error", "campus-list", { error: String(error) });
    const url = new URL(request.url);
    return { campuses: [], current: null, asked: false, open: true, error: campus.loadFailed, redirectTo: url.pathname + url.search };
  }
}

async function expressState(request: Request, user: User | null) {
  const selector = await selectorState(request, user);
  if (!selector.current) return { selector, config: null, warning: null, setCookie: null };
  const result = await loadExpressConfig(selector.current.code);
  if (result.ok) return { selector, config: result.config, warning: result.warning, setCookie: null };
  // The spec: the campus's service is missing or broken → the choice is dropped, the selector reopens.
  const setCookie = await clearCampusChoice(user);
  return { selector: { ...selector, current: null, open: true, error: result.message }, config: null, warning: null, setCookie };
}

/** The market layout's data (every /market page): campus, config, the checkout, addresses, totals. */
export async function marketLoader(request: Request) {
  const url = new URL(request.url);
  const user = await getUser(request);
  const { selector, config, warning, setCookie: campusCookie } = await expressState(request, user);
  const pendingCookie = await recognizePendingSms(request, user, config);
  const setCookie = [campusCookie, pendingCookie].filter((cookie): cookie is string => Boolean(cookie));
  const tab = parseTab(url.searchParams.get("tab"));
  const staticSheet = parseStaticSheet(url.searchParams.get("sheet"));
  const messenger = Boolean(user?.openid);
  const schedule = await loadDeliverySchedule();
  const estimate = estimateDelivery(new Date(), schedule);

  let checkout: Checkout | null = null;
  let addresses: AddressView[] = [];
  if (user?.openid && config) {
    [checkout, addresses] = await Promise.all([loadCheckout(user.id, config.packageTypes), listAddresses(user.id)]);
    // ARCHITECTURE "Parcels": the picker offers only addresses on the order's service campus.
    addresses = addresses.filter((address) => address.campusCode === config.campusCode);
  }
  const selectedAddress = (config && pickAddress(addresses, checkout?.addressId ?? null, config.campusCode)) ?? null;
  const totalFen = checkout && config ? priceOf(checkout.counts, config.packageTypes) : 0;
  // Coupons (issue 9): the sheet's discount and coupon row, the promo card, the coupon and assist dialogs.
  const coupons = await marketCouponParts({
    url,
    user,
    types: config?.packageTypes ?? null,
    counts: checkout?.counts ?? null,
    authHref: messengerAuthPath(returnPath(request)),
    express: tab === "express",
  });
  // The read-only panels open over the page they were opened from; closing returns there.
  const base = url.pathname;

  const unpaid = user?.openid ? await latestUnpaidOrder(user.id) : null;
  const data = {
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
    authHref: messengerAuthPath(returnPath(request)),
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
      paidFen: coupons.quote?.finalFen ?? totalFen,
    },
    coupon: coupons.row,
    estimate: { time: estimate.time, dayOffset: estimate.dayOffset },
    priceFromFen: config ? Math.min(...config.packageTypes.map((type) => type.priceFen)) : null,
    // Content the current view shows (kept out of the page's JavaScript).
    panel:
      coupons.panel ??
      (staticSheet && (staticSheet !== "ordering" || checkout)
        ? renderStaticPanel(staticSheet, { packageTypes: config?.packageTypes ?? null, focus: url.searchParams.get("type"), base })
        : null),
    featureHtml: tab === "express" ? null : renderFeatureTab(tab),
    expressHtml:
      tab === "express"
        ? {
            top:
              renderExpressTop({
                priceFromFen: config ? Math.min(...config.packageTypes.map((type) => type.priceFen)) : null,
                estimate,
                messenger,
                authHref: messengerAuthPath(returnPath(request)),
              }) + coupons.promoHtml,
            list: renderExpressList(checkout?.entries ?? []),
          }
        : null,
  };
  return { data, setCookie };
}

/**
 * The guard of a panel route that works on the checkout: the messenger identity, a campus with
 * its config, the checkout itself. Anything missing sends the browser back to /market.
 */
export async function requireCheckout(request: Request) {
  const user = await getUser(request);
  // The authorization leaves the app: a document redirect, also from a client-side navigation.
  if (!user?.openid) throw redirectDocument(messengerAuthPath(returnPath(request)));
  const { config } = await expressState(request, user);
  if (!config) throw redirect(marketHref({}));
  const checkout = await loadCheckout(user.id, config.packageTypes);
  return { user, config, checkout };
}

/** /market/checkout: only with parcels ('请先识别快递信息' otherwise). */
export async function checkoutSheetLoader(request: Request) {
  const { user, checkout } = await requireCheckout(request);
  if (checkout.entries.length === 0) throw redirect("/market?sheetError=empty");
  // The notifications issue's subscribe button: "tell me when my parcels arrive".
  return { subscribe: await subscribeWidgetState(user, "EXPRESS_DELIVERY", request) };
}

/** /market/parcel/:id (edit) or /market/parcel/new (add): the parcel and the campus's pickup places. */
export async function parcelSheetLoader(request: Request, entryId: string | undefined) {
  const { checkout } = await requireCheckout(request);
  const entry = entryId === undefined ? null : checkout.entries.find((item) => item.id === entryId);
  if (entry === undefined) throw redirect(marketHref({}));
  return { entry };
}

/** /market/address/new or /market/address/:id: the address and every open campus's buildings. */
export async function addressFormLoader(request: Request, addressId: string | undefined) {
  const { user, config } = await requireCheckout(request);
  const address = addressId === undefined ? null : /^\d+$/.test(addressId) ? await findAddress(user.id, Number(addressId)) : undefined;
  // Another user's address (or no address at all) is not found, like any id of someone else's.
  if (address === undefined) throw new Response(m.address.notFound, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return { address, campuses: await campusesWithBuildings(config.campusCode) };
}

/** The open campuses with their buildings; from the market, only the order's service campus (ARCHITECTURE "Parcels"). */
async function campusesWithBuildings(serviceCampus: string | null = null) {
  const campuses = (await listCampuses()).filter((campus) => campus.active && (!serviceCampus || campus.code === serviceCampus));
  return Promise.all(
    campuses.map(async (campus) => ({
      code: campus.code,
      name: campus.name,
      buildings: (await campusConfig(campus.code)).buildings.map((building) => building.name),
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// Action

const TRACKING_LIKE = /^[A-Za-z]{0,4}\d{10,20}[A-Za-z]{0,2}$/;

async function configFor(user: User, request: Request): Promise<ExpressConfig> {
  const { config } = await expressState(request, user);
  if (!config) throw redirect(marketHref({ sheet: null }));
  return config;
}

export async function marketAction(request: Request, clientIp?: string): Promise<Response | MarketActionData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("multipart/form-data")) return recognizeUploads(request, clientIp);
  // Rate limits (issue 18): the form's own error line, with Retry-After.
  const limited = async (action: RateLimitedAction, userId: number | null, points = 1) => {
    const verdict = await consumeRateLimit(action, { userId, ip: clientIp }, points);
    return verdict.ok ? null : Response.json({ intent, error: verdict.message } satisfies MarketActionData, { status: 429, headers: verdict.headers });
  };
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");

  if (intent === "save-address") return saveAddressAction(request, formData);
  const submission = parseWithZod(formData, { schema: MarketIntentSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0];
    return Response.json({ intent, error: first ?? m.recognize.badFormat } satisfies MarketActionData, { status: 400 });
  }
  const value = submission.value;

  // Open to anyone: the feature-request taps and the supermarket's closed submit.
  if (value.intent === "feature-request") {
    const user = await getUser(request);
    const refused = await limited("feature-request", user?.id ?? null);
    if (refused) return refused;
    try {
      await recordFeatureRequest({ userId: user?.id ?? null, featureType: value.featureType, userAgent: request.headers.get("User-Agent"), platform: "web" });
      return { intent, notice: m.feature.thanks };
    } catch (error) {
      log("error", "feature-request", { error: String(error) });
      return Response.json({ intent, error: m.feature.failed } satisfies MarketActionData, { status: 500 });
    }
  }
  if (value.intent === "supermarket-submit") return { intent, error: m.feature.supermarketClosed };

  if (value.intent === "recognize" && value.text.trim() && !(await getUser(request))?.openid) {
    // Through the authorization, the pasted text comes along (recognised when the visitor is back).
    throw redirectDocument(messengerAuthPath(returnPath(request)), {
      headers: { "Set-Cookie": await pendingSmsCookie().serialize(value.text.slice(0, PENDING_SMS_MAX)) },
    });
  }
  const user = await requireMarketUser(request);
  const config = await configFor(user, request);
  const types = config.packageTypes;

  try {
    switch (value.intent) {
      case "recognize": {
        const text = value.text;
        if (!text.trim()) {
          const { result: kept } = await updateCheckout(user.id, types, (current) => {
            const left = current.entries.filter((entry) => entry.source !== "text");
            return { set: { smsText: "", entries: left }, result: left.length };
          });
          // Clearing the text keeps what was added by hand: say so rather than leave it silently.
          if (kept > 0) return { intent, notice: fillTemplate(m.recognize.clearedKept, { count: kept }) };
          return value.auto ? { intent } : { intent, error: m.recognize.emptyText };
        }
        const refused = await limited("recognize-text", user.id);
        if (refused) return refused;
        const found = recognizeText(text);
        const { result } = await updateCheckout(user.id, types, (current) => {
          const merged = mergeRecognized(current.entries, found, "text", newEntryId);
          return { set: { smsText: text, entries: merged.entries }, result: merged };
        });
        return recognitionAnswer(intent, found.length, result.duplicates);
      }
      case "add-entries": {
        let parsed: unknown;
        try {
          parsed = JSON.parse(value.entries);
        } catch {
          return { intent, error: m.recognize.badFormat };
        }
        if (!Array.isArray(parsed)) return { intent, error: m.recognize.badFormat };
        const found = parsed.map(entryFromInput).filter((entry): entry is NonNullable<typeof entry> => entry !== null);
        const { result } = await updateCheckout(user.id, types, (current) => {
          const merged = mergeRecognized(current.entries, found, "image", newEntryId);
          return { set: merged.added > 0 ? { entries: merged.entries } : null, result: merged };
        });
        return recognitionAnswer(intent, found.length, result.duplicates);
      }
      case "save-entry": {
        const { result } = await updateCheckout(user.id, types, (current) => {
          const existing = value.entryId ? current.entries.find((entry) => entry.id === value.entryId) : undefined;
          if (value.entryId && !existing) return { set: null, result: { error: m.entry.notFound } };
          const credential = value.credential;
          const asTracking = Boolean(credential && TRACKING_LIKE.test(credential) && !existing?.pickupCode);
          const next = {
            company: value.company ?? (existing ? existing.company : null),
            pickupCode: asTracking ? (existing?.pickupCode ?? null) : credential,
            trackingNumber: asTracking ? credential : (existing?.trackingNumber ?? null),
            stationName: value.station,
          };
          if (!canSave(next)) return { set: null, result: { error: m.entry.saveRule } };
          if (isDuplicate(current.entries, next, existing?.id)) return { set: null, result: { error: m.entry.duplicate } };
          const saved: PickupEntry = {
            id: existing?.id ?? newEntryId(),
            company: next.company ?? DEFAULT_COMPANY,
            pickupCode: next.pickupCode,
            trackingNumber: next.trackingNumber,
            stationName: next.stationName ?? DEFAULT_STATION,
            pickupType: next.pickupCode ? "code" : "tracking",
            source: "manual",
          };
          const entries = existing
            ? current.entries.map((entry) => (entry.id === existing.id ? saved : entry))
            : [...current.entries, saved];
          return { set: { entries }, result: { error: null as string | null } };
        });
        if (result.error) return Response.json({ intent, entryError: result.error } satisfies MarketActionData, { status: 400 });
        throw redirect(marketHref({}));
      }
      case "delete-entry": {
        await updateCheckout(user.id, types, (current) => ({
          set: { entries: current.entries.filter((entry) => entry.id !== value.entryId) },
          result: null,
        }));
        return { intent, notice: m.express.deleted };
      }
      case "open-checkout": {
        const checkout = await loadCheckout(user.id, types);
        if (checkout.entries.length === 0) return { intent, error: m.checkout.emptyList };
        throw redirect(marketHref({ sheet: "confirm" }));
      }
      case "count": {
        const { result } = await updateCheckout(user.id, types, (current) => {
          const step = stepCount(current.counts, types, value.type, value.direction, current.entries.length);
          return { set: step.ok ? { counts: step.counts } : null, result: step };
        });
        if (result.ok) return { intent };
        const name = types.find((t) => t.type === value.type)?.name ?? value.type;
        if (result.reason === "zero") return { intent, error: fillTemplate(m.checkout.zero, { name }) };
        if (result.reason === "limit") return { intent, error: fillTemplate(m.checkout.limit, { count: totalParcels(result.counts) }) };
        return { intent, error: m.recognize.badFormat };
      }
      case "remark": {
        await updateCheckout(user.id, types, () => ({ set: { remark: value.remark }, result: null }));
        return { intent, notice: m.entry.saved };
      }
      case "select-address": {
        const address = await findAddress(user.id, value.addressId);
        if (!address) return { intent, error: m.address.notFound };
        if (address.campusCode !== config.campusCode) {
          return Response.json({ intent, error: msg.orders.create.addressCampus } satisfies MarketActionData, { status: 400 });
        }
        await updateCheckout(user.id, types, () => ({ set: { addressId: address.id }, result: null }));
        throw redirect(marketHref({ sheet: "confirm" }));
      }
      case "delete-address": {
        const deleted = await deleteAddress(user.id, value.addressId);
        return deleted ? { intent, notice: m.address.deleted } : { intent, error: m.address.notFound };
      }
      case "default-address": {
        const done = await setDefaultAddress(user.id, value.addressId);
        return done ? { intent } : { intent, error: m.address.notFound };
      }
      case "pay": {
        // Order creation is rate-limited (issue 18); the checkout checks happen in createOrderFromCheckout.
        const refused = await limited("order", user.id);
        if (refused) return refused;
        // Orders (issue 8): the order is made from this checkout (prices recomputed, one order per
        // checkout version; the same version again answers the order it made), then paid on
        // /market/pay/:orderId, whose JavaScript goes straight on.
        const created = await createOrderFromCheckout(user, config.campusCode, { checkoutId: value.checkoutId, version: value.version });
        if (!created.ok) {
          return Response.json({ intent, error: created.message, liveOrder: created.liveOrder } satisfies MarketActionData, { status: created.status });
        }
        throw redirect(`/market/pay/${created.orderNumber}?start=1`);
      }
    }
  } catch (error) {
    if (error instanceof CheckoutConflictError) return Response.json({ intent, error: m.checkout.stale } satisfies MarketActionData, { status: 409 });
    throw error;
  }
  return { intent };
}

function recognitionAnswer(intent: string, found: number, duplicates: number): MarketActionData {
  if (found === 0) return { intent, error: m.recognize.noCode, manualHint: true };
  if (duplicates > 0 && duplicates === found) return { intent, error: m.recognize.duplicate };
  return {
    intent,
    notice: fillTemplate(m.recognize.found, { count: found }),
    ...(duplicates > 0 ? { error: m.recognize.duplicate } : {}),
  };
}

async function saveAddressAction(request: Request, formData: FormData) {
  const user = await requireMarketUser(request);
  const { config: serviceConfig } = await expressState(request, user);
  const campuses = await campusesWithBuildings(serviceConfig?.campusCode ?? null);
  const submission = await parseWithZod(formData, {
    schema: AddressSchema.superRefine((value, ctx) => {
      const campus = campuses.find((c) => c.code === value.campus);
      if (!campus) {
        ctx.addIssue({ code: "custom", path: ["campus"], message: m.address.campusRequired });
        return;
      }
      if (!campus.buildings.includes(value.building)) {
        ctx.addIssue({ code: "custom", path: ["building"], message: m.address.buildingRequired });
      }
    }),
  });
  if (submission.status !== "success") {
    return Response.json({ intent: "save-address", result: submission.reply() } satisfies MarketActionData, { status: 400 });
  }
  const idValue = formData.get("addressId");
  const id = typeof idValue === "string" && /^\d+$/.test(idValue) ? Number(idValue) : undefined;
  const saved = await saveAddress(user.id, submission.value, id);
  if (!saved.ok) {
    const message = saved.reason === "limit" ? m.address.limit : m.address.notFound;
    return Response.json({ intent: "save-address", result: submission.reply({ formErrors: [message] }) } satisfies MarketActionData, { status: 400 });
  }
  // A new address is also chosen for this order, so the sheet shows it at once.
  if (id === undefined) {
    try {
      const { config } = await expressState(request, user);
      if (config) await updateCheckout(user.id, config.packageTypes, () => ({ set: { addressId: saved.id }, result: null }));
    } catch (error) {
      log("warn", "checkout-address", { error: String(error) });
    }
  }
  throw redirect(marketHref({ sheet: "address" }));
}

/** The no-JS screenshot form: up to 3 images in one multipart post, read one after another. */
async function recognizeUploads(request: Request, clientIp?: string): Promise<Response | MarketActionData> {
  const intent = "recognize-image";
  const user = await requireMarketUser(request);
  const config = await configFor(user, request);
  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_IMAGE_BYTES, filter: ({ name }) => name === "images" }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return Response.json({ intent, error: m.recognize.imageTooLarge } satisfies MarketActionData, { status: 413 });
    return Response.json({ intent, error: m.recognize.uploadFailed } satisfies MarketActionData, { status: 400 });
  }
  const files = formData.getAll("images").filter((file): file is File => typeof file !== "string" && file.size > 0);
  if (files.length === 0) return Response.json({ intent, error: m.recognize.notImage } satisfies MarketActionData, { status: 400 });
  if (files.length > MAX_IMAGES) return Response.json({ intent, error: m.recognize.tooManyImages } satisfies MarketActionData, { status: 400 });
  const verdict = await consumeRateLimit("recognize-image", { userId: user.id, ip: clientIp }, files.length);
  if (!verdict.ok) return Response.json({ intent, error: verdict.message } satisfies MarketActionData, { status: 429, headers: verdict.headers });
  const found: ReturnType<typeof recognizeText> = [];
  for (const file of files) {
    const outcome = await recognizeImage(new Uint8Array(await file.arrayBuffer()), { owner: String(user.id), signal: request.signal });
    if (!outcome.ok) {
      return Response.json({ intent, error: outcome.message } satisfies MarketActionData, { status: outcome.status, headers: outcomeHeaders(outcome) });
    }
    found.push(...outcome.entries);
  }
  const { result } = await updateCheckout(user.id, config.packageTypes, (current) => {
    const merged = mergeRecognized(current.entries, found, "image", newEntryId);
    return { set: merged.added > 0 ? { entries: merged.entries } : null, result: merged };
  });
  return recognitionAnswer(intent, found.length, result.duplicates);
}

