// The order-confirm sheet's package-count steppers (docs/product-rules.md, "Recognition"). Pure: the
// sheet's action calls it and stores the result with the checkout, so a reload keeps the counts.
//
// - Default: every parcel goes on the cheapest type.
// - Increasing a type moves one parcel from the highest other non-empty type; if there is none,
//   the total may grow only while it is below the number of entries.
// - Decreasing a type moves one parcel to the first other type; at 0 it is refused
//   ('<type>数量已为0').

import { PACKAGE_TYPE_KEYS, type PackageTypeKey } from "./catalog";

export type PackageCounts = Record<PackageTypeKey, number>;
export type PricedType = { type: PackageTypeKey; name: string; priceFen: number };

export function emptyCounts(): PackageCounts {
  return { pocket: 0, small: 0, medium: 0, large: 0 };
}

/**
 * An order's stored counts (orders.package_counts, JSON): every type, a count that is not a
 * whole number above 0 read as 0; an unreadable row has no parcels.
 */
export function storedCounts(text: string): PackageCounts {
  const counts = emptyCounts();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return counts;
  }
  if (!value || typeof value !== "object") return counts;
  for (const key of PACKAGE_TYPE_KEYS) {
    const count = (value as Record<string, unknown>)[key];
    if (typeof count === "number" && Number.isInteger(count) && count > 0) counts[key] = count;
  }
  return counts;
}

export function totalParcels(counts: PackageCounts) {
  return PACKAGE_TYPE_KEYS.reduce((sum, key) => sum + counts[key], 0);
}

/** The cheapest type (the first of equal prices); undefined when there are no types. */
export function cheapestType(types: PricedType[]): PackageTypeKey | undefined {
  let best: PricedType | undefined;
  for (const type of types) if (!best || type.priceFen < best.priceFen) best = type;
  return best?.type;
}

export function defaultCounts(types: PricedType[], entries: number): PackageCounts {
  const counts = emptyCounts();
  const cheapest = cheapestType(types);
  if (cheapest && entries > 0) counts[cheapest] = entries;
  return counts;
}

export type StepResult =
  | { ok: true; counts: PackageCounts }
  | { ok: false; reason: "zero" | "limit" | "unknown-type"; counts: PackageCounts };

/**
 * One tap on a stepper. `types` is the campus's types in display order (smallest first), so the
 * "highest" type is the last in that order and the "first other" type the first.
 */
export function stepCount(
  counts: PackageCounts,
  types: PricedType[],
  type: PackageTypeKey,
  direction: "increase" | "decrease",
  entries: number,
): StepResult {
  const order = types.map((t) => t.type);
  if (!order.includes(type)) return { ok: false, reason: "unknown-type", counts };
  const next = { ...counts };
  if (direction === "increase") {
    const donor = [...order].reverse().find((key) => key !== type && next[key] > 0);
    if (donor) {
      next[donor] -= 1;
      next[type] += 1;
      return { ok: true, counts: next };
    }
    if (totalParcels(next) < entries) {
      next[type] += 1;
      return { ok: true, counts: next };
    }
    return { ok: false, reason: "limit", counts };
  }
  if (next[type] <= 0) return { ok: false, reason: "zero", counts };
  next[type] -= 1;
  const receiver = order.find((key) => key !== type);
  if (receiver) next[receiver] += 1;
  return { ok: true, counts: next };
}

/** Counts read back from storage: unknown keys dropped, bad numbers 0; reset when they no longer add up to the parcels. */
export function reconcileCounts(stored: unknown, types: PricedType[], entries: number): PackageCounts {
  const counts = emptyCounts();
  const known = new Set(types.map((t) => t.type));
  if (stored && typeof stored === "object") {
    for (const key of PACKAGE_TYPE_KEYS) {
      const value = (stored as Record<string, unknown>)[key];
      if (known.has(key) && Number.isInteger(value) && (value as number) > 0) counts[key] = value as number;
    }
  }
  const total = totalParcels(counts);
  if (total !== entries) return defaultCounts(types, entries);
  return counts;
}

/**
 * Counts a client sent (docs/architecture.md "Parcels": they always add up to the number of parcels).
 * Absent: the default. Present: every value a whole number ≥ 0 on one of the campus's types, and
 * the sum equal to `entries`; anything else is refused, never repaired into a cheaper order.
 */
export function countsFromClient(input: unknown, types: PricedType[], entries: number): PackageCounts | null {
  if (input === undefined || input === null) return defaultCounts(types, entries);
  if (typeof input !== "object" || Array.isArray(input)) return null;
  const known = new Set<string>(types.map((t) => t.type));
  const counts = emptyCounts();
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const number = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof number !== "number" || !Number.isInteger(number) || number < 0) return null;
    if (number === 0) continue;
    if (!known.has(key)) return null;
    counts[key as PackageTypeKey] = number;
  }
  return totalParcels(counts) === entries && entries > 0 ? counts : null;
}

/** Σ count × price, in fen. */
export function priceOf(counts: PackageCounts, types: PricedType[]) {
  return types.reduce((sum, t) => sum + counts[t.type] * t.priceFen, 0);
}
