// A slot's run (decision 038): the pick list (every parcel of one delivery slot by pickup
// station, with its code, carrier, size, order, the station's deadline and the rider), the
// rider's own run (their parcels to pick, then their deliveries by building and room), the
// per-parcel 已取到 marks, and the handover that proves 已送达 (the student's code, or a photo).
// Status changes go through the order state machine (applyStatus): the first parcel in hand makes
// the order 正在取件, the last one 配送中, the handover 订单已完成.
import { storedCounts } from "~/lib/package-counts";
import { DEFAULT_PACKAGE_TYPES } from "~/lib/catalog";
import { canAdvance } from "~/lib/order-status";
import { parsePickupCodes } from "~/lib/orders";
import { checkHandoverCode, handoverAttemptsLeft, HANDOVER_MAX_FAILURES, chooseSlot, parcelSizeText, phoneTail, recipientCheck, type RecipientCheck } from "~/lib/riders";
import { isRiderRole } from "~/lib/riders";
import type { Operator } from "../auth/operator.server";
import { db, now } from "../db/db.server";
import type { OrderRow } from "../orders/events.server";
import { applyStatus } from "../orders/transitions.server";
import { recordAudit } from "../admin/audit.server";
import { stateOfRow } from "../admin/orders.server";
import { removeDeliveryPhoto, storeDeliveryPhoto } from "../storage/delivery-photos.server";
import { leftPositions, supplementsOfOrdersQuery } from "../orders/supplements.server";
import { OPEN_STATUSES } from "./riders.server";

const SIZE_NAMES = DEFAULT_PACKAGE_TYPES.map(({ type, name }) => ({ type, name }));

// ---------------------------------------------------------------------------------------------
// Queries (each served by an index: query-plans.db.test)

/** How far back a slot with open orders is still offered (a late batch stays on the list a week). */
const SLOTS_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;

/** The slots with open orders from a week ago on, and how many (orders_slot_created_idx). */
export function slotsQuery(at: Date) {
  return db()
    .selectFrom("orders")
    .select(["estimated_delivery_at as slot", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("estimated_delivery_at", ">=", new Date(at.getTime() - SLOTS_LOOKBACK_MS).toISOString())
    .where("status", "in", [...OPEN_STATUSES])
    .where("deleted_at", "is", null)
    .groupBy("estimated_delivery_at")
    .orderBy("estimated_delivery_at");
}

const ORDER_COLUMNS = [
  "orders.id",
  "orders.order_number",
  "orders.status",
  "orders.payment_status",
  "orders.refund_state",
  "orders.pickup_codes",
  "orders.package_counts",
  "orders.recipient_name",
  "orders.recipient_phone",
  "orders.recipient_dorm",
  "orders.recipient_room",
  "orders.rider_id",
  "orders.handover_failures",
  "orders.estimated_delivery_at",
] as const;

/** One slot's open orders (orders_slot_created_idx), with their rider's name. */
export function slotOrdersQuery(slot: string) {
  return db()
    .selectFrom("orders")
    .leftJoin("operators", "operators.id", "orders.rider_id")
    .select([...ORDER_COLUMNS, "operators.display_name as rider_name"])
    .where("orders.estimated_delivery_at", "=", slot)
    .where("orders.status", "in", [...OPEN_STATUSES])
    .where("orders.deleted_at", "is", null)
    .orderBy("orders.id");
}

/** The 已取到 marks of one slot's orders (parcel_picks by its primary key from each order). */
export function slotPicksQuery(slot: string) {
  return db()
    .selectFrom("parcel_picks")
    .innerJoin("orders", "orders.id", "parcel_picks.order_id")
    .select(["parcel_picks.order_id", "parcel_picks.position"])
    .where("orders.estimated_delivery_at", "=", slot)
    .where("orders.status", "in", [...OPEN_STATUSES])
    .where("orders.deleted_at", "is", null);
}

/** A rider's slots with open orders (orders_rider_idx). */
export function riderSlotsQuery(riderId: number) {
  return db()
    .selectFrom("orders")
    .select(["estimated_delivery_at as slot", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("rider_id", "=", riderId)
    .where("status", "in", [...OPEN_STATUSES])
    .where("deleted_at", "is", null)
    .groupBy("estimated_delivery_at")
    .orderBy("estimated_delivery_at");
}

/** A rider's open orders of one slot (orders_rider_idx). */
export function riderOrdersQuery(riderId: number, slot: string) {
  return db()
    .selectFrom("orders")
    .select([...ORDER_COLUMNS])
    .where("orders.rider_id", "=", riderId)
    .where("orders.estimated_delivery_at", "=", slot)
    .where("orders.status", "in", [...OPEN_STATUSES])
    .where("orders.deleted_at", "is", null)
    .orderBy("orders.id");
}

/** The marks of some orders (the primary key's first column). */
export function picksOfOrdersQuery(orderIds: number[]) {
  return db()
    .selectFrom("parcel_picks")
    .select(["order_id", "position"])
    .where("order_id", "in", orderIds.length > 0 ? orderIds : [-1]);
}

// ---------------------------------------------------------------------------------------------
// Shapes

export type SlotOption = { slot: string; count: number };

export type PickParcel = {
  orderNumber: string;
  position: number;
  code: string | null;
  trackingNumber: string | null;
  company: string;
  station: string;
  deadline: string | null;
  size: string;
  sizeCertain: boolean;
  picked: boolean;
  riderId: number | null;
  riderName: string | null;
  status: OrderRow["status"];
  /** A size found wrong at pickup: its state, the real size and the difference (the run only). */
  supplement?: { state: string; realSize: string; amountFen: number };
  /** The sizes the order declared, for the real-size form (the run only). */
  declaredSizes?: string[];
};

type SlotOrder = Pick<
  OrderRow,
  | "id"
  | "order_number"
  | "status"
  | "payment_status"
  | "refund_state"
  | "pickup_codes"
  | "package_counts"
  | "recipient_name"
  | "recipient_phone"
  | "recipient_dorm"
  | "recipient_room"
  | "rider_id"
  | "handover_failures"
  | "estimated_delivery_at"
> & { rider_name?: string | null };


function parcelsOf(order: SlotOrder, picked: Set<string>): PickParcel[] {
  const size = parcelSizeText(storedCounts(order.package_counts), SIZE_NAMES);
  return parsePickupCodes(order.pickup_codes).map((item, position) => ({
    orderNumber: order.order_number,
    position,
    code: item.code,
    trackingNumber: item.trackingNumber,
    company: item.company,
    station: item.station ?? "",
    deadline: item.deadline ?? null,
    size: size.text,
    sizeCertain: size.certain,
    picked: picked.has(`${order.id}:${position}`),
    riderId: order.rider_id,
    riderName: order.rider_name ?? null,
    status: order.status,
  }));
}

// ---------------------------------------------------------------------------------------------
// The pick list

export type PickList = { slots: SlotOption[]; slot: string | null; parcels: PickParcel[]; orders: number };

/** One slot's parcels (the next slot unless another is asked for): four indexed queries whatever the size. */
export async function pickList(requested: string | null, at = new Date()): Promise<PickList> {
  const slots = (await slotsQuery(at).execute()).map((row) => ({ slot: row.slot, count: Number(row.n) }));
  const slot = chooseSlot(
    slots.map((row) => row.slot),
    at,
    requested,
  );
  if (!slot) return { slots, slot: null, parcels: [], orders: 0 };
  const [orders, picks] = await Promise.all([slotOrdersQuery(slot).execute(), slotPicksQuery(slot).execute()]);
  const picked = new Set(picks.map((row) => `${row.order_id}:${row.position}`));
  // A parcel left at the station (its supplement declined) is no longer fetched.
  const left = leftPositions(await supplementsOfOrdersQuery(orders.map((order) => order.id)).execute());
  const parcels = orders.flatMap((order) => parcelsOf(order, picked).filter((parcel) => !left.has(`${order.id}:${parcel.position}`)));
  return { slots, slot, parcels, orders: orders.length };
}

// ---------------------------------------------------------------------------------------------
// The rider's run

export type DropOrder = {
  orderNumber: string;
  building: string;
  room: string;
  recipientName: string;
  phoneTail: string | null;
  check: RecipientCheck;
  attemptsLeft: number;
  status: OrderRow["status"];
};

export type Run = { slots: SlotOption[]; slot: string | null; toPick: PickParcel[]; toDrop: DropOrder[] };

/** The label's phone tails against the order's phone: the first mismatch, else the first match, else unknown. */
function checkOf(order: SlotOrder): RecipientCheck {
  const checks = parsePickupCodes(order.pickup_codes).map((item) => recipientCheck(item.phoneTail, order.recipient_phone));
  return checks.find((check) => check.state === "mismatch") ?? checks.find((check) => check.state === "match") ?? { state: "unknown" };
}

/** A rider's run of one slot: parcels still to pick (orders not all in hand), then the deliveries. */
export async function riderRun(rider: Pick<Operator, "id">, requested: string | null, at = new Date()): Promise<Run> {
  const slots = (await riderSlotsQuery(rider.id).execute()).map((row) => ({ slot: row.slot, count: Number(row.n) }));
  const slot = chooseSlot(
    slots.map((row) => row.slot),
    at,
    requested,
  );
  if (!slot) return { slots, slot: null, toPick: [], toDrop: [] };
  const orders = await riderOrdersQuery(rider.id, slot).execute();
  const [picks, supplements] = await Promise.all([picksOfOrdersQuery(orders.map((order) => order.id)).execute(), supplementsOfOrdersQuery(orders.map((order) => order.id)).execute()]);
  const picked = new Set(picks.map((row) => `${row.order_id}:${row.position}`));
  const left = leftPositions(supplements);
  const supplementOf = new Map(supplements.map((row) => [row.order_id, row]));
  const toPick: PickParcel[] = [];
  const toDrop: DropOrder[] = [];
  for (const order of orders) {
    const parcels = parcelsOf(order, picked)
      .filter((parcel) => !left.has(`${order.id}:${parcel.position}`))
      .map((parcel) => {
        const supplement = supplementOf.get(order.id);
        return supplement && supplement.position === parcel.position ? { ...parcel, supplement: { state: supplement.state, realSize: supplement.real_size, amountFen: supplement.amount_fen } } : parcel;
      });
    if (order.status === "delivering" || (parcels.length > 0 && parcels.every((parcel) => parcel.picked))) {
      toDrop.push({
        orderNumber: order.order_number,
        building: order.recipient_dorm ?? "",
        room: order.recipient_room ?? "",
        recipientName: order.recipient_name ?? "",
        phoneTail: phoneTail(order.recipient_phone),
        check: checkOf(order),
        attemptsLeft: handoverAttemptsLeft(order.handover_failures),
        status: order.status,
      });
    } else toPick.push(...parcels);
  }
  return { slots, slot, toPick, toDrop };
}

// ---------------------------------------------------------------------------------------------
// 已取到

export type PickResult = { ok: true } | { ok: false; reason: "not_found" | "forbidden" | "not_open" };

/**
 * Marks one parcel as in hand (or not). A rider marks only parcels of their own orders; other
 * operators (the pick list) any open order's. The first mark moves the order to 正在取件, the
 * last one to 配送中, each through the state machine and audited like the admin's courier steps.
 */
export async function markPicked(operator: Operator, input: { order: string; position: number; picked: boolean }): Promise<PickResult> {
  const at = now();
  return db()
    .transaction()
    .execute(async (trx) => {
      const order = await trx.selectFrom("orders").selectAll().where("order_number", "=", input.order).where("deleted_at", "is", null).executeTakeFirst();
      if (!order) return { ok: false, reason: "not_found" } as const;
      if (isRiderRole(operator.role) && order.rider_id !== operator.id) return { ok: false, reason: "forbidden" } as const;
      if (!(OPEN_STATUSES as readonly string[]).includes(order.status)) return { ok: false, reason: "not_open" } as const;
      const parcels = parsePickupCodes(order.pickup_codes);
      if (!Number.isInteger(input.position) || input.position < 0 || input.position >= parcels.length) return { ok: false, reason: "not_found" } as const;
      const declined = await trx.selectFrom("order_supplements").select("position").where("order_id", "=", order.id).where("state", "=", "declined").executeTakeFirst();
      if (input.picked && declined?.position === input.position) return { ok: false, reason: "not_open" } as const;
      if (!input.picked) {
        await trx.deleteFrom("parcel_picks").where("order_id", "=", order.id).where("position", "=", input.position).execute();
        return { ok: true } as const;
      }
      await trx
        .insertInto("parcel_picks")
        .values({ order_id: order.id, position: input.position, operator_id: operator.id, picked_at: at })
        .onConflict((oc) => oc.columns(["order_id", "position"]).doNothing())
        .execute();
      const { n } = await trx
        .selectFrom("parcel_picks")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("order_id", "=", order.id)
        .executeTakeFirstOrThrow();
      // A parcel left at the station (its supplement declined) is not waited for.
      const left = await trx.selectFrom("order_supplements").select("position").where("order_id", "=", order.id).where("state", "=", "declined").executeTakeFirst();
      const needed = parcels.length - (left ? 1 : 0);
      let current: OrderRow = order;
      for (const to of ["picking", "delivering"] as const) {
        if (to === "delivering" && Number(n) < needed) break;
        if (current.status === to || !canAdvance(stateOfRow(current), to)) continue;
        const moved = await applyStatus(trx, current, to, { actor: "operator", operatorId: operator.id, courierLabel: operator.display_name, at });
        if (!moved) break;
        await recordAudit(trx, operator, { action: to, order: moved, detail: `${current.status} → ${to}`, at });
        current = moved;
      }
      return { ok: true } as const;
    });
}

// ---------------------------------------------------------------------------------------------
// The handover

export type HandoverResult =
  | { ok: true }
  | { ok: false; reason: "not_found" | "forbidden" | "not_allowed" | "format" | "locked" | "missing" }
  | { ok: false; reason: "wrong"; attemptsLeft: number };

/**
 * 已送达 with the student's code. Only the order's rider hands it over; a wrong code counts against
 * the order (HANDOVER_MAX_FAILURES, then only a photo proves it), whoever types it. The count
 * and the completion are conditional UPDATEs, so parallel guesses cannot pass the limit and two
 * completions make one.
 */
export async function handOverWithCode(operator: Operator, orderNumber: string, typed: string): Promise<HandoverResult> {
  const order = await db().selectFrom("orders").selectAll().where("order_number", "=", orderNumber).where("deleted_at", "is", null).executeTakeFirst();
  if (!order) return { ok: false, reason: "not_found" };
  if (order.rider_id !== operator.id) return { ok: false, reason: "forbidden" };
  if (!canAdvance(stateOfRow(order), "completed")) return { ok: false, reason: "not_allowed" };
  const verdict = checkHandoverCode(order.handover_code, typed, order.handover_failures);
  if (verdict === "wrong") {
    const at = now();
    const counted = await db()
      .transaction()
      .execute(async (trx) => {
        const updated = await trx
          .updateTable("orders")
          .set((eb) => ({ handover_failures: eb("handover_failures", "+", 1) }))
          .where("id", "=", order.id)
          .where("handover_failures", "<", HANDOVER_MAX_FAILURES)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return null;
        await recordAudit(trx, operator, { action: "handover_failed", order, at });
        return trx.selectFrom("orders").select("handover_failures").where("id", "=", order.id).executeTakeFirstOrThrow();
      });
    if (!counted) return { ok: false, reason: "locked" };
    return { ok: false, reason: "wrong", attemptsLeft: handoverAttemptsLeft(counted.handover_failures) };
  }
  if (verdict !== "ok") return { ok: false, reason: verdict };
  return complete(operator, order, "code", null);
}

export type PhotoHandoverResult = HandoverResult | { ok: false; reason: "too_large" | "not_image" | "unreadable" | "storage" };

/**
 * 已送达 with a photo: the proof when the student cannot give the code (not there, the code
 * locked). Only the order's rider, only an order that may complete; the photo is checked and
 * stored first, and removed again if the completion does not happen (another completion won).
 */
export async function handOverWithPhoto(operator: Operator, orderNumber: string, data: Buffer): Promise<PhotoHandoverResult> {
  const order = await db().selectFrom("orders").selectAll().where("order_number", "=", orderNumber).where("deleted_at", "is", null).executeTakeFirst();
  if (!order) return { ok: false, reason: "not_found" };
  if (order.rider_id !== operator.id) return { ok: false, reason: "forbidden" };
  if (!canAdvance(stateOfRow(order), "completed")) return { ok: false, reason: "not_allowed" };
  const stored = await storeDeliveryPhoto(data);
  if (!stored.ok) return stored;
  const result = await complete(operator, order, "photo", stored.name);
  if (!result.ok) await removeDeliveryPhoto(stored.name);
  return result;
}

async function complete(operator: Operator, order: OrderRow, by: "code" | "photo", photo: string | null): Promise<HandoverResult> {
  const at = now();
  const done = await db()
    .transaction()
    .execute(async (trx) => {
      // The claim: still this rider's, not handed over, and (for a code) not locked meanwhile.
      let claim = trx
        .updateTable("orders")
        .set({ delivered_by: by, delivery_photo: photo })
        .where("id", "=", order.id)
        .where("rider_id", "=", operator.id)
        .where("delivered_by", "is", null);
      if (by === "code") claim = claim.where("handover_failures", "<", HANDOVER_MAX_FAILURES);
      const claimed = await claim.executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return false;
      const changed = await applyStatus(trx, order, "completed", { actor: "operator", operatorId: operator.id, courierLabel: operator.display_name, at });
      if (!changed) throw new HandoverRace();
      await recordAudit(trx, operator, { action: "handover", order: changed, detail: `${order.status} → completed (${by})`, at });
      return true;
    })
    .catch((error) => {
      if (error instanceof HandoverRace) return false;
      throw error;
    });
  return done ? { ok: true } : { ok: false, reason: "not_allowed" };
}

class HandoverRace extends Error {}
