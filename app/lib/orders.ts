// Order rules that need no I/O: the order number, the pickup-code list as stored or as an older
// client sent it (a list or JSON text, with the product rules' field aliases), the delivery time as the
// customer reads it, review texts. Safe in the browser.
import { orderDialogs as orderDialogsMessages } from "~/lib/messages/order-dialogs";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { ORDER_NUMBER_PATTERN, PAY_RELOADS, RATING_MAX, RATING_MIN } from "./order-limits";
import { Common } from "~/lib/messages/common";
import { fillTemplate } from "./template";
import { addDays, shanghaiClock, shanghaiDate, shanghaiToday } from "./time";

const msg = { orders: ordersMessages, orderDialogs: orderDialogsMessages };


export function isOrderNumber(value: unknown): value is string {
  return typeof value === "string" && ORDER_NUMBER_PATTERN.test(value);
}

/** An order number for an order made at `at` (the Shanghai date) with six given digits (0–999999). */
export function orderNumber(at: Date, digits: number) {
  const day = shanghaiToday(at).replaceAll("-", "");
  return `E${day}${String(digits).padStart(6, "0")}`;
}

/** Product rules: a missing id or the text 'undefined' is an 'invalid order ID'. */
export function isInvalidOrderParam(value: string | undefined | null) {
  return !value || value === "undefined" || value === "null";
}

/**
 * The messenger's share card of an order, shown to whoever the owner sends it to: the service, the
 * number of parcels and the status. Never the pickup codes (they take the parcels), the phone, the
 * address or the remark; the link opens for its owner only (another student gets the 404).
 */
export function orderShareCard(order: { service_name: string; parcel_count: number; statusLabel: string }, path: string) {
  return {
    title: msg.orders.share.title,
    desc: fillTemplate(msg.orders.share.desc, {
      service: order.service_name,
      parcels: fillTemplate(Common.parcelCount, { count: order.parcel_count }),
      status: order.statusLabel,
    }),
    link: path,
  };
}

export { DEFAULT_RATING, ORDER_NUMBER_PATTERN, PAY_RELOADS, RATING_MAX, RATING_MIN, REASON_MAX, REVIEW_COMMENT_MAX, UNPAID_ORDER_TTL_MS } from "./order-limits";

/** '非常不满意' … '非常满意' for 1…5. */
export function ratingText(rating: number) {
  return msg.orderDialogs.reviewDialog.stars[Math.min(RATING_MAX, Math.max(RATING_MIN, Math.round(rating))) - 1];
}

export type PickupCodeItem = {
  company: string;
  code: string | null;
  trackingNumber: string | null;
  station: string | null;
  pickupType: string | null;
  /** The station's deadline as the SMS wrote it (当日7点前), and as an instant (ISO); null: none given. */
  deadline: string | null;
  deadlineAt: string | null;
  /** The recipient's phone tail on the label, when the SMS gave it. */
  phoneTail?: string | null;
};

function text(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed ? trimmed : null;
}

/**
 * Pickup codes as stored (JSON text) or as given (a list): each item with company, code,
 * station and tracking number, read from the product rules' aliases (pickupCode/code/pickup_code,
 * stationName/station_name/location, trackingNumber/tracking_number). Anything else is dropped.
 */
export function parsePickupCodes(value: unknown): PickupCodeItem[] {
  let list = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  const items: PickupCodeItem[] = [];
  for (const raw of list) {
    if (!raw || typeof raw !== "object") continue;
    const item = raw as Record<string, unknown>;
    const codes = Array.isArray(item.pickup_codes) ? item.pickup_codes : [];
    const code = text(item.pickupCode) ?? text(item.code) ?? text(item.pickup_code) ?? text(item.pickup_credential) ?? text(codes[0]);
    const trackingNumber = text(item.trackingNumber) ?? text(item.tracking_number);
    const station = text(item.stationName) ?? text(item.station_name) ?? text(item.location);
    if (!code && !trackingNumber && !station) continue;
    const deadlineAt = text(item.deadlineAt);
    const tail = text(item.phoneTail);
    items.push({
      company: text(item.company) ?? "",
      code,
      trackingNumber,
      station,
      pickupType: text(item.pickupType) ?? text(item.pickup_type),
      deadline: text(item.deadline)?.slice(0, 32) ?? null,
      deadlineAt: deadlineAt && !Number.isNaN(Date.parse(deadlineAt)) ? deadlineAt : null,
      phoneTail: tail && /^\d{4}$/.test(tail) ? tail : null,
    });
  }
  return items;
}

/** '今天 13:30', '明天 13:30', or '3月2日 13:30' for the promised delivery, seen from `now`. */
export function deliveryText(estimatedAt: string, now: Date = new Date()) {
  const at = new Date(estimatedAt);
  const day = shanghaiToday(at);
  const local = shanghaiDate(at);
  const time = shanghaiClock(at);
  const today = shanghaiToday(now);
  if (day === today) return `${msg.orders.today} ${time}`;
  if (day === addDays(today, 1)) return `${msg.orders.tomorrow} ${time}`;
  return `${fillTemplate(msg.orders.dayMonth, { month: local.month, day: local.day })} ${time}`;
}

/** `?paying=n` (1–10): the page reloads itself while the payment is confirmed without JavaScript; 0 otherwise. */
export function payingParam(url: URL, pending: boolean) {
  const value = Number.parseInt(url.searchParams.get("paying") ?? "", 10);
  return pending && value >= 1 && value <= PAY_RELOADS ? value : 0;
}
