// What the operators' order page reads: the list (a status group, a campus, a search, newest
// first, ADMIN_PAGE_SIZE more per 'load more'), the count per tab, the daily summary, the campus
// list and the CSV export. Soft-deleted orders are never listed, counted, found or exported.
//
// Every query is served by an index (0007_orders, 0009_admin; a test reads SQLite's plans):
//   a group       orders_admin_status_idx (status, deleted_at, created_at)
//   + a campus    orders_admin_campus_idx (campus_code, status, deleted_at, created_at)
//   all groups    orders_created_idx (created_at), or orders_admin_campus_all_idx (campus_code, created_at)
//   counts        order_counts (kept by triggers, 0010), a few rows per campus; within a
//                 search, the found ids by primary key
//   a slot        orders_slot_created_idx (estimated_delivery_at, created_at), its counts by the same
//   search        the order number's unique index, orders_recipient_name_idx,
//                 orders_recipient_phone_idx, and for pickup codes the last PICKUP_SEARCH_DAYS
//                 of orders_created_idx; the list then reads the matching ids by primary key
//   summary       orders_paid_idx (paid_at) for today's orders
import { storedCounts } from "~/lib/package-counts";
import { orderAddress } from "~/lib/address";
import { sql } from "kysely";
import {
  ADMIN_PAGE_SIZE,
  COURIER_STEPS,
  EXPORT_MAX_ROWS,
  PICKUP_SEARCH_DAYS,
  SEARCH_MAX_MATCHES,
  readSearch,
  type CourierStep,
  type SearchTerm,
} from "~/lib/admin-orders";
import { DEFAULT_PACKAGE_TYPES, PACKAGE_TYPE_KEYS } from "~/lib/catalog";
import {
  ORDER_GROUPS,
  STATUS_TABLE,
  adminActions,
  canAdvance,
  isLate,
  orderView,
  statusesOf,
  type AdminAction,
  type OrderGroup,
  type OrderState,
  type OrderStatus,
} from "~/lib/order-status";
import { formatYuan } from "~/lib/money";
import { deliverableCounts, type SizeCounts } from "~/lib/order-ledger";
import { parsePickupCodes } from "~/lib/orders";
import { formatShanghai, shanghaiToday } from "~/lib/time";
import { adminOrderData } from "~/lib/messages/adminOrderData";
import { adminOps } from "~/lib/messages/adminOps";
import { fillTemplate } from "~/lib/template";
import { db } from "../db/db.server";
import { dailyLedger } from "../orders/invariants.server";
import { slotBoard } from "../orders/slots.server";
import type { OrderRow } from "../orders/events.server";
import type { OrderSupplementsTable } from "../db/schema";

export type AdminFilter = {
  group: OrderGroup | null;
  campus: string | null;
  /** A delivery slot's promised instant (orders_slot_created_idx). */
  slot?: string | null;
  /** The search box as typed (empty: no search). */
  q: string;
};

/** An order as the operator's card shows it, with what the operator may do now. */
export type AdminOrderCard = {
  orderNumber: string;
  status: OrderStatus;
  label: string;
  group: OrderGroup;
  groupLabel: string;
  refundLabel: string | null;
  paid: boolean;
  campusName: string;
  dorm: string | null;
  room: string | null;
  /** The order's address snapshot, as the customer's page shows it. */
  address: string;
  recipientName: string | null;
  recipientPhone: string | null;
  pickup: { company: string; code: string | null; trackingNumber: string | null; station: string | null; deadline: string | null }[];
  pickupDeadline: string | null;
  parcels: { type: string; name: string; count: number }[];
  parcelCount: number;
  amountText: string;
  remark: string | null;
  createdAt: string;
  createdText: string;
  actions: AdminAction[];
  steps: { to: CourierStep; label: string }[];
  /** The rider's proof photo of the delivery (operators only, decision 047), or null. */
  deliveryPhotoUrl: string | null;
};

/** What a card says of an order's supplement (a size found wrong at pickup). */
export type CardSupplement = Pick<OrderSupplementsTable, "order_id" | "state" | "declared_size" | "real_size" | "amount_fen" | "missing_at">;

/** The supplements of the cards' orders (the unique order_id index). */
export async function cardSupplements(orderIds: number[]): Promise<Map<number, CardSupplement>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db()
    .selectFrom("order_supplements")
    .select(["order_id", "state", "declared_size", "real_size", "amount_fen", "missing_at"])
    .where("order_id", "in", orderIds)
    .where("state", "!=", "void")
    .execute();
  return new Map(rows.map((row) => [row.order_id, row]));
}

function supplementState(order: Pick<OrderRow, "status">, supplement: CardSupplement) {
  const s = adminOps.supplement;
  if (supplement.state === "offered") return s.offered;
  if (supplement.state === "declined") return s.declined;
  // Paid: given back when its parcel was not delivered (S4) or with its order (S2).
  return supplement.missing_at || order.status === "refunded" || order.status === "cancelled" ? s.refunded : s.paid;
}

/** The amount, and the supplement beside it (server text: the card's JavaScript stays as it is). */
function amountTextOf(order: OrderRow, supplement: CardSupplement | undefined) {
  const amount = formatYuan(order.amount_fen, { style: "amount", symbol: true });
  if (!supplement) return amount;
  return fillTemplate(adminOps.supplement.card, {
    amount,
    supplement: formatYuan(supplement.amount_fen, { style: "amount", symbol: true }),
    declared: TYPE_NAMES[supplement.declared_size] ?? supplement.declared_size,
    real: TYPE_NAMES[supplement.real_size] ?? supplement.real_size,
    state: supplementState(order, supplement),
  });
}

/**
 * The card of one order for its panel. On 配送失败's form, a supplement still to be delivered
 * (offered or paid) adds a row of its own: whether the supplemented parcel is among the missing
 * (S4; the form's field missing_supplement).
 */
export async function panelCard(order: OrderRow, panel: string | null): Promise<AdminOrderCard> {
  const supplement = (await cardSupplements([order.id])).get(order.id);
  const card = toCard(order, supplement);
  if (panel !== "fail" || !supplement) return card;
  if (supplement.state === "declined") {
    // The parcel left at the station is not one the failure can name (S3, deliverableCounts).
    const counts = deliverableCounts(storedCounts(order.package_counts), supplement.declared_size as keyof SizeCounts);
    return { ...card, parcels: card.parcels.map((row) => ({ ...row, count: counts[row.type as keyof SizeCounts] ?? row.count })).filter((row) => row.count > 0) };
  }
  if (supplement.state !== "offered" && supplement.state !== "paid") return card;
  const row = {
    type: "supplement",
    name: fillTemplate(adminOps.supplement.missingParcel, { declared: TYPE_NAMES[supplement.declared_size] ?? supplement.declared_size, real: TYPE_NAMES[supplement.real_size] ?? supplement.real_size }),
    count: 1,
  };
  return { ...card, parcels: [...card.parcels, row] };
}

const TYPE_NAMES = Object.fromEntries(DEFAULT_PACKAGE_TYPES.map((type) => [type.type, type.name])) as Record<string, string>;


export function stateOfRow(order: Pick<OrderRow, "status" | "payment_status" | "refund_state">): OrderState {
  return { status: order.status, paymentStatus: order.payment_status, refundState: order.refund_state };
}

export function toCard(order: OrderRow, supplement?: CardSupplement): AdminOrderCard {
  const state = stateOfRow(order);
  const view = orderView(state);
  return {
    orderNumber: order.order_number,
    status: order.status,
    // 已超时 beside the status while the promise has passed and the delivery is still to come.
    label: isLate(state, order.estimated_delivery_at) ? `${view.label} · ${adminOps.late}` : view.label,
    group: view.group,
    groupLabel: view.groupLabel,
    refundLabel: view.refundLabel,
    paid: order.payment_status === "paid",
    campusName: order.campus_name,
    dorm: order.recipient_dorm,
    room: order.recipient_room,
    address: orderAddress(order),
    recipientName: order.recipient_name,
    recipientPhone: order.recipient_phone,
    pickup: parsePickupCodes(order.pickup_codes).map(({ company, code, trackingNumber, station, deadline }) => ({ company, code, trackingNumber, station, deadline })),
    /** The earliest station deadline of the order's parcels (ISO), for the courier's order of work. */
    pickupDeadline: order.pickup_deadline,
    parcels: Object.entries(storedCounts(order.package_counts)).filter(([, count]) => count > 0).map(([type, count]) => ({ type, name: TYPE_NAMES[type] ?? type, count })),
    parcelCount: order.parcel_count,
    amountText: amountTextOf(order, supplement),
    remark: order.remark,
    createdAt: order.created_at,
    createdText: formatShanghai(order.created_at),
    actions: adminActions(state),
    steps: COURIER_STEPS.filter((to) => canAdvance(state, to)).map((to) => ({ to, label: STATUS_TABLE[to].label })),
    deliveryPhotoUrl: order.delivery_photo ? `/admin/orders/${order.order_number}/photo` : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Search

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * The ids of the orders a search term finds: by order number, recipient name or phone (exact,
 * each by its index); among the orders of the last PICKUP_SEARCH_DAYS (orders_created_idx, so a
 * bounded range whatever the history), by the phone's last four digits, or by part of a pickup
 * code, tracking number or station (the text must be in a pickup item's code, tracking number or
 * station, not just anywhere in the stored text).
 */
export async function searchOrderIds(term: SearchTerm, at = new Date()): Promise<number[]> {
  const base = () => db().selectFrom("orders").select("id").where("deleted_at", "is", null);
  const since = new Date(at.getTime() - PICKUP_SEARCH_DAYS * 86_400_000).toISOString();
  const queries: Promise<{ id: number }[]>[] = [base().where("recipient_name", "=", term.text).limit(SEARCH_MAX_MATCHES).execute()];
  if (term.orderNumber) queries.push(base().where("order_number", "=", term.orderNumber).execute());
  if (term.phone) queries.push(base().where("recipient_phone", "=", term.phone).limit(SEARCH_MAX_MATCHES).execute());
  if (term.phoneTail) {
    queries.push(
      base()
        .where("created_at", ">=", since)
        .where("recipient_phone", "like", `%${term.phoneTail}`)
        .orderBy("created_at", "desc")
        .limit(SEARCH_MAX_MATCHES)
        .execute(),
    );
  }
  let pickup: Promise<number[]> = Promise.resolve([]);
  if (term.pickup) {
    const needle = term.pickup.toLowerCase();
    pickup = db()
      .selectFrom("orders")
      .select(["id", "pickup_codes"])
      .where("created_at", ">=", since)
      .where("deleted_at", "is", null)
      .where(sql<boolean>`lower(pickup_codes) like ${`%${escapeLike(needle)}%`} escape '\\'`)
      .orderBy("created_at", "desc")
      .limit(SEARCH_MAX_MATCHES)
      .execute()
      .then((rows) =>
        rows
          .filter((row) =>
            parsePickupCodes(row.pickup_codes).some(
              (item) => item.code?.toLowerCase().includes(needle) || item.trackingNumber?.toLowerCase().includes(needle) || item.station?.toLowerCase().includes(needle),
            ),
          )
          .map((row) => row.id),
      );
  }
  const [lists, pickupIds] = await Promise.all([Promise.all(queries), pickup]);
  const ids = new Set<number>([...lists.flat().map((row) => row.id), ...pickupIds]);
  return [...ids].slice(0, SEARCH_MAX_MATCHES);
}

// ---------------------------------------------------------------------------------------------
// The list and the counts

type Scope = { campus: string | null; ids: number[] | null; slot?: string | null };

/** The filtered list's base query (not deleted, a campus, the search's ids). */
function scoped(scope: Scope) {
  let query = db().selectFrom("orders").where("deleted_at", "is", null);
  if (scope.campus) query = query.where("campus_code", "=", scope.campus);
  if (scope.slot) query = query.where("estimated_delivery_at", "=", scope.slot);
  if (scope.ids) query = query.where("id", "in", scope.ids);
  return query;
}

async function scopeOf(filter: AdminFilter, at: Date): Promise<Scope> {
  const term = readSearch(filter.q);
  return { campus: filter.campus, slot: filter.slot ?? null, ids: term ? await searchOrderIds(term, at) : null };
}

/** The list's query: the group's statuses, newest first (exported for the query-plan test). */
export function listQuery(scope: Scope, group: OrderGroup | null, limit: number) {
  let query = scoped(scope).selectAll();
  if (group) {
    const statuses = statusesOf(group);
    query = statuses.length === 1 ? query.where("status", "=", statuses[0]!) : query.where("status", "in", statuses);
  }
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit);
}

export function countsQuery(scope: Scope) {
  return scoped(scope)
    .select(["status", (eb) => eb.fn.countAll<number | string>().as("n")])
    .groupBy("status");
}

/**
 * The live orders per status without a search: read from order_counts (kept by triggers in the
 * transaction of every change), so the tabs cost the same whatever the size of the history.
 */
export function storedCountsQuery(campus: string | null) {
  let query = db()
    .selectFrom("order_counts")
    .select(["status", (eb) => eb.fn.sum<number | string>("n").as("n")])
    .groupBy("status");
  if (campus) query = query.where("campus_code", "=", campus);
  return query;
}

export type GroupCounts = Record<OrderGroup | "all", number>;

export async function groupCounts(scope: Scope): Promise<GroupCounts> {
  const counts = Object.fromEntries([...ORDER_GROUPS, "all"].map((group) => [group, 0])) as GroupCounts;
  if (scope.ids && scope.ids.length === 0) return counts;
  // A search or a slot counts its own rows (a few hundred at most); otherwise the kept counts.
  for (const row of await (scope.ids || scope.slot ? countsQuery(scope) : storedCountsQuery(scope.campus)).execute()) {
    const group = STATUS_TABLE[row.status]?.group;
    if (!group) continue;
    counts[group] += Number(row.n);
    counts.all += Number(row.n);
  }
  return counts;
}

export type AdminOrderPage = { items: AdminOrderCard[]; more: boolean; counts: GroupCounts; searched: boolean };

/** The first `pages` × ADMIN_PAGE_SIZE orders of a filter, and the count of every tab. */
export async function adminOrderPage(filter: AdminFilter, pages: number, at = new Date()): Promise<AdminOrderPage> {
  const scope = await scopeOf(filter, at);
  const limit = pages * ADMIN_PAGE_SIZE;
  const searched = scope.ids !== null;
  if (scope.ids && scope.ids.length === 0) return { items: [], more: false, counts: await groupCounts(scope), searched };
  const [rows, counts] = await Promise.all([listQuery(scope, filter.group, limit + 1).execute(), groupCounts(scope)]);
  const shown = rows.slice(0, limit);
  const supplements = await cardSupplements(shown.map((row) => row.id));
  return { items: shown.map((row) => toCard(row, supplements.get(row.id))), more: rows.length > limit, counts, searched };
}

/** One order that is not deleted, by its number. */
export async function findLiveOrder(orderNumber: string): Promise<OrderRow | undefined> {
  return db().selectFrom("orders").selectAll().where("order_number", "=", orderNumber).where("deleted_at", "is", null).executeTakeFirst();
}

/**
 * The slot filter's choices: every delivery still to come today and tomorrow (with the places
 * taken of a campus's capacity), and the slot in the URL when it is an earlier one.
 */
export async function slotOptions(campus: string | null, current: string | null, at = new Date()) {
  const s = adminOps.slots;
  const board = await slotBoard(campus, at);
  const options = board.map((slot) => {
    const option = fillTemplate(s.option, { day: slot.dayOffset === 0 ? s.today : s.tomorrow, time: slot.time });
    return { value: slot.at, label: slot.capacity === null ? option : fillTemplate(s.load, { option, taken: slot.taken, capacity: slot.capacity }) };
  });
  if (current && !options.some((option) => option.value === current)) options.unshift({ value: current, label: formatShanghai(current) });
  return { label: s.label, options: [{ value: "", label: s.all }, ...options] };
}

/** Orders paid after `since` and not deleted (orders_paid_idx): the admin pages' new-order badge. */
export async function paidSinceCount(since: string): Promise<number> {
  const row = await db()
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("paid_at", ">", since)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function campusOptions() {
  return db().selectFrom("campuses").select(["code", "name"]).orderBy("sort_order").orderBy("code").execute();
}

// ---------------------------------------------------------------------------------------------
// The daily summary

export type DailySummary = {
  day: string;
  /** Orders paid today (refunded ones included: they were paid). */
  orders: number;
  /** What today's orders paid; refundsFen of it went back (or is on its way back). */
  receivedFen: number;
  refundsFen: number;
  /** 今日收入: received − refunds = earnedFen (delivered) + liveFen (still to deliver). */
  revenueFen: number;
  earnedFen: number;
  liveFen: number;
  /** The revenue as the page shows it (formatted here, so the list's JavaScript carries no money code). */
  revenueText: string;
  /** "收款 ¥a − 退款 ¥b = ¥c（已完成 ¥d · 待完成 ¥e）": the figures adding up. */
  breakdownText: string;
  byCampus: { code: string; name: string; orders: number; revenueFen: number; revenueText: string }[];
  parcels: { name: string; count: number }[];
  /** Orders in progress (paid, waiting to be delivered), any day. */
  pending: number;
  /** Refund requests waiting for an operator. */
  refundRequests: number;
};

const amount = (fen: number) => formatYuan(fen, { style: "amount", symbol: true });

/**
 * Today in Shanghai, from the daily ledger (decision 030, I6): the orders paid today, what they
 * paid, what went back, and what is left — delivered or still to deliver — so the figures add up
 * (the campus lines to the totals, received − refunds to the revenue); the parcels of the orders
 * that stand; the in-progress count and the waiting refund requests.
 */
export async function dailySummary(at = new Date()): Promise<DailySummary> {
  const day = shanghaiToday(at);
  const [ledger, pending, refunds] = await Promise.all([
    dailyLedger(day),
    db()
      .selectFrom("order_counts")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("n"), eb.val(0)).as("n"))
      .where("status", "in", statusesOf("in_progress"))
      .executeTakeFirstOrThrow(),
    db()
      .selectFrom("refunds")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("state", "=", "requested")
      .executeTakeFirstOrThrow(),
  ]);
  const refundsFen = ledger.refundedFen + ledger.refundingFen;
  const revenueFen = ledger.receivedFen - refundsFen;
  const liveFen = ledger.heldFen - ledger.refundingFen;
  return {
    day,
    orders: ledger.orders,
    receivedFen: ledger.receivedFen,
    refundsFen,
    revenueFen,
    earnedFen: ledger.earnedFen,
    liveFen,
    revenueText: amount(revenueFen),
    breakdownText: fillTemplate(adminOrderData.summary.breakdown, {
      received: amount(ledger.receivedFen),
      refunds: amount(refundsFen),
      revenue: amount(revenueFen),
      earned: amount(ledger.earnedFen),
      live: amount(liveFen),
    }),
    byCampus: ledger.byCampus.map((campus) => {
      const fen = campus.receivedFen - campus.refundedFen - campus.refundingFen;
      return { code: campus.code, name: campus.name, orders: campus.orders, revenueFen: fen, revenueText: amount(fen) };
    }),
    parcels: PACKAGE_TYPE_KEYS.filter((type) => ledger.parcels[type]).map((type) => ({ name: TYPE_NAMES[type] ?? type, count: ledger.parcels[type]! })),
    pending: Number(pending.n),
    refundRequests: Number(refunds.n),
  };
}

// ---------------------------------------------------------------------------------------------
// Export

/** The filtered orders for the CSV (newest first, at most EXPORT_MAX_ROWS). */
export async function exportOrders(filter: AdminFilter, at = new Date()): Promise<OrderRow[]> {
  const scope = await scopeOf(filter, at);
  if (scope.ids && scope.ids.length === 0) return [];
  return listQuery(scope, filter.group, EXPORT_MAX_ROWS).execute();
}
