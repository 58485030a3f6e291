// Coupon maths (docs/architecture.md "Coupon maths"), pure and in integer fen:
// - at most one coupon per order, the best for the student by default (largest discount, then
//   nearest expiry), or the one they chose, or none;
// - it applies to one parcel of the most expensive type in the order: a percentage coupon
//   (5折 = pay 50 %) discounts that parcel, a fixed coupon sets that parcel's price;
// - min_amount is compared with the order's total before discount; expired coupons never apply;
// - final = max(0, total − discount); a percentage discount is rounded in the student's favour.
// The order-confirm sheet, POST /api/coupon/calculate-discount and order creation all call
// quoteCoupons, so the price a student sees is the price they pay.
import { PACKAGE_TYPE_KEYS, type PackageTypeKey } from "./catalog";
import { fenToYuan as yuan, formatYuan } from "./money";
import { coupons as couponMessages } from "./messages/coupons";
import type { PackageCounts, PricedType } from "./package-counts";
import { fillTemplate } from "./template";
import { addDays, isoDate, shanghaiDate, shanghaiInstant, shanghaiToday } from "./time";

const m = couponMessages;

export type CouponType = "percentage" | "fixed";
export type CouponStatus = "unused" | "reserved" | "used";

/** What a coupon does (a template's or a granted coupon's copy of it). */
export type CouponTerms = {
  type: CouponType;
  /** percentage: the share of the parcel's price the student pays (5折 = 50). */
  percentPaid: number | null;
  /** fixed: the parcel's price with the coupon. */
  fixedPriceFen: number | null;
  minAmountFen: number;
};

export type WalletCoupon = CouponTerms & {
  id: number;
  name: string;
  templateId: number | null;
  status: CouponStatus;
  expiresAt: string;
};

export const EXPIRING_SOON_MS = 3 * 24 * 60 * 60 * 1000;

const iso = (at: Date | string) => (typeof at === "string" ? at : at.toISOString());

/** "5折", "8.5折", "0.01元购". */
export function termsLabel(terms: Pick<CouponTerms, "type" | "percentPaid" | "fixedPriceFen">) {
  if (terms.type === "percentage") return fillTemplate(m.percentLabel, { n: String((terms.percentPaid ?? 100) / 10) });
  return fillTemplate(m.fixedLabel, { price: formatYuan(terms.fixedPriceFen ?? 0) });
}

/** What a coupon takes off a parcel of this price (never more than the price, never negative). */
export function discountOn(terms: CouponTerms, priceFen: number): number {
  if (priceFen <= 0) return 0;
  if (terms.type === "percentage") {
    const percent = Math.min(100, Math.max(0, terms.percentPaid ?? 100));
    // The student pays the fen rounded down: the discount is rounded up.
    const paid = Math.floor((priceFen * percent) / 100);
    return priceFen - paid;
  }
  const fixed = Math.max(0, terms.fixedPriceFen ?? priceFen);
  return Math.max(0, priceFen - fixed);
}

export function isExpired(coupon: Pick<WalletCoupon, "expiresAt">, now: Date | string) {
  return coupon.expiresAt <= iso(now);
}

export function isExpiringSoon(coupon: Pick<WalletCoupon, "expiresAt">, now: Date | string) {
  const left = new Date(coupon.expiresAt).getTime() - new Date(iso(now)).getTime();
  return left > 0 && left <= EXPIRING_SOON_MS;
}

/**
 * When a coupon granted at `grantedAt` stops being valid: valid for `validDays` whole Shanghai
 * days after the day of the grant (a coupon of 30 days granted on 3 March works until the end
 * of 2 April), in the student's favour.
 */
export function couponExpiresAt(grantedAt: Date, validDays: number): string {
  return shanghaiInstant(addDays(shanghaiToday(grantedAt), validDays + 1)).toISOString();
}

/** The last valid day of a coupon, "2026-04-02" (Shanghai). */
export function lastValidDay(expiresAt: string) {
  return isoDate(shanghaiDate(new Date(new Date(expiresAt).getTime() - 1)));
}

// ---------------------------------------------------------------------------------------------
// The quote

export type Unusable = "expired" | "used" | "min" | "zero" | "empty";

export type CouponOption = {
  coupon: WalletCoupon;
  discountFen: number;
  usable: boolean;
  reason: Unusable | null;
};

export type QuoteItem = {
  type: PackageTypeKey;
  name: string;
  originalFen: number;
  discountFen: number;
  finalFen: number;
  couponName: string | null;
};

export type Quote = {
  originalFen: number;
  discountFen: number;
  finalFen: number;
  /** The coupon applied (null: none). */
  coupon: WalletCoupon | null;
  /** The type of the one discounted parcel. */
  appliedTo: { type: PackageTypeKey; name: string; priceFen: number } | null;
  /** Whether the coupon was picked automatically (no choice, or the choice could not be used). */
  automatic: boolean;
  /** Every coupon the student holds that is not used or expired, best first. */
  options: CouponOption[];
  /** One row per parcel. */
  items: QuoteItem[];
};

export type QuoteInput = {
  counts: PackageCounts;
  types: PricedType[];
  coupons: WalletCoupon[];
  now: Date | string;
  /** undefined: the best coupon; null: none; a number: that coupon (the best when it cannot be used). */
  choice?: number | null;
};

/** The parcel type a coupon applies to: the most expensive type with parcels (first of equal prices). */
export function mostExpensiveType(counts: PackageCounts, types: PricedType[]) {
  let best: PricedType | undefined;
  for (const type of types) {
    if ((counts[type.type] ?? 0) > 0 && (!best || type.priceFen > best.priceFen)) best = type;
  }
  return best;
}

function originalOf(counts: PackageCounts, types: PricedType[]) {
  return types.reduce((sum, type) => sum + Math.max(0, counts[type.type] ?? 0) * type.priceFen, 0);
}

function compareOptions(a: CouponOption, b: CouponOption) {
  if (a.usable !== b.usable) return a.usable ? -1 : 1;
  if (a.discountFen !== b.discountFen) return b.discountFen - a.discountFen;
  if (a.coupon.expiresAt !== b.coupon.expiresAt) return a.coupon.expiresAt < b.coupon.expiresAt ? -1 : 1;
  return a.coupon.id - b.coupon.id;
}

export function quoteCoupons(input: QuoteInput): Quote {
  const originalFen = originalOf(input.counts, input.types);
  const target = mostExpensiveType(input.counts, input.types);
  const options: CouponOption[] = input.coupons
    .filter((coupon) => coupon.status === "unused" && !isExpired(coupon, input.now))
    .map((coupon) => {
      const discountFen = target ? discountOn(coupon, target.priceFen) : 0;
      const reason: Unusable | null = !target ? "empty" : originalFen < coupon.minAmountFen ? "min" : discountFen <= 0 ? "zero" : null;
      return { coupon, discountFen: reason ? 0 : discountFen, usable: reason === null, reason };
    })
    .sort(compareOptions);

  const chosen = typeof input.choice === "number" ? options.find((option) => option.coupon.id === input.choice && option.usable) : undefined;
  const applied = input.choice === null ? undefined : (chosen ?? options.find((option) => option.usable));
  const discountFen = applied ? Math.min(originalFen, applied.discountFen) : 0;

  const items: QuoteItem[] = [];
  let discounted = false;
  // The discounted parcel is listed first, then the others in the types' order.
  const ordered = target ? [target, ...input.types.filter((type) => type !== target)] : input.types;
  for (const type of ordered) {
    const count = Math.max(0, input.counts[type.type] ?? 0);
    for (let i = 0; i < count; i += 1) {
      const discount = applied && !discounted && type === target ? discountFen : 0;
      if (discount > 0) discounted = true;
      items.push({
        type: type.type,
        name: type.name,
        originalFen: type.priceFen,
        discountFen: discount,
        finalFen: type.priceFen - discount,
        couponName: discount > 0 ? applied!.coupon.name : null,
      });
    }
  }

  return {
    originalFen,
    discountFen,
    finalFen: Math.max(0, originalFen - discountFen),
    coupon: applied ? applied.coupon : null,
    appliedTo: applied && target ? { type: target.type, name: target.name, priceFen: target.priceFen } : null,
    automatic: input.choice === undefined || (typeof input.choice === "number" && !chosen),
    options,
    items,
  };
}

/**
 * The product rules' "coupon calculation result" (docs/product-rules.md, "Coupons"), amounts in yuan as numbers plus the same
 * amounts in fen (`*_fen`), which is what the pages use.
 */
export function calculationResult(quote: Quote) {
  return {
    original_total: yuan(quote.originalFen),
    total_discount: yuan(quote.discountFen),
    final_total: yuan(quote.finalFen),
    original_total_fen: quote.originalFen,
    total_discount_fen: quote.discountFen,
    final_total_fen: quote.finalFen,
    used_coupons_count: quote.coupon ? 1 : 0,
    coupon_usage:
      quote.coupon && quote.appliedTo
        ? [
            {
              coupon_id: quote.coupon.id,
              coupon_name: quote.coupon.name,
              applied_to: quote.appliedTo.name,
              applied_type: quote.appliedTo.type,
              original_price: yuan(quote.appliedTo.priceFen),
              discount_amount: yuan(quote.discountFen),
              final_price: yuan(quote.appliedTo.priceFen - quote.discountFen),
            },
          ]
        : [],
    express_items: quote.items.map((item) => ({
      type: item.type,
      type_name: item.name,
      original_price: yuan(item.originalFen),
      coupon_name: item.couponName,
      discount: yuan(item.discountFen),
      final_price: yuan(item.finalFen),
    })),
    available_coupons: quote.options.map((option) => ({
      id: option.coupon.id,
      coupon_name: option.coupon.name,
      usable: option.usable,
      discount_amount: yuan(option.discountFen),
      expired_at: option.coupon.expiresAt,
    })),
  };
}

export type CalculationResult = ReturnType<typeof calculationResult>;

// ---------------------------------------------------------------------------------------------
// The coupon summary (POST /coupon/express-pickup/user-coupons, the promo page)

export type SummaryGroup = {
  templateId: number | null;
  name: string;
  label: string;
  terms: CouponTerms;
  availableCount: number;
  nearestExpiry: string;
  expiringSoon: boolean;
};

export type CouponSummary = {
  groups: SummaryGroup[];
  stats: { available: number; reserved: number; used: number; expired: number; expiringSoon: number };
};

/** Available coupons grouped per template (count, nearest expiry, flagged within 3 days), and totals. */
export function summarizeCoupons(coupons: WalletCoupon[], now: Date | string): CouponSummary {
  const groups = new Map<string, SummaryGroup>();
  const stats = { available: 0, reserved: 0, used: 0, expired: 0, expiringSoon: 0 };
  for (const coupon of coupons) {
    if (coupon.status === "used") {
      stats.used += 1;
      continue;
    }
    if (coupon.status === "reserved") {
      stats.reserved += 1;
      continue;
    }
    if (isExpired(coupon, now)) {
      stats.expired += 1;
      continue;
    }
    stats.available += 1;
    const soon = isExpiringSoon(coupon, now);
    if (soon) stats.expiringSoon += 1;
    const key = coupon.templateId !== null ? `t${coupon.templateId}` : `n${coupon.name}:${termsLabel(coupon)}:${coupon.minAmountFen}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        templateId: coupon.templateId,
        name: coupon.name,
        label: termsLabel(coupon),
        terms: { type: coupon.type, percentPaid: coupon.percentPaid, fixedPriceFen: coupon.fixedPriceFen, minAmountFen: coupon.minAmountFen },
        availableCount: 1,
        nearestExpiry: coupon.expiresAt,
        expiringSoon: soon,
      });
    } else {
      group.availableCount += 1;
      if (coupon.expiresAt < group.nearestExpiry) group.nearestExpiry = coupon.expiresAt;
      group.expiringSoon ||= soon;
    }
  }
  const ordered = [...groups.values()].sort((a, b) => (a.nearestExpiry < b.nearestExpiry ? -1 : a.nearestExpiry > b.nearestExpiry ? 1 : 0));
  return { groups: ordered, stats };
}

/** Counts as the product rules' package_counts: known keys, whole non-negative numbers (at most 99 each). */
export function normalizeCounts(value: unknown): PackageCounts {
  const source = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const counts = {} as PackageCounts;
  for (const key of PACKAGE_TYPE_KEYS) {
    const n = Number(source[key] ?? 0);
    counts[key] = Number.isFinite(n) ? Math.min(99, Math.max(0, Math.floor(n))) : 0;
  }
  return counts;
}
