import { describe, expect, it } from "vitest";
import { DEFAULT_PACKAGE_TYPES, PACKAGE_TYPE_KEYS } from "./catalog";
import {
  cheapestType,
  defaultCounts,
  emptyCounts,
  priceOf,
  countsFromClient,
  reconcileCounts,
  stepCount,
  totalParcels,
  type PackageCounts,
  type PricedType,
  storedCounts,
} from "./package-counts";

const TYPES: PricedType[] = DEFAULT_PACKAGE_TYPES.map((t) => ({ type: t.type, name: t.name, priceFen: t.priceFen }));
const c = (pocket: number, small: number, medium: number, large: number): PackageCounts => ({ pocket, small, medium, large });

describe("default counts: every parcel on the cheapest type", () => {
  it.each([
    [0, c(0, 0, 0, 0)],
    [1, c(1, 0, 0, 0)],
    [4, c(4, 0, 0, 0)],
  ])("%i entries → %o", (entries, expected) => {
    expect(defaultCounts(TYPES, entries)).toEqual(expected);
  });

  it("follows the price, not the order", () => {
    const types: PricedType[] = [
      { type: "pocket", name: "口袋件", priceFen: 300 },
      { type: "small", name: "小件", priceFen: 150 },
      { type: "medium", name: "中件", priceFen: 150 },
    ];
    expect(cheapestType(types)).toBe("small");
    expect(defaultCounts(types, 2)).toEqual(c(0, 2, 0, 0));
    expect(cheapestType([])).toBeUndefined();
  });
});

// [counts, type, direction, entries, result counts | failure reason]
const STEPS: [PackageCounts, (typeof PACKAGE_TYPE_KEYS)[number], "increase" | "decrease", number, PackageCounts | "zero" | "limit"][] = [
  // increase moves one from the highest other non-empty type
  [c(2, 0, 0, 0), "small", "increase", 2, c(1, 1, 0, 0)],
  [c(1, 1, 0, 0), "medium", "increase", 2, c(1, 0, 1, 0)],
  [c(1, 1, 1, 1), "pocket", "increase", 4, c(2, 1, 1, 0)],
  [c(1, 1, 1, 1), "large", "increase", 4, c(1, 1, 0, 2)],
  [c(0, 0, 0, 3), "large", "increase", 3, "limit"],
  [c(0, 0, 2, 1), "pocket", "increase", 3, c(1, 0, 2, 0)],
  // no other non-empty type: the total grows only while below the number of entries
  [c(0, 0, 0, 0), "medium", "increase", 2, c(0, 0, 1, 0)],
  [c(0, 1, 0, 0), "small", "increase", 2, c(0, 2, 0, 0)],
  [c(0, 2, 0, 0), "small", "increase", 2, "limit"],
  [c(0, 0, 0, 0), "pocket", "increase", 0, "limit"],
  // decrease moves one to the first other type
  [c(1, 1, 0, 0), "small", "decrease", 2, c(2, 0, 0, 0)],
  [c(2, 0, 0, 0), "pocket", "decrease", 2, c(1, 1, 0, 0)],
  [c(0, 0, 0, 2), "large", "decrease", 2, c(1, 0, 0, 1)],
  [c(0, 1, 0, 0), "medium", "decrease", 1, "zero"],
  [c(0, 0, 0, 0), "pocket", "decrease", 0, "zero"],
];

describe("one tap on a stepper", () => {
  it.each(STEPS)("%o: %s %s (entries %i) → %o", (counts, type, direction, entries, expected) => {
    const result = stepCount(counts, TYPES, type, direction, entries);
    if (typeof expected === "string") {
      expect(result).toEqual({ ok: false, reason: expected, counts });
    } else {
      expect(result).toEqual({ ok: true, counts: expected });
    }
  });

  it("refuses a type the campus does not have", () => {
    expect(stepCount(c(1, 0, 0, 0), TYPES.slice(0, 2), "large", "increase", 1)).toMatchObject({ ok: false, reason: "unknown-type" });
  });

  it("never loses a parcel nor exceeds the entries, from every state of up to 3 parcels", () => {
    for (let entries = 0; entries <= 3; entries += 1) {
      for (let p = 0; p <= entries; p += 1)
        for (let s = 0; s + p <= entries; s += 1)
          for (let m = 0; s + p + m <= entries; m += 1)
            for (let l = 0; s + p + m + l <= entries; l += 1) {
              const start = c(p, s, m, l);
              for (const type of PACKAGE_TYPE_KEYS) {
                for (const direction of ["increase", "decrease"] as const) {
                  const result = stepCount(start, TYPES, type, direction, entries);
                  const before = totalParcels(start);
                  const after = totalParcels(result.counts);
                  expect(after).toBeLessThanOrEqual(Math.max(before, entries));
                  expect(Object.values(result.counts).every((n) => n >= 0)).toBe(true);
                  if (!result.ok) {
                    expect(result.counts).toEqual(start);
                    continue;
                  }
                  if (direction === "decrease") {
                    expect(after).toBe(before);
                    expect(result.counts[type]).toBe(start[type] - 1);
                  } else {
                    expect(result.counts[type]).toBe(start[type] + 1);
                    expect(after === before || (after === before + 1 && before < entries)).toBe(true);
                  }
                }
              }
            }
    }
  });
});

describe("stored counts and the price", () => {
  it("keeps stored counts that fit, resets those that no longer do", () => {
    expect(reconcileCounts({ pocket: 1, small: 1 }, TYPES, 2)).toEqual(c(1, 1, 0, 0));
    expect(reconcileCounts({ pocket: 1, small: 2 }, TYPES, 2)).toEqual(c(2, 0, 0, 0));
    expect(reconcileCounts({ large: "3", bogus: 4 }, TYPES, 2)).toEqual(c(2, 0, 0, 0));
    expect(reconcileCounts(null, TYPES, 0)).toEqual(emptyCounts());
    expect(reconcileCounts({ large: 1 }, TYPES.slice(0, 2), 1)).toEqual(c(1, 0, 0, 0));
    // Fewer counted than parcels never survives: the counts always add up to the parcels.
    expect(reconcileCounts({ pocket: 1 }, TYPES, 5)).toEqual(c(5, 0, 0, 0));
  });

  it.each([
    ["absent → the default", undefined, 3, c(3, 0, 0, 0)],
    ["adding up", { pocket: 1, large: 2 }, 3, c(1, 0, 0, 2)],
    ["numbers as text", { small: "2", medium: 0 }, 2, c(0, 2, 0, 0)],
    ["fewer than the parcels", { pocket: 1 }, 5, null],
    ["more than the parcels", { pocket: 6 }, 5, null],
    ["a negative count", { pocket: 6, small: -1 }, 5, null],
    ["a fraction", { pocket: 2.5, small: 2.5 }, 5, null],
    ["an unknown type", { pocket: 4, huge: 1 }, 5, null],
    ["not an object", [5], 5, null],
    ["no parcels", {}, 0, null],
  ])("client counts: %s", (_name, input, entries, expected) => {
    expect(countsFromClient(input, TYPES, entries)).toEqual(expected);
  });

  it("prices in fen", () => {
    expect(priceOf(c(1, 1, 1, 1), TYPES)).toBe(120 + 200 + 300 + 400);
    expect(priceOf(c(3, 0, 0, 0), TYPES)).toBe(360);
  });
});

describe("an order's stored counts", () => {
  it("reads every type, anything but a whole count above 0 as 0, and an unreadable row as no parcels", () => {
    expect(storedCounts('{"pocket":0,"small":2,"medium":0,"large":1}')).toEqual({ pocket: 0, small: 2, medium: 0, large: 1 });
    expect(storedCounts('{"small":1.5,"medium":-1,"large":"2","other":4}')).toEqual({ pocket: 0, small: 0, medium: 0, large: 0 });
    expect(storedCounts("not json")).toEqual({ pocket: 0, small: 0, medium: 0, large: 0 });
    expect(storedCounts("null")).toEqual({ pocket: 0, small: 0, medium: 0, large: 0 });
  });
});
