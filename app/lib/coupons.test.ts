import { describe, expect, it } from "vitest";
import { DEFAULT_PACKAGE_TYPES } from "./catalog";
import {
  calculationResult,
  couponExpiresAt,
  discountOn,
  isExpiringSoon,
  lastValidDay,
  mostExpensiveType,
  normalizeCounts,
  quoteCoupons,
  summarizeCoupons,
  termsLabel,
  type WalletCoupon,
} from "./coupons";
import type { PackageCounts, PricedType } from "./package-counts";

const TYPES: PricedType[] = DEFAULT_PACKAGE_TYPES.map((t) => ({ type: t.type, name: t.name, priceFen: t.priceFen }));
const c = (pocket: number, small: number, medium: number, large: number): PackageCounts => ({ pocket, small, medium, large });
const NOW = "2026-03-10T04:00:00.000Z";
const LATER = "2026-04-09T16:00:00.000Z";

let nextId = 1;
function coupon(terms: Partial<WalletCoupon> & Pick<WalletCoupon, "type">): WalletCoupon {
  const id = terms.id ?? nextId++;
  return {
    id,
    name: terms.name ?? (terms.type === "fixed" ? "一分钱券" : `${(terms.percentPaid ?? 50) / 10}折券`),
    templateId: terms.templateId ?? null,
    status: terms.status ?? "unused",
    expiresAt: terms.expiresAt ?? LATER,
    type: terms.type,
    percentPaid: terms.type === "percentage" ? (terms.percentPaid ?? 50) : null,
    fixedPriceFen: terms.type === "fixed" ? (terms.fixedPriceFen ?? 1) : null,
    minAmountFen: terms.minAmountFen ?? 0,
  };
}
const half = (extra: Partial<WalletCoupon> = {}) => coupon({ type: "percentage", percentPaid: 50, ...extra });
const eighty = (extra: Partial<WalletCoupon> = {}) => coupon({ type: "percentage", percentPaid: 80, ...extra });
const cent = (extra: Partial<WalletCoupon> = {}) => coupon({ type: "fixed", fixedPriceFen: 1, ...extra });

describe("the discount of one coupon on one parcel", () => {
  // [coupon, parcel price in fen, discount in fen]
  const CASES: [string, WalletCoupon, number, number][] = [
    ["5折 on 口袋件 1.2", half(), 120, 60],
    ["5折 on 小件 2", half(), 200, 100],
    ["8折 on 大件 4", eighty(), 400, 80],
    ["8折 on 1.23: the student pays 0.98 (rounded down), discount 0.25", eighty(), 123, 25],
    ["5折 on 0.01: pays 0, discount 0.01", half(), 1, 1],
    ["8.5折 on 3", coupon({ type: "percentage", percentPaid: 85 }), 300, 45],
    ["0折 (free) on 3", coupon({ type: "percentage", percentPaid: 0 }), 300, 300],
    ["one cent on 口袋件: the parcel costs 0.01", cent(), 120, 119],
    ["one cent on 大件", cent(), 400, 399],
    ["a fixed price above the parcel's price takes nothing", coupon({ type: "fixed", fixedPriceFen: 500 }), 400, 0],
    ["nothing off a free parcel", half(), 0, 0],
  ];
  it.each(CASES)("%s", (_name, item, price, discount) => {
    expect(discountOn(item, price)).toBe(discount);
  });

  it("labels its terms", () => {
    expect(termsLabel(half())).toBe("5折");
    expect(termsLabel(eighty())).toBe("8折");
    expect(termsLabel(coupon({ type: "percentage", percentPaid: 85 }))).toBe("8.5折");
    expect(termsLabel(cent())).toBe("0.01元购");
  });
});

describe("the most expensive type of an order", () => {
  it.each([
    [c(1, 0, 0, 0), "pocket"],
    [c(3, 1, 0, 0), "small"],
    [c(2, 2, 1, 0), "medium"],
    [c(0, 0, 0, 1), "large"],
    [c(5, 0, 0, 1), "large"],
    [c(0, 0, 0, 0), undefined],
  ] as const)("%o → %s", (counts, type) => {
    expect(mostExpensiveType(counts, TYPES)?.type).toBe(type);
  });

  it("follows the campus's prices, not the names", () => {
    const types: PricedType[] = [
      { type: "pocket", name: "口袋件", priceFen: 500 },
      { type: "small", name: "小件", priceFen: 200 },
    ];
    expect(mostExpensiveType(c(1, 1, 0, 0), types)?.type).toBe("pocket");
  });
});

// [case, counts, coupons, choice, original, discount, final, coupon applied (name) or null]
type Case = [string, PackageCounts, WalletCoupon[], number | null | undefined, number, number, number, string | null];
const QUOTES: Case[] = [
  ["no coupons: no discount", c(2, 0, 0, 0), [], undefined, 240, 0, 240, null],
  ["5折 on the one 口袋件", c(1, 0, 0, 0), [half()], undefined, 120, 60, 60, "5折券"],
  ["5折 on one 小件 of an order of 口袋件 and 小件", c(3, 1, 0, 0), [half()], undefined, 560, 100, 460, "5折券"],
  ["5折 on one 中件", c(1, 1, 1, 0), [half()], undefined, 620, 150, 470, "5折券"],
  ["5折 on one 大件 only (not on every 大件)", c(0, 0, 0, 3), [half()], undefined, 1200, 200, 1000, "5折券"],
  ["the best of 5折 and 8折 is 5折", c(0, 1, 0, 0), [eighty(), half()], undefined, 200, 100, 100, "5折券"],
  ["the one-cent coupon beats 5折 on a 大件", c(0, 0, 0, 1), [half(), cent()], undefined, 400, 399, 1, "一分钱券"],
  ["a minimum above the total: not usable", c(1, 0, 0, 0), [half({ minAmountFen: 500 })], undefined, 120, 0, 120, null],
  ["a minimum equal to the total: usable", c(0, 0, 0, 1), [half({ minAmountFen: 400 })], undefined, 400, 200, 200, "5折券"],
  ["the minimum compares the total before discount", c(0, 1, 1, 0), [half({ minAmountFen: 500 })], undefined, 500, 150, 350, "5折券"],
  ["a minimum skipped for the next best", c(1, 0, 0, 0), [half({ minAmountFen: 500 }), eighty()], undefined, 120, 24, 96, "8折券"],
  ["an expired coupon never applies", c(1, 0, 0, 0), [half({ expiresAt: NOW })], undefined, 120, 0, 120, null],
  ["a reserved coupon does not apply again", c(1, 0, 0, 0), [half({ status: "reserved" })], undefined, 120, 0, 120, null],
  ["a used coupon does not apply", c(1, 0, 0, 0), [half({ status: "used" })], undefined, 120, 0, 120, null],
  ["no parcels: nothing to discount", c(0, 0, 0, 0), [half()], undefined, 0, 0, 0, null],
  ["zero floor: a free coupon makes a one-parcel order free", c(1, 0, 0, 0), [coupon({ type: "percentage", percentPaid: 0, name: "免单券" })], undefined, 120, 120, 0, "免单券"],
  ["the student chose none", c(1, 0, 0, 0), [half()], null, 120, 0, 120, null],
];

describe("quoting an order", () => {
  it.each(QUOTES)("%s", (_name, counts, wallet, choice, original, discount, final, applied) => {
    const quote = quoteCoupons({ counts, types: TYPES, coupons: wallet, now: NOW, choice });
    expect([quote.originalFen, quote.discountFen, quote.finalFen]).toEqual([original, discount, final]);
    expect(quote.coupon?.name ?? null).toBe(applied);
    expect(quote.finalFen).toBeGreaterThanOrEqual(0);
    expect(quote.items.reduce((sum, item) => sum + item.finalFen, 0)).toBe(final);
  });

  it("takes the nearest expiry among equal discounts, then the lowest id", () => {
    const late = half({ id: 101, expiresAt: "2026-04-09T16:00:00.000Z" });
    const soon = half({ id: 102, expiresAt: "2026-03-20T16:00:00.000Z" });
    const same = half({ id: 100, expiresAt: "2026-03-20T16:00:00.000Z" });
    expect(quoteCoupons({ counts: c(1, 0, 0, 0), types: TYPES, coupons: [late, soon], now: NOW }).coupon?.id).toBe(102);
    expect(quoteCoupons({ counts: c(1, 0, 0, 0), types: TYPES, coupons: [late, soon, same], now: NOW }).coupon?.id).toBe(100);
  });

  it("uses the chosen coupon, and the best when the chosen one cannot be used", () => {
    const a = half({ id: 201 });
    const b = eighty({ id: 202 });
    const chosen = quoteCoupons({ counts: c(1, 0, 0, 0), types: TYPES, coupons: [a, b], now: NOW, choice: 202 });
    expect([chosen.coupon?.id, chosen.discountFen, chosen.automatic]).toEqual([202, 24, false]);
    const gone = quoteCoupons({ counts: c(1, 0, 0, 0), types: TYPES, coupons: [a, b], now: NOW, choice: 999 });
    expect([gone.coupon?.id, gone.automatic]).toEqual([201, true]);
    const tooSmall = quoteCoupons({ counts: c(1, 0, 0, 0), types: TYPES, coupons: [a, eighty({ id: 203, minAmountFen: 1000 })], now: NOW, choice: 203 });
    expect(tooSmall.coupon?.id).toBe(201);
  });

  it("lists every held coupon, usable first, with the reason of the others", () => {
    const quote = quoteCoupons({
      counts: c(1, 0, 0, 0),
      types: TYPES,
      coupons: [half({ id: 301, minAmountFen: 1000 }), eighty({ id: 302 }), coupon({ id: 303, type: "fixed", fixedPriceFen: 500 }), half({ id: 304, expiresAt: NOW })],
      now: NOW,
    });
    expect(quote.options.map((option) => [option.coupon.id, option.usable, option.reason])).toEqual([
      [302, true, null],
      [301, false, "min"],
      [303, false, "zero"],
    ]);
  });

  it("details one row per parcel, the discounted one first", () => {
    const quote = quoteCoupons({ counts: c(2, 1, 0, 0), types: TYPES, coupons: [half()], now: NOW });
    expect(quote.items.map((item) => [item.type, item.originalFen, item.discountFen, item.finalFen, item.couponName])).toEqual([
      ["small", 200, 100, 100, "5折券"],
      ["pocket", 120, 0, 120, null],
      ["pocket", 120, 0, 120, null],
    ]);
  });

  it("answers the product rules' calculation result", () => {
    const quote = quoteCoupons({ counts: c(1, 0, 0, 1), types: TYPES, coupons: [half({ id: 9 })], now: NOW });
    expect(calculationResult(quote)).toMatchObject({
      original_total: 5.2,
      total_discount: 2,
      final_total: 3.2,
      original_total_fen: 520,
      total_discount_fen: 200,
      final_total_fen: 320,
      used_coupons_count: 1,
      coupon_usage: [{ coupon_id: 9, coupon_name: "5折券", applied_to: "大件", original_price: 4, discount_amount: 2, final_price: 2 }],
      express_items: [
        { type: "large", original_price: 4, coupon_name: "5折券", discount: 2, final_price: 2 },
        { type: "pocket", original_price: 1.2, coupon_name: null, discount: 0, final_price: 1.2 },
      ],
    });
    const none = calculationResult(quoteCoupons({ counts: c(1, 0, 0, 0), types: TYPES, coupons: [], now: NOW }));
    expect(none).toMatchObject({ total_discount: 0, used_coupons_count: 0, coupon_usage: [] });
  });
});

describe("expiry", () => {
  it.each([
    // granted (UTC), valid days, expires at (UTC), last valid day (Shanghai)
    ["2026-03-03T02:00:00.000Z", 30, "2026-04-02T16:00:00.000Z", "2026-04-02"],
    // 23:30 in Shanghai on 3 March is still 3 March there.
    ["2026-03-03T15:30:00.000Z", 30, "2026-04-02T16:00:00.000Z", "2026-04-02"],
    // 00:30 in Shanghai on 4 March.
    ["2026-03-03T16:30:00.000Z", 30, "2026-04-03T16:00:00.000Z", "2026-04-03"],
    ["2026-12-20T04:00:00.000Z", 30, "2027-01-19T16:00:00.000Z", "2027-01-19"],
    ["2026-03-03T02:00:00.000Z", 1, "2026-03-04T16:00:00.000Z", "2026-03-04"],
  ] as const)("granted %s for %i days → %s", (granted, days, expires, last) => {
    expect(couponExpiresAt(new Date(granted), days)).toBe(expires);
    expect(lastValidDay(expires)).toBe(last);
  });

  it.each([
    ["2026-03-13T04:00:00.000Z", true],
    ["2026-03-13T04:00:00.001Z", false],
    ["2026-03-10T04:00:00.001Z", true],
    [NOW, false],
  ])("expiring at %s is flagged within 3 days: %s", (expiresAt, soon) => {
    expect(isExpiringSoon({ expiresAt }, NOW)).toBe(soon);
  });
});

describe("the coupon summary", () => {
  it("groups available coupons per template with the nearest expiry, flags 3 days, counts the rest", () => {
    const wallet = [
      half({ templateId: 1, expiresAt: "2026-04-01T16:00:00.000Z" }),
      half({ templateId: 1, expiresAt: "2026-03-12T16:00:00.000Z" }),
      eighty({ templateId: 2, expiresAt: "2026-04-01T16:00:00.000Z" }),
      eighty({ templateId: 2, expiresAt: "2026-04-01T16:00:00.000Z" }),
      eighty({ templateId: 2, status: "used" }),
      half({ templateId: 1, status: "reserved" }),
      half({ templateId: 1, expiresAt: "2026-03-01T16:00:00.000Z" }),
    ];
    const summary = summarizeCoupons(wallet, NOW);
    expect(summary.groups.map((group) => [group.templateId, group.name, group.label, group.availableCount, group.nearestExpiry, group.expiringSoon])).toEqual([
      [1, "5折券", "5折", 2, "2026-03-12T16:00:00.000Z", true],
      [2, "8折券", "8折", 2, "2026-04-01T16:00:00.000Z", false],
    ]);
    expect(summary.stats).toEqual({ available: 4, reserved: 1, used: 1, expired: 1, expiringSoon: 1 });
    expect(summarizeCoupons([], NOW)).toEqual({ groups: [], stats: { available: 0, reserved: 0, used: 0, expired: 0, expiringSoon: 0 } });
  });
});

describe("package counts from a request", () => {
  it.each([
    [{ pocket: 2, small: "1" }, c(2, 1, 0, 0)],
    [{ pocket: -1, large: 2.7, other: 5 }, c(0, 0, 0, 2)],
    [{ medium: 1e9 }, c(0, 0, 99, 0)],
    [null, c(0, 0, 0, 0)],
    ["x", c(0, 0, 0, 0)],
  ])("%o → %o", (input, expected) => {
    expect(normalizeCounts(input)).toEqual(expected);
  });
});
