import { describe, expect, it } from "vitest";
import { deliveryFailureOf, failedDeliveryRefundFen, failureCoversSupplement, type SizeCounts } from "./order-ledger";

const sizes = (partial: Partial<SizeCounts>): SizeCounts => ({ pocket: 0, small: 0, medium: 0, large: 0, ...partial });

describe("failureCoversSupplement (S4)", () => {
  it.each([
    ["the whole order missing, whatever was said", { pocket: 2 }, { pocket: 2 }, false, true],
    ["every parcel of its declared size missing", { pocket: 1, small: 1 }, { pocket: 1 }, false, true],
    ["named among the missing of its size", { pocket: 3 }, { pocket: 1 }, true, true],
    ["another parcel of its size missing", { pocket: 3 }, { pocket: 1 }, false, false],
    ["only parcels of another size missing", { pocket: 1, small: 1 }, { small: 1 }, false, false],
    ["named though none of its size is missing", { pocket: 1, small: 1 }, { small: 1 }, true, null],
  ] as const)("%s", (_, counts, missing, named, covered) => {
    expect(failureCoversSupplement({ counts: sizes(counts), missing: sizes(missing), declared: "pocket", named })).toBe(covered);
  });
});

describe("deliveryFailureOf: a parcel left at the station (S3) is not deliverable", () => {
  // Three pockets at 500 with a 300 coupon: 1200 paid; one pocket was left and refunded.
  const order = { amountFen: 1200, discountFen: 300, counts: sizes({ pocket: 3 }), left: "pocket" as const, unitPrices: { pocket: 500 } };
  const leftFen = failedDeliveryRefundFen({ ...order, missing: sizes({ pocket: 1 }) });

  it("is partial only while a deliverable parcel arrives, and never refunds the left parcel twice", () => {
    const one = deliveryFailureOf({ ...order, missing: sizes({ pocket: 1 }) })!;
    expect(one).toMatchObject({ partial: true, deliverable: sizes({ pocket: 2 }) });
    // Kept: one pocket less the coupon, 200; the left parcel's refund and this one give back the rest.
    expect(leftFen + one.refundFen).toBe(1200 - 200);
    const both = deliveryFailureOf({ ...order, missing: sizes({ pocket: 2 }) })!;
    expect(both.partial).toBe(false);
    expect(leftFen + both.refundFen).toBe(1200);
    expect(deliveryFailureOf({ ...order, missing: null })).toEqual(both);
  });

  it("refuses more missing than there are to deliver, or none", () => {
    expect(deliveryFailureOf({ ...order, missing: sizes({ pocket: 3 }) })).toBeNull();
    expect(deliveryFailureOf({ ...order, missing: sizes({}) })).toBeNull();
    expect(deliveryFailureOf({ ...order, left: null, missing: sizes({ pocket: 3 }) })).toMatchObject({ partial: false, refundFen: 1200 });
  });
});
