// What every market route reads (domain results, no Response): the campus selector's
// state, the campus's express config, the user's checkout, the campuses an address may name, and
// the text an anonymous visitor pasted before the messenger authorization. The routes under
// app/routes/market* turn "missing" answers into redirects.
import { appCookie } from "../http/cookies.server";
import { mergeRecognized } from "~/lib/pickup-entries";
import type { User } from "../auth/session.server";
import { campusConfig, clearCampusChoice, listCampuses } from "../campus/campus.server";
import { campusSelectorState } from "../campus/selector.server";
import { log } from "../log.server";
import { loadCheckout, newEntryId, updateCheckout, type Checkout } from "./checkout.server";
import { loadExpressConfig, type ExpressConfig, type ExpressConfigRefusal } from "./market-config.server";
import { recognizeText } from "./recognition.server";

export type SelectorState = Awaited<ReturnType<typeof campusSelectorState>>;

/**
 * Why the selector is open with no campus: the campus list could not be loaded
 * (`campus_list_failed`), or the chosen campus's express service is off or broken.
 */
export type MarketRefusal = "campus_list_failed" | ExpressConfigRefusal;

async function selectorState(request: Request, user: User | null): Promise<{ selector: SelectorState; refusal: MarketRefusal | null }> {
  try {
    return { selector: await campusSelectorState(request, user), refusal: null };
  } catch (error) {
    // Product rules: the list could not be loaded → the selector says so and asks for a refresh.
    log("error", "campus-list", { error: String(error) });
    const url = new URL(request.url);
    return { selector: { campuses: [], current: null, asked: false, open: true, refused: null, redirectTo: url.pathname + url.search }, refusal: "campus_list_failed" };
  }
}

/**
 * The selector, the chosen campus's express config and whether it is the fallback defaults. A
 * campus whose service is missing or broken is dropped (setCookie clears the choice) and the
 * selector reopens; `refusal` says why (the route words it).
 */
export async function expressState(request: Request, user: User | null) {
  const { selector, refusal } = await selectorState(request, user);
  if (!selector.current) return { selector, refusal, config: null, fallback: false, setCookie: null };
  const result = await loadExpressConfig(selector.current.code);
  if (result.ok) return { selector, refusal, config: result.config, fallback: result.fallback, setCookie: null };
  const setCookie = await clearCampusChoice(user);
  return { selector: { ...selector, current: null, open: true }, refusal: result.reason, config: null, fallback: false, setCookie };
}

/** The campus's config and the user's checkout; null when no campus (with its express service) is chosen. */
export async function checkoutState(request: Request, user: User): Promise<{ config: ExpressConfig; checkout: Checkout } | null> {
  const { config } = await expressState(request, user);
  if (!config) return null;
  return { config, checkout: await loadCheckout(user.id, config.packageTypes) };
}

/** The open campuses with their buildings; from the market, only the order's service campus (docs/architecture.md "Parcels"). */
export async function campusesWithBuildings(serviceCampus: string | null = null) {
  const campuses = (await listCampuses()).filter((campus) => campus.active && (!serviceCampus || campus.code === serviceCampus));
  return Promise.all(
    campuses.map(async (campus) => ({
      code: campus.code,
      name: campus.name,
      buildings: (await campusConfig(campus.code)).buildings.map((building) => building.name),
    })),
  );
}

/**
 * Text an anonymous visitor pasted survives the messenger authorization: kept for
 * 30 minutes in a signed cookie of their own browser, recognised into the checkout on return.
 * At most PENDING_SMS_MAX characters (a cookie holds about 4 KB).
 */
export const PENDING_SMS_MAX = 800;
function pendingSmsCookie() {
  return appCookie("__pending_sms", { path: "/market", maxAge: 30 * 60 });
}

/** The Set-Cookie value that keeps `text` until the visitor is back. */
export function keepPendingSms(text: string) {
  return pendingSmsCookie().serialize(text.slice(0, PENDING_SMS_MAX));
}

/** Recognises a kept text into the checkout of a user who is back; answers the Set-Cookie that drops it (null: nothing kept). */
export async function recognizePendingSms(request: Request, user: User | null, config: ExpressConfig | null): Promise<string | null> {
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
