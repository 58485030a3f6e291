// The rules of a rider's run (decision 038): which slot a list shows, how parcels group for
// picking (by station) and orders for dropping (by building, then room), what a parcel's size
// reads as, the recipient check against the label's phone tail, and the handover code.

import { deliveryText } from "./orders";

/** An operator with this role runs deliveries: their own run page only, never the admin pages. */
export const RIDER_ROLE = "rider";

export function isRiderRole(role: string | null | undefined) {
  return role === RIDER_ROLE;
}

/** Where a rider lands after the operator login (any other /admin page sends them here). */
export const RIDER_HOME = "/admin/run";

/**
 * A list's slot picker (pick list, rider's run): each slot with its delivery time and order count,
 * marked with `pastMark` once its time has gone by, and the shown slot with its label.
 */
export function slotPicker(list: { slots: { slot: string; count: number }[]; slot: string | null }, at: Date, pastMark = "") {
  return {
    slots: list.slots.map((row) => ({ value: row.slot, label: `${deliveryText(row.slot, at)}（${row.count}）${row.slot < at.toISOString() ? pastMark : ""}` })),
    slot: list.slot,
    slotLabel: list.slot ? deliveryText(list.slot, at) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The handover code

export const HANDOVER_CODE_LENGTH = 4;
/** Wrong codes typed for one order before only a photo can prove the delivery: 5 in 10 000. */
export const HANDOVER_MAX_FAILURES = 5;

/** The 4 digits from a random integer (the server draws it with crypto). */
export function handoverCodeOf(random: number) {
  return String(Math.abs(Math.trunc(random)) % 10 ** HANDOVER_CODE_LENGTH).padStart(HANDOVER_CODE_LENGTH, "0");
}

export type HandoverVerdict = "ok" | "format" | "wrong" | "locked" | "missing";

/**
 * The rider's typed code against the order's: `failures` wrong codes were typed before. A
 * malformed code (not 4 digits after trimming and folding full-width digits) costs no attempt.
 */
export function checkHandoverCode(expected: string | null, typed: string, failures: number): HandoverVerdict {
  if (!expected) return "missing";
  if (failures >= HANDOVER_MAX_FAILURES) return "locked";
  const code = typed.normalize("NFKC").replace(/\s+/g, "");
  if (!new RegExp(`^\\d{${HANDOVER_CODE_LENGTH}}$`).test(code)) return "format";
  return code === expected ? "ok" : "wrong";
}

/** Attempts left after this many wrong codes. */
export function handoverAttemptsLeft(failures: number) {
  return Math.max(0, HANDOVER_MAX_FAILURES - failures);
}

// ---------------------------------------------------------------------------------------------
// The recipient check

/** The last four digits of a phone number, or null. */
export function phoneTail(phone: string | null | undefined): string | null {
  const digits = (phone ?? "").replace(/\D/g, "");
  return digits.length >= 4 ? digits.slice(-4) : null;
}

export type RecipientCheck = { state: "unknown" } | { state: "match"; tail: string } | { state: "mismatch"; labelTail: string; orderTail: string | null };

/** The label's phone tail (from the SMS) against the order's phone: unknown when the label gave none. */
export function recipientCheck(labelTail: string | null | undefined, orderPhone: string | null | undefined): RecipientCheck {
  if (!labelTail) return { state: "unknown" };
  const orderTail = phoneTail(orderPhone);
  return orderTail === labelTail ? { state: "match", tail: labelTail } : { state: "mismatch", labelTail, orderTail };
}

// ---------------------------------------------------------------------------------------------
// Grouping

const collator = new Intl.Collator("zh-CN", { numeric: true });

/** Text in a natural order: 2号楼 before 10号楼, 101 before 1001. */
export function naturalCompare(a: string, b: string) {
  return collator.compare(a, b);
}

export type StationGroup<T> = { station: string; deadlines: string[]; parcels: T[] };

/** Parcels by pickup station (stations and codes in natural order), with each station's deadlines as the SMS gave them. */
export function groupByStation<T extends { station: string; code: string | null; trackingNumber?: string | null; deadline?: string | null }>(parcels: T[]): StationGroup<T>[] {
  const byStation = new Map<string, T[]>();
  for (const parcel of parcels) byStation.set(parcel.station, [...(byStation.get(parcel.station) ?? []), parcel]);
  return [...byStation.entries()]
    .sort(([a], [b]) => naturalCompare(a, b))
    .map(([station, list]) => ({
      station,
      deadlines: [...new Set(list.map((parcel) => parcel.deadline).filter((deadline): deadline is string => Boolean(deadline)))],
      parcels: list.slice().sort((a, b) => naturalCompare(a.code ?? a.trackingNumber ?? "", b.code ?? b.trackingNumber ?? "")),
    }));
}

export type RoomGroup<T> = { room: string; orders: T[] };
export type BuildingGroup<T> = { building: string; rooms: RoomGroup<T>[] };

/** Deliveries by building, then room, both in natural order. */
export function groupByBuilding<T extends { building: string; room: string }>(orders: T[]): BuildingGroup<T>[] {
  const byBuilding = new Map<string, Map<string, T[]>>();
  for (const order of orders) {
    const rooms = byBuilding.get(order.building) ?? new Map<string, T[]>();
    rooms.set(order.room, [...(rooms.get(order.room) ?? []), order]);
    byBuilding.set(order.building, rooms);
  }
  return [...byBuilding.entries()]
    .sort(([a], [b]) => naturalCompare(a, b))
    .map(([building, rooms]) => ({
      building,
      rooms: [...rooms.entries()].sort(([a], [b]) => naturalCompare(a, b)).map(([room, list]) => ({ room, orders: list })),
    }));
}

// ---------------------------------------------------------------------------------------------
// Sizes and slots

export type SizeName = { type: string; name: string };

/**
 * What a parcel's size reads as: the order stores counts per size, not a size per parcel, so a
 * parcel's size is certain only when the order has one size; otherwise the order's mix is shown.
 */
export function parcelSizeText(counts: Record<string, number>, names: SizeName[]): { certain: boolean; text: string } {
  const present = names.filter((size) => (counts[size.type] ?? 0) > 0);
  if (present.length === 1) return { certain: true, text: present[0]!.name };
  return { certain: false, text: present.map((size) => `${size.name}×${counts[size.type]}`).join(" ") };
}

/**
 * The slot a list shows: the one asked for when it has orders, else the next one (the first
 * promised time at or after now), else the latest past one (late orders still to run).
 * `slots` are ISO instants.
 */
export function chooseSlot(slots: string[], now: Date, requested?: string | null): string | null {
  const sorted = [...new Set(slots)].sort();
  if (requested && sorted.includes(requested)) return requested;
  const at = now.toISOString();
  return sorted.find((slot) => slot >= at) ?? sorted[sorted.length - 1] ?? null;
}
