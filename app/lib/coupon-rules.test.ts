import { describe, expect, it } from "vitest";
import { DEFAULT_PACKAGE_TYPES } from "./catalog";
import {
  DEFAULT_COUPON_TEMPLATES,
  DEFAULT_GRANT_RULES,
  campaignCopy,
  lowestPriceFen,
  milestoneThresholds,
  rewardChips,
  rewardText,
  rulesFor,
  thresholdText,
  type RuleView,
  type TemplateView,
} from "./coupon-rules";

// The seed as the database holds it.
const TEMPLATES: TemplateView[] = DEFAULT_COUPON_TEMPLATES.map((template, index) => ({ ...template, id: index + 1 }));
const SEED: RuleView[] = DEFAULT_GRANT_RULES.map((rule, index) => ({
  event: rule.event,
  threshold: rule.threshold,
  quantity: rule.quantity,
  sortOrder: index,
  template: TEMPLATES.find((template) => template.code === rule.template)!,
}));
const TYPES = DEFAULT_PACKAGE_TYPES.map((type) => ({ priceFen: type.priceFen }));

describe("the default rules render the promo copy", () => {
  it("new user: 2 × 5折 + 3 × 8折, no threshold", () => {
    expect(rewardText(rulesFor(SEED, "new_user"))).toBe("2张5折券 + 3张8折券");
    expect(rewardChips(rulesFor(SEED, "new_user"))).toEqual(["5折×2", "8折×3"]);
    expect(thresholdText(rulesFor(SEED, "new_user"))).toBe("无门槛");
  });

  it("inviter: 1 × 5折 + 1 × 8折 per assist; 1 × 5折 at 5, 2 × 5折 at 10", () => {
    expect(rewardText(rulesFor(SEED, "assist"))).toBe("1张5折券 + 1张8折券");
    expect(milestoneThresholds(SEED)).toEqual([5, 10]);
    expect(rewardText(rulesFor(SEED, "milestone", 5))).toBe("1张5折券");
    expect(rewardText(rulesFor(SEED, "milestone", 10))).toBe("2张5折券");
  });

  it("pickup from 6 jiao: the cheapest type (1.2) under the best percentage coupon (5折)", () => {
    expect(lowestPriceFen(TYPES, SEED)).toBe(60);
    expect(campaignCopy(SEED, TYPES).priceFrom).toBe("取件低至0.6元");
  });

  it("the rules text follows the data", () => {
    const copy = campaignCopy(SEED, TYPES);
    expect(copy.rules).toEqual([
      "新用户首次使用学号登录，或通过好友邀请注册，即可获得2张5折券 + 3张8折券，无门槛。",
      "每成功邀请1位新用户注册助力，邀请人获得1张5折券 + 1张8折券，被邀请人同时获得新人优惠券，双方都有奖励。",
      "累计成功邀请5位好友，额外获得1张5折券；累计成功邀请10位好友，额外获得2张5折券。",
      "每位用户只能助力一次，不能为自己助力；已领取过新人优惠券的老用户不能参与助力。",
      "邀请链接打开后7天内有效；优惠券有效期30天，过期作废。",
      "每笔订单限用1张优惠券，用于订单中价格最高的1件包裹。",
    ]);
    expect(copy.newUserBody).toBe("首次学号登录即送2张5折券 + 3张8折券，无门槛，自动发放");
    expect(copy.milestoneLines).toEqual(["累计邀请5位好友，额外再得1张5折券", "累计邀请10位好友，额外再得2张5折券"]);
  });
});

describe("other rules render other copy", () => {
  // [case, templates+rules, new-user reward, threshold, lowest price]
  const cent: TemplateView = { id: 9, code: "cent", name: "一分钱券", type: "fixed", percentPaid: null, fixedPriceFen: 1, minAmountFen: 0, validDays: 7 };
  const halfMin5: TemplateView = { id: 10, code: "half5", name: "5折券", type: "percentage", percentPaid: 50, fixedPriceFen: null, minAmountFen: 500, validDays: 30 };
  const eighty: TemplateView = { id: 11, code: "eighty", name: "8折券", type: "percentage", percentPaid: 80, fixedPriceFen: null, minAmountFen: 0, validDays: 30 };
  const rule = (template: TemplateView, quantity = 1, event: RuleView["event"] = "new_user", threshold = 0): RuleView => ({ event, threshold, quantity, sortOrder: template.id, template });
  it.each([
    ["the product rules' constants", [rule(eighty), rule(halfMin5), rule(cent)], "1张8折券 + 1张5折券 + 1张一分钱券", "满5元可用", 60],
    ["one 8折 only", [rule(eighty, 3)], "3张8折券", "无门槛", 96],
    ["a fixed coupon only: no percentage, the cheapest price", [rule(cent)], "1张一分钱券", "无门槛", 120],
  ] as const)("%s", (_name, rules, reward, threshold, lowest) => {
    // Rules are listed in their sort order.
    const list = rules.map((item, index) => ({ ...item, sortOrder: index }));
    expect(rewardText(rulesFor(list, "new_user"))).toBe(reward);
    expect(thresholdText(rulesFor(list, "new_user"))).toBe(threshold);
    expect(lowestPriceFen(TYPES, list)).toBe(lowest);
  });

  it("no milestones: no milestone rule line", () => {
    const copy = campaignCopy([rule(eighty), rule(eighty, 1, "assist")], TYPES);
    expect(copy.milestones).toEqual([]);
    expect(copy.rules.some((line) => line.includes("累计"))).toBe(false);
    expect(copy.rules).toHaveLength(5);
  });
});
