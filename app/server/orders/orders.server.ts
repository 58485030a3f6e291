// Creating orders and reading them. Two front doors create an order — the market sheet's pay
// button (from the checkout kept on the server) and POST /api/express/order_create (the product rules'
// JSON shape) — and both end in insertOrder: re-validated input, prices recomputed from the
// campus config (pricing.server), one live order per checkout version (the idempotency key).
// Reads are always scoped by owner: another user's order number is simply not found.
import crypto from "node:crypto";
import { composeAddress } from "~/lib/address";
import { DEFAULT_PACKAGE_TYPES, PACKAGE_TYPE_KEYS } from "~/lib/catalog";
import { estimateDelivery } from "~/lib/delivery-slot";
import { orderPage as orderPageMessages } from "~/lib/messages/order-page";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { isLate, orderView, statusesOf, type OrderState, type OrderStatus } from "~/lib/order-status";
import { fillTemplate } from "~/lib/service-hours";
import { UNPAID_ORDER_TTL_MS, deliveryText, orderNumber, parsePickupCodes, ratingText } from "~/lib/orders";
import { countsFromClient, storedCounts, totalParcels, type PackageCounts } from "~/lib/package-counts";
import { entryFromInput, entryHoldsOneCode, MAX_ENTRIES, sameParcel } from "~/lib/pickup-entries";
import { RecipientSchema, type OrderCreateBody } from "~/lib/schemas/orders";
import { formatShanghai } from "~/lib/time";
import { fenToYuan, formatYuan } from "~/lib/money";
import { priceVersion } from "~/lib/order-ledger";
import type { User } from "../auth/session.server";
import { db, now, type Executor } from "../db/db.server";
import { compiledOnce } from "../db/compiled.server";
import { listAddresses } from "../market/addresses.server";
import { loadCheckout, lockCheckout, takeParcelsOut } from "../market/checkout.server";
import { loadDeliverySchedule, loadExpressConfig, type ExpressConfig, type ExpressConfigRefusal } from "../market/market-config.server";
import { log } from "../log.server";
import { recordEvent, type OrderRow } from "./events.server";
import { unitPricesOf } from "./order-prices.server";
import { priceOrder } from "./pricing.server";
import { reserveOrderCoupon } from "../coupons/order-hook.server";
import { deadlineAt, earliestDeadline } from "~/lib/pickup-deadline";
import { applyPaid, applyReviewed, checkoutIdempotencyKey } from "./transitions.server";

const msg = { orders: ordersMessages, orderPage: orderPageMessages };

/** While a rider has the order (assigned, picking up, delivering) the student sees the handover code. */
const HANDOVER_STATUSES: readonly OrderStatus[] = ["assigned", "picking", "delivering"];

export type { OrderRow } from "./events.server";

/**
 * Why an order was not made: no messenger identity, the sheet showed an older checkout, the list
 * or address does not pass the checkout's rules, a parcel is in a live order already, the price
 * changed since the student confirmed it, the campus's service is off or broken (its config's
 * refusal), no live config to price with (`unpriced`), or an unexpected error (`failed`).
 */
export type CreateOrderRefusal =
  | "need_messenger"
  | "stale"
  | "empty_list"
  | "need_address"
  | "address_campus"
  | "address_not_served"
  | "too_many_parcels"
  | "one_code"
  | "duplicate_parcel"
  | "counts_mismatch"
  | "parcel_in_live_order"
  | "price_changed"
  | "unpriced"
  | "failed"
  | ExpressConfigRefusal;

export type CreateOrderResult =
  | { ok: true; orderNumber: string; created: boolean; amountFen: number }
  /** `liveOrder`: the live order that already holds one of these parcels; `priceChanged`: the new total to confirm. */
  | { ok: false; reason: CreateOrderRefusal; liveOrder?: string; priceChanged?: { amountFen: number } };

/** A parcel as the order stores it; the station's deadline and the label's phone tail are for the rider's lists. */
type PickupItem = { company: string; pickupCode: string | null; trackingNumber: string | null; stationName: string; pickupType: string; deadline?: string | null; phoneTail?: string | null };

type OrderInput = {
  userId: number;
  config: ExpressConfig;
  items: PickupItem[];
  counts: PackageCounts;
  recipient: { name: string; phone: string; campusName: string; building: string; room: string };
  remark: string;
  checkout: { id: number; version: number };
  /** The price version the student confirmed (the sheet's); absent: no sheet (the JSON API). */
  priceVersion?: string;
  at: Date;
};

const fail = (reason: CreateOrderRefusal): CreateOrderResult => ({ ok: false, reason });

async function findByKey(key: string) {
  return db().selectFrom("orders").select(["order_number", "amount_fen"]).where("idempotency_key", "=", key).executeTakeFirst();
}

/** The campus's live config for pricing: never the fallback defaults of a failed load. */
async function pricingConfig(campusCode: string | null): Promise<ExpressConfig | CreateOrderRefusal> {
  if (!campusCode) return "unpriced";
  const result = await loadExpressConfig(campusCode);
  if (!result.ok) return result.reason;
  if (result.fallback) return "unpriced";
  return result.config;
}

/**
 * The address an order from the checkout goes to: the one chosen, else the default one, else
 * (when those are on another campus) the service campus's default or first one.
 */
export function pickAddress<A extends { id: number; isDefault: boolean; campusCode: string }>(addresses: A[], chosenId: number | null, campusCode: string): A | undefined {
  const chosen = addresses.find((item) => item.id === chosenId);
  if (chosen) return chosen;
  const onCampus = addresses.filter((item) => item.campusCode === campusCode);
  return onCampus.find((item) => item.isDefault) ?? onCampus[0] ?? addresses.find((item) => item.isDefault);
}

/**
 * The market sheet's pay button: the user's checkout as stored on the server (parcels, counts,
 * the chosen or default address, remark), under the campus the page shows. `key` is the checkout
 * id and version the sheet was showing.
 */
export async function createOrderFromCheckout(
  user: User,
  campusCode: string | null,
  key: { checkoutId: number; version: number; priceVersion?: string },
): Promise<CreateOrderResult> {
  if (!user.openid) return fail("need_messenger");
  try {
    const existing = await findByKey(checkoutIdempotencyKey(user.id, key.checkoutId, key.version));
    if (existing) return { ok: true, orderNumber: existing.order_number, created: false, amountFen: existing.amount_fen };
    const config = await pricingConfig(campusCode);
    if (typeof config === "string") return fail(config);
    const checkout = await loadCheckout(user.id, config.packageTypes);
    if (checkout.id !== key.checkoutId || checkout.version !== key.version) {
      // A parallel submission of the same version may have made the order meanwhile (and moved the version on).
      const made = await findByKey(checkoutIdempotencyKey(user.id, key.checkoutId, key.version));
      if (made) return { ok: true, orderNumber: made.order_number, created: false, amountFen: made.amount_fen };
      return fail("stale");
    }
    if (checkout.entries.length === 0) return fail("empty_list");
    const addresses = await listAddresses(user.id);
    const address = pickAddress(addresses, checkout.addressId, config.campusCode);
    if (!address) return fail("need_address");
    // docs/architecture.md "Parcels": the address is on the order's service campus, never relabelled.
    if (address.campusCode !== config.campusCode) return fail("address_campus");
    // An operator may turn a building off (admin reference data): no new deliveries there.
    if (!config.buildings.includes(address.building)) return fail("address_not_served");
    return await insertOrder({
      userId: user.id,
      config,
      // insertOrder keeps only the parcel's fields of each entry.
      items: checkout.entries,
      counts: checkout.counts,
      recipient: { name: address.name, phone: address.phone, campusName: address.campusName, building: address.building, room: address.room },
      remark: checkout.remark,
      checkout: { id: checkout.id, version: checkout.version },
      priceVersion: key.priceVersion,
      at: new Date(),
    });
  } catch (error) {
    log("error", "order-create", { error: String(error) });
    return fail("failed");
  }
}

/**
 * POST /api/express/order_create: the product rules' body. The list, counts and recipient come from the
 * request (checked as the sheet checks them); prices from the campus config; the idempotency
 * key from the user's checkout (or the checkout_id/checkout_version the body names).
 */
export async function createOrderFromRequest(user: User, body: OrderCreateBody): Promise<CreateOrderResult> {
  if (!user.openid) return fail("need_messenger");
  try {
    const config = await pricingConfig(body.campus_code ?? user.campus_code);
    if (typeof config === "string") return fail(config);
    const checkout = await loadCheckout(user.id, config.packageTypes);
    const checkoutId = body.checkout_id ?? checkout.id;
    const version = body.checkout_version ?? checkout.version;
    const existing = await findByKey(checkoutIdempotencyKey(user.id, checkoutId, version));
    if (existing) return { ok: true, orderNumber: existing.order_number, created: false, amountFen: existing.amount_fen };
    if (checkoutId !== checkout.id || version !== checkout.version) return fail("stale");

    const recipient = RecipientSchema.safeParse({
      name: body.recipient_name,
      phone: body.recipient_phone,
      building: body.recipient_dorm,
      room: body.recipient_room,
    });
    if (!recipient.success) return fail("need_address");
    const campusNamed = body.recipient_campus;
    if (!config.buildings.includes(recipient.data.building) || (campusNamed && campusNamed !== config.campusName && campusNamed !== config.campusCode)) {
      return fail("address_campus");
    }
    const list = body.expressCheckoutList ?? [];
    if (list.length > MAX_ENTRIES) return fail("too_many_parcels");
    const items = list.map(entryFromInput).filter((entry): entry is NonNullable<typeof entry> => entry !== null);
    if (items.length === 0) return fail("empty_list");
    if (!items.every(entryHoldsOneCode)) return fail("one_code");
    if (items.some((item, index) => items.findIndex((other) => sameParcel(other, item)) !== index)) return fail("duplicate_parcel");
    // docs/architecture.md "Parcels": the counts add up to the parcels; never repaired into a cheaper order.
    const counts = countsFromClient(body.expressPackageCounts, config.packageTypes, items.length);
    if (!counts) return fail("counts_mismatch");
    // A body without checkout_version takes the key from the checkout as it is now. A replay of
    // a call that already made its order finds the checkout one version on, so it would meet its
    // own order as a clash: the order from the version before, with exactly these parcels and
    // counts, is that same submission.
    if (body.checkout_version === undefined && version > 1) {
      const replayed = await sameSubmission(checkoutIdempotencyKey(user.id, checkoutId, version - 1), items, counts);
      if (replayed) return { ok: true, orderNumber: replayed.order_number, created: false, amountFen: replayed.amount_fen };
    }
    return await insertOrder({
      userId: user.id,
      config,
      items,
      counts,
      recipient: { ...recipient.data, campusName: config.campusName },
      remark: (body.remark ?? "").trim().slice(0, 200),
      checkout: { id: checkoutId, version },
      at: new Date(),
    });
  } catch (error) {
    log("error", "order-create", { error: String(error) });
    return fail("failed");
  }
}

/** An order's stored parcels in the shape the parcel comparison reads. */
function parcelsOf(pickupCodes: string | null) {
  return parsePickupCodes(pickupCodes).map((parcel) => ({ pickupCode: parcel.code, trackingNumber: parcel.trackingNumber, stationName: parcel.station }));
}

/** The order made under `key`, when it holds exactly `items` in `counts`; else undefined. */
async function sameSubmission(key: string, items: PickupItem[], counts: PackageCounts) {
  const order = await db().selectFrom("orders").select(["order_number", "amount_fen", "pickup_codes", "package_counts"]).where("idempotency_key", "=", key).executeTakeFirst();
  if (!order) return undefined;
  const held = parcelsOf(order.pickup_codes);
  const sameParcels = held.length === items.length && items.every((item) => held.some((parcel) => sameParcel(parcel, item)));
  const stored = storedCounts(order.package_counts);
  const sameCounts = PACKAGE_TYPE_KEYS.every((type) => stored[type] === counts[type]);
  return sameParcels && sameCounts ? order : undefined;
}

async function insertOrder(input: OrderInput): Promise<CreateOrderResult> {
  // Each parcel keeps the station's deadline as the SMS wrote it and as an instant read at the
  // order's time; the order carries the earliest (pickup_deadline, for lists that sort by it).
  // The label's phone tail goes with it: the rider compares it with the recipient's phone.
  const stored = input.items.map(({ company, pickupCode, trackingNumber, stationName, pickupType, deadline, phoneTail }) => ({
    company,
    pickupCode,
    trackingNumber,
    stationName,
    pickupType,
    deadline: deadline ?? null,
    deadlineAt: deadlineAt(deadline, input.at),
    phoneTail: phoneTail ?? null,
  }));
  const key = checkoutIdempotencyKey(input.userId, input.checkout.id, input.checkout.version);
  const schedule = await loadDeliverySchedule();
  const estimate = estimateDelivery(input.at, schedule);
  const counts = Object.fromEntries(PACKAGE_TYPE_KEYS.map((type) => [type, input.counts[type]])) as PackageCounts;
  const parcelCount = totalParcels(counts);
  if (parcelCount === 0) return fail("empty_list");
  // The rules both front doors end in (I3): as many counted parcels as parcels listed, one code per parcel.
  if (parcelCount !== input.items.length) return fail("counts_mismatch");
  if (!input.items.every(entryHoldsOneCode)) return fail("one_code");
  const at = input.at.toISOString();

  // A collision of the random six digits on the same day retries with new ones.
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const number = orderNumber(input.at, crypto.randomInt(1_000_000));
    const inserted = await db()
      .transaction()
      .execute(async (trx) => {
        await lockCheckout(trx, input.userId);
        // The same submission again (in parallel): the order it made, not a clash with itself.
        const made = await trx.selectFrom("orders").selectAll().where("idempotency_key", "=", key).executeTakeFirst();
        if (made) return made;
        const clash = await liveOrderHolding(trx, input.userId, input.items, input.at);
        if (clash) return { clash };
        const price = await priceOrder(trx, { userId: input.userId, counts, types: input.config.packageTypes });
        // I2: the charge is what the student confirmed, or nothing (and the new total to confirm).
        if (input.priceVersion !== undefined) {
          const current = priceVersion({ prices: input.config.packageTypes, counts, couponId: price.couponId, discountFen: price.discountFen, amountFen: price.amountFen });
          if (current !== input.priceVersion) return { priceChanged: price.amountFen };
        }
        const row = await trx
          .insertInto("orders")
          .values({
            order_number: number,
            user_id: input.userId,
            order_type: "express",
            campus_code: input.config.campusCode,
            campus_name: input.config.campusName,
            recipient_name: input.recipient.name,
            recipient_phone: input.recipient.phone,
            recipient_dorm: input.recipient.building,
            recipient_room: input.recipient.room,
            delivery_address: composeAddress(input.recipient),
            pickup_codes: JSON.stringify(stored),
            pickup_deadline: earliestDeadline(stored.map((item) => item.deadlineAt)),
            package_counts: JSON.stringify(counts),
            // The breakdown the student can check later, whatever the campus's prices become.
            unit_prices: JSON.stringify(Object.fromEntries(input.config.packageTypes.map((type) => [type.type, type.priceFen]))),
            parcel_count: parcelCount,
            remark: input.remark || null,
            original_fen: price.originalFen,
            discount_fen: price.discountFen,
            amount_fen: price.amountFen,
            coupon_id: price.couponId,
            status: "created",
            payment_status: "pending",
            refund_state: null,
            refund_reason: null,
            cancel_reason: null,
            estimated_delivery_at: estimate.at,
            checkout_key: key,
            idempotency_key: key,
            expires_at: new Date(input.at.getTime() + UNPAID_ORDER_TTL_MS).toISOString(),
            paid_at: null,
            completed_at: null,
            cancelled_at: null,
            refunded_at: null,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) return null;
        await reserveOrderCoupon(trx, { id: row.id, couponId: row.coupon_id, userId: input.userId });
        await recordEvent(trx, row, { type: "created", to: "created", actor: "customer", at });
        // A coupon may make an order free: nothing to pay, it is paid at once.
        if (row.amount_fen === 0) await applyPaid(trx, row.id, { actor: "system", at });
        // The ordered parcels leave the checkout list (a cancel or refund does not bring them back:
        // they are free to be listed and ordered again).
        await takeParcelsOut(trx, input.userId, input.items, input.config.packageTypes);
        return row;
      });
    if (inserted && "priceChanged" in inserted && typeof inserted.priceChanged === "number") {
      return { ok: false, reason: "price_changed", priceChanged: { amountFen: inserted.priceChanged } };
    }
    if (inserted && "clash" in inserted) return { ok: false, reason: "parcel_in_live_order", liveOrder: inserted.clash };
    if (inserted) return { ok: true, orderNumber: inserted.order_number, created: inserted.order_number === number, amountFen: inserted.amount_fen };
    const winner = await findByKey(key);
    if (winner) return { ok: true, orderNumber: winner.order_number, created: false, amountFen: winner.amount_fen };
  }
  throw new Error("no free order number after 8 attempts");
}

/** Statuses in which an order holds its parcels: unpaid, paid or in progress. */
export const LIVE_ORDER_STATUSES = [...statusesOf("pending_payment"), ...statusesOf("in_progress")];

/**
 * The user's live order that already holds one of `items` (docs/architecture.md "Parcels"), or null.
 * An unpaid order past its 24 hours is closed by the job and holds nothing any more.
 */
export async function liveOrderHolding(executor: Executor, userId: number, items: PickupItem[], at: Date): Promise<string | null> {
  const live = await executor
    .selectFrom("orders")
    .select(["order_number", "pickup_codes", "status", "expires_at"])
    .where("user_id", "=", userId)
    .where("status", "in", LIVE_ORDER_STATUSES)
    .where("deleted_at", "is", null)
    .orderBy("id", "desc")
    .execute();
  const stamp = at.toISOString();
  for (const order of live) {
    if (order.status === "created" && order.expires_at <= stamp) continue;
    const holds = parcelsOf(order.pickup_codes).some((parcel) => items.some((item) => sameParcel(parcel, item)));
    if (holds) return order.order_number;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The user's newest order still waiting for payment (not past its 24 hours), by number. */
export async function latestUnpaidOrder(userId: number, at = new Date()): Promise<string | null> {
  return (await latestUnpaid.executeTakeFirst(userId, at.toISOString()))?.order_number ?? null;
}

// Every market page asks: compiled once (db/compiled.server.ts).
const latestUnpaid = compiledOnce((userId: number, at: string) =>
  db()
    .selectFrom("orders")
    .select("order_number")
    .where("user_id", "=", userId)
    .where("status", "=", "created")
    .where("payment_status", "=", "pending")
    .where("deleted_at", "is", null)
    .where("expires_at", ">", at)
    .orderBy("id", "desc")
    .limit(1),
);

/** The user's order by its number, or undefined (also for another user's order). */
export async function findOwnOrder(userId: number, number: string): Promise<OrderRow | undefined> {
  return db().selectFrom("orders").selectAll().where("order_number", "=", number).where("user_id", "=", userId).executeTakeFirst();
}

export async function findOrder(number: string): Promise<OrderRow | undefined> {
  return db().selectFrom("orders").selectAll().where("order_number", "=", number).executeTakeFirst();
}

export function stateOf(order: OrderRow, extra: { reviewed?: boolean } = {}, at = new Date()): OrderState {
  return {
    status: order.status,
    paymentStatus: order.payment_status,
    refundState: order.refund_state,
    reviewed: extra.reviewed,
    expired: order.status === "created" && order.expires_at <= at.toISOString(),
  };
}

export const ORDERS_PAGE_SIZE = 10;

export type OrderListItem = {
  orderNumber: string;
  status: OrderStatus;
  label: string;
  groupLabel: string;
  group: string;
  refundLabel: string | null;
  amountFen: number;
  parcelCount: number;
  campusName: string;
  createdAt: string;
  createdText: string;
};

/** One page of a user's orders, newest first, below the cursor's id (orders_user_idx; the query-plan test reads it). */
export function customerOrdersQuery(userId: number, options: { beforeId?: number | null; limit: number }) {
  let query = db().selectFrom("orders").selectAll().where("user_id", "=", userId);
  if (options.beforeId) query = query.where("id", "<", options.beforeId);
  return query.orderBy("id", "desc").limit(options.limit);
}

/** The user's orders, newest first, ORDERS_PAGE_SIZE at a time after the `before` cursor (an order number). */
export async function listOrders(userId: number, options: { before?: string | null; limit?: number } = {}) {
  const limit = options.limit ?? ORDERS_PAGE_SIZE;
  let beforeId: number | null = null;
  if (options.before) {
    const cursor = await db().selectFrom("orders").select("id").where("order_number", "=", options.before).where("user_id", "=", userId).executeTakeFirst();
    beforeId = cursor?.id ?? null;
  }
  const rows = await customerOrdersQuery(userId, { beforeId, limit: limit + 1 }).execute();
  const items: OrderListItem[] = rows.slice(0, limit).map((order) => {
    const view = orderView(stateOf(order));
    return {
      orderNumber: order.order_number,
      status: order.status,
      label: view.label,
      groupLabel: view.groupLabel,
      group: view.group,
      refundLabel: view.refundLabel,
      amountFen: order.amount_fen,
      parcelCount: order.parcel_count,
      campusName: order.campus_name,
      createdAt: order.created_at,
      createdText: formatShanghai(order.created_at),
    };
  });
  return { items, next: rows.length > limit ? items[items.length - 1]!.orderNumber : null };
}

export async function reviewOf(orderId: number) {
  return db().selectFrom("reviews").select(["rating", "comment", "created_at"]).where("order_id", "=", orderId).executeTakeFirst();
}

/** The note of the order's latest rejected refund request (the operator's reason), if any. */
async function refundRejectionNote(orderId: number): Promise<string | null> {
  const row = await db()
    .selectFrom("refunds")
    .select("error")
    .where("order_id", "=", orderId)
    .where("state", "=", "rejected")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.error ?? null;
}

/**
 * What the charge was made of (decision 030): parcels by size with the unit prices charged (null
 * on orders placed before they were recorded), the coupon, the delivery fee (none), what was paid,
 * and each refund with its reason and state.
 */
async function breakdownOf(order: OrderRow, counts: Record<string, number>) {
  const prices = unitPricesOf(order);
  const refunds = await db().selectFrom("refunds").select(["amount_fen", "reason", "state", "kind"]).where("order_id", "=", order.id).orderBy("id").execute();
  return {
    lines: PACKAGE_TYPE_KEYS.filter((type) => (counts[type] ?? 0) > 0).map((type) => ({
      type,
      name: DEFAULT_PACKAGE_TYPES.find((item) => item.type === type)?.name ?? type,
      count: counts[type]!,
      unitFen: prices?.[type] ?? null,
    })),
    originalFen: order.original_fen,
    discountFen: order.discount_fen,
    deliveryFeeFen: 0,
    paidFen: order.paid_at ? order.amount_fen : 0,
    refunds: refunds
      .filter((refund) => refund.state !== "rejected")
      .map((refund) => ({ amountFen: refund.amount_fen, reason: refund.reason, state: refund.state === "succeeded" ? "refunded" : refund.state })),
  };
}

/** The order as the detail page and /api/order/detail show it (the product rules' field names). */
export async function orderDetail(order: OrderRow) {
  const [review, rejection] = await Promise.all([reviewOf(order.id), order.refund_state === "rejected" ? refundRejectionNote(order.id) : null]);
  const view = orderView(stateOf(order, { reviewed: Boolean(review) }));
  const counts = storedCounts(order.package_counts);
  return {
    order_id: order.order_number,
    order_number: order.order_number,
    order_status: order.status,
    payment_status: order.payment_status,
    payment_label: msg.orders.paymentStatus[order.payment_status],
    refund_state: order.refund_state,
    creation_time: order.created_at,
    creation_text: formatShanghai(order.created_at),
    paid_time: order.paid_at,
    paid_text: order.paid_at ? formatShanghai(order.paid_at) : null,
    actual_amount: fenToYuan(order.amount_fen),
    amount_fen: order.amount_fen,
    original_fen: order.original_fen,
    discount_fen: order.discount_fen,
    recipient_campus: order.campus_name,
    recipient_dorm: order.recipient_dorm,
    recipient_room: order.recipient_room,
    recipient_name: order.recipient_name,
    recipient_phone: order.recipient_phone,
    delivery_address: order.delivery_address,
    service_name: msg.orderPage.detail.serviceName,
    order_type: order.order_type,
    remark: order.remark,
    estimated_completion_time: order.estimated_delivery_at,
    estimated_text: deliveryText(order.estimated_delivery_at),
    pickup_codes: parsePickupCodes(order.pickup_codes).map((item) => ({
      ...item,
      deadlineWhen: item.deadlineAt ? formatShanghai(item.deadlineAt).slice(5) : null,
    })),
    package_counts: counts,
    parcel_count: order.parcel_count,
    refund_reason: order.refund_reason,
    /** 已超时 with an apology, while the promised time has passed and the delivery is still to come. */
    late_notice: isLate(stateOf(order), order.estimated_delivery_at) ? msg.orderPage.detail.lateApology : null,
    /** The operator's reason for turning the latest refund request down (shown while it stands). */
    refund_rejection: rejection,
    breakdown: await breakdownOf(order, counts),
    /** The 4 digits the student tells the rider at the door, while a rider carries the order. */
    handover_code: order.handover_code && HANDOVER_STATUSES.includes(order.status) ? order.handover_code : null,
    /** The rider's photo of the delivered parcel (private: this student and the operators). */
    delivery_photo_url: order.delivery_photo ? `/express/orders/${order.order_number}/photo` : null,
    /** A size found wrong at pickup: what the rider found and the difference to pay, or null. */
    supplement: await supplementView(order),
    review: review ? { rating: review.rating, text: ratingText(review.rating), comment: review.comment } : null,
    view,
  };
}

export type OrderDetail = Awaited<ReturnType<typeof orderDetail>>;

/** A size's name as the customer reads it (口袋件, 大件…). */
export const SIZE_NAME = Object.fromEntries(DEFAULT_PACKAGE_TYPES.map((type) => [type.type, type.name])) as Record<string, string>;

async function supplementView(order: OrderRow) {
  const row = await db().selectFrom("order_supplements").select(["state", "declared_size", "real_size", "amount_fen", "prepay_id"]).where("order_id", "=", order.id).executeTakeFirst();
  if (!row || row.state === "void") return null;
  return {
    state: row.state,
    declared: SIZE_NAME[row.declared_size] ?? row.declared_size,
    real: SIZE_NAME[row.real_size] ?? row.real_size,
    amountFen: row.amount_fen,
    /** A paid supplement given back (S2/S4): its amount and 已退回, or 退回中 while on its way; null: none. */
    refundText: row.state === "paid" ? await supplementRefundText(order) : null,
    /** Offered and still open to an answer: the order is being picked up. */
    open: row.state === "offered" && (order.status === "assigned" || order.status === "picking") && order.refund_state !== "processing" && order.refund_state !== "requested",
  };
}

/** The refunds on the supplement's own trade: confirmed ones say 已退回, ones on their way 退回中. */
async function supplementRefundText(order: OrderRow) {
  const refunds = await db()
    .selectFrom("refunds")
    .select(["amount_fen", "state"])
    .where("order_id", "=", order.id)
    .where("out_trade_no", "=", `${order.order_number}S`)
    .where("state", "in", ["processing", "succeeded"])
    .execute();
  if (refunds.length === 0) return null;
  const amountFen = refunds.reduce((total, refund) => total + refund.amount_fen, 0);
  const s = msg.orderPage.supplement;
  return fillTemplate(s.refund, {
    amount: formatYuan(amountFen, { style: "amount", symbol: true }),
    state: refunds.every((refund) => refund.state === "succeeded") ? s.refunded : s.refunding,
  });
}

// ---------------------------------------------------------------------------------------------
// Review

/**
 * Why a customer's cancel, refund request or review was refused: the order is not theirs, its
 * status does not allow it now, the provider could not close the unpaid trade, the step lost to
 * another one, or the review exists already. The routes map each to a status and a message.
 */
export type OrderRefusal = "not_found" | "not_allowed" | "provider_failed" | "conflict" | "already_reviewed";
/** What the customer's step did (the notice the order page shows), or why it was refused. */
export type ActionResult = { ok: true; done: "cancelled" | "cancelRefund" | "refundRequested" | "reviewed" } | { ok: false; reason: OrderRefusal };

/** A completed order's review: once, 1–5 stars, an optional comment. */
export async function reviewOrder(userId: number, number: string, input: { rating: number; comment: string }): Promise<ActionResult> {
  const order = await findOwnOrder(userId, number);
  if (!order) return { ok: false, reason: "not_found" };
  if (order.status !== "completed") return { ok: false, reason: "not_allowed" };
  const saved = await db()
    .transaction()
    .execute((trx) => applyReviewed(trx, order, { userId, rating: input.rating, comment: input.comment, at: now() }));
  return saved ? { ok: true, done: "reviewed" } : { ok: false, reason: "already_reviewed" };
}
