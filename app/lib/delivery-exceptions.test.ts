import { describe, expect, it } from "vitest";
import { FAILURE_REASONS, failureReasonText, isFailureReason, type FailureReason } from "./delivery-exceptions";

const labels = Object.fromEntries(FAILURE_REASONS.map((code) => [code, `L-${code}`])) as Record<FailureReason, string>;

describe("failureReasonText", () => {
  it.each([
    { code: "station_closed", note: "", text: "L-station_closed" },
    { code: "parcel_not_found", note: "  货架上没有 ", text: "L-parcel_not_found：货架上没有" },
    { code: "parcel_missing", note: "少了 小件", text: "L-parcel_missing：少了 小件" },
    { code: "other", note: "", text: null },
    { code: "other", note: "下暴雨", text: "下暴雨" },
    { code: null, note: "", text: null },
    { code: null, note: "  a\n\n b ", text: "a b" },
  ] as const)("$code + '$note' → $text", ({ code, note, text }) => {
    expect(failureReasonText(code, note, labels)).toBe(text);
  });

  it("never runs past the reason's limit", () => {
    expect(failureReasonText("station_closed", "字".repeat(300), labels)!.length).toBe(200);
  });

  it("knows its causes only", () => {
    expect(isFailureReason("station_closed")).toBe(true);
    expect(isFailureReason("closed")).toBe(false);
  });
});
