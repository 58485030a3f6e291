// The coupon grant rules as data (docs/architecture.md "Coupon rules are data") and every text rendered from them:
// the express tab's promo card, the promo page's cards and rules, the share texts, and the
// "pickup from 6 jiao" line. The seed below is the default the database starts with; pages read
// the rules from the database and render them here, so copy and grant can never disagree.
import { formatYuan } from "./money";
import { discountOn, termsLabel, type CouponTerms } from "./coupons";
import { coupons as couponMessages } from "./messages/coupons";
import type { PricedType } from "./package-counts";
import { fillTemplate } from "./template";

const m = couponMessages;

export type GrantEvent = "new_user" | "assist" | "milestone";

export type TemplateView = CouponTerms & { id: number; code: string; name: string; validDays: number };
export type RuleView = { event: GrantEvent; threshold: number; quantity: number; sortOrder: number; template: TemplateView };

/** The default templates (seed): 5折 and 8折, no threshold, valid 30 days. */
export const DEFAULT_COUPON_TEMPLATES = [
  { code: "half", name: "5折券", type: "percentage", percentPaid: 50, fixedPriceFen: null, minAmountFen: 0, validDays: 30 },
  { code: "eighty", name: "8折券", type: "percentage", percentPaid: 80, fixedPriceFen: null, minAmountFen: 0, validDays: 30 },
] as const;

/**
 * The default rules (seed), as the promo copy users are shown: a new user gets 2 × 5折 + 3 × 8折;
 * the inviter gets 1 × 5折 + 1 × 8折 per assisted new user, 1 × 5折 more at 5 and 2 × 5折 at 10.
 */
export const DEFAULT_GRANT_RULES: { event: GrantEvent; threshold: number; template: string; quantity: number }[] = [
  { event: "new_user", threshold: 0, template: "half", quantity: 2 },
  { event: "new_user", threshold: 0, template: "eighty", quantity: 3 },
  { event: "assist", threshold: 0, template: "half", quantity: 1 },
  { event: "assist", threshold: 0, template: "eighty", quantity: 1 },
  { event: "milestone", threshold: 5, template: "half", quantity: 1 },
  { event: "milestone", threshold: 10, template: "half", quantity: 2 },
];

export function rulesFor(rules: RuleView[], event: GrantEvent, threshold = 0) {
  return rules
    .filter((rule) => rule.event === event && (event !== "milestone" || rule.threshold === threshold))
    .sort((a, b) => a.sortOrder - b.sortOrder);
}

/** The milestone thresholds, ascending (5, 10 by default). */
export function milestoneThresholds(rules: RuleView[]) {
  return [...new Set(rules.filter((rule) => rule.event === "milestone").map((rule) => rule.threshold))].sort((a, b) => a - b);
}

/** "2张5折券 + 3张8折券". */
export function rewardText(rules: RuleView[]) {
  return rules.map((rule) => fillTemplate(m.rewardItem, { count: rule.quantity, name: rule.template.name })).join(m.rewardJoin);
}

/** Chips for the promo card: "5折×2", "8折×3". */
export function rewardChips(rules: RuleView[]) {
  return rules.map((rule) => fillTemplate(m.chip, { label: termsLabel(rule.template), count: rule.quantity }));
}

/** The promo card's tickets: { label: "5折", count: 2 }. */
export function rewardTickets(rules: RuleView[]) {
  return rules.map((rule) => ({ label: termsLabel(rule.template), count: rule.quantity }));
}

/** "无门槛" when no coupon of these rules has a minimum, else the lowest "满X元可用". */
export function thresholdText(rules: RuleView[]) {
  const minimums = rules.map((rule) => rule.template.minAmountFen).filter((fen) => fen > 0);
  if (minimums.length === 0) return m.noThreshold;
  return fillTemplate(m.minAmount, { amount: formatYuan(Math.min(...minimums)) });
}

/** "有效期30天" (the longest validity of the rules' templates). */
export function validityText(rules: RuleView[]) {
  const days = Math.max(0, ...rules.map((rule) => rule.template.validDays));
  return fillTemplate(m.validDays, { days });
}

/**
 * The lowest price of one parcel with a new user's best percentage coupon: the cheapest type
 * under that coupon, rounded in the student's favour (1.2 元 at 5折 → 60 fen, "6 jiao").
 * Null when there are no types; the cheapest price when there is no percentage coupon.
 */
export function lowestPriceFen(types: Pick<PricedType, "priceFen">[], rules: RuleView[]): number | null {
  if (types.length === 0) return null;
  const cheapest = Math.min(...types.map((type) => type.priceFen));
  const pool = rulesFor(rules, "new_user").length > 0 ? rulesFor(rules, "new_user") : rules;
  const percentages = pool.map((rule) => rule.template).filter((template) => template.type === "percentage");
  if (percentages.length === 0) return cheapest;
  return Math.min(...percentages.map((template) => cheapest - discountOn(template, cheapest)));
}

/** "取件低至0.6元". */
export function priceFromText(types: Pick<PricedType, "priceFen">[], rules: RuleView[]) {
  const fen = lowestPriceFen(types, rules);
  return fen === null ? "" : fillTemplate(m.priceFrom, { price: formatYuan(fen) });
}

export type MilestoneCopy = { threshold: number; reward: string };

/** Everything the pages say about the campaign, from the rules. */
export function campaignCopy(rules: RuleView[], types: Pick<PricedType, "priceFen">[]) {
  const newUser = rulesFor(rules, "new_user");
  const assist = rulesFor(rules, "assist");
  const milestones: MilestoneCopy[] = milestoneThresholds(rules).map((threshold) => ({
    threshold,
    reward: rewardText(rulesFor(rules, "milestone", threshold)),
  }));
  const newUserReward = rewardText(newUser);
  const assistReward = rewardText(assist);
  const priceFrom = priceFromText(types, rules);
  const threshold = thresholdText(newUser);
  const validity = validityText(rules);
  const milestoneLines = milestones.map((item) => fillTemplate(m.promo.milestoneRule, { count: item.threshold, reward: item.reward }));
  return {
    newUserReward,
    newUserChips: rewardChips(newUser),
    newUserTickets: rewardTickets(newUser),
    newUserThreshold: threshold,
    assistReward,
    assistChips: rewardChips(assist),
    milestones,
    priceFrom,
    validity,
    newUserBody: fillTemplate(m.promo.newUserBody, { reward: newUserReward, threshold }),
    inviteBody: fillTemplate(m.promo.inviteBody, { reward: assistReward }),
    milestoneLines: milestones.map((item) => fillTemplate(m.promo.milestone, { count: item.threshold, reward: item.reward })),
    rules: m.promo.rules
      .map((line) =>
        fillTemplate(line, {
          newUser: newUserReward,
          threshold,
          assist: assistReward,
          milestones: milestoneLines.join(m.promo.milestoneJoin),
          validity,
        }),
      )
      // A rule about nothing (no milestones) is left out.
      .filter((line) => line.replace(/[。；\s]/g, "") !== ""),
  };
}

export type CampaignCopy = ReturnType<typeof campaignCopy>;
