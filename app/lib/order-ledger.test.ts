import { describe, expect, it } from "vitest";
import { failureCoversSupplement, type SizeCounts } from "./order-ledger";

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
