import { describe, expect, it } from "vitest";
import { canSave, entryFromInput, isDuplicate, mergeRecognized, withDefaults, type PickupEntry } from "./pickup-entries";

const entry = (over: Partial<PickupEntry>): PickupEntry => ({
  id: "x",
  company: "中通快递",
  trackingNumber: null,
  pickupCode: "1-1-1001",
  stationName: "东区驿站",
  pickupType: "code",
  source: "text",
  ...over,
});

describe("the spec's defaults and aliases", () => {
  it("fills the company and station only where the text said nothing", () => {
    expect(withDefaults({ company: null, trackingNumber: null, pickupCode: "1", stationName: null, pickupType: "code" })).toMatchObject({
      company: "未知快递",
      stationName: "菜鸟驿站取件点",
    });
  });

  it.each([
    [{ pickup_code: "1-2-3" }, "1-2-3"],
    [{ pickup_credential: "8899" }, "8899"],
    [{ pickup_codes: ["A1-2", "B3-4"] }, "A1-2"],
    [{ pickupCode: "５－１", pickup_code: "x" }, "5-1"],
  ])("reads %o as code %s", (input, code) => {
    expect(entryFromInput(input)?.pickupCode).toBe(code);
  });

  it("reads station_name and refuses an entry with neither code nor tracking number", () => {
    expect(entryFromInput({ pickup_code: "1", station_name: "西区驿站" })?.stationName).toBe("西区驿站");
    expect(entryFromInput({ company: "中通" })).toBeNull();
    expect(entryFromInput("nope")).toBeNull();
  });
});

describe("the save rule", () => {
  it.each([
    [{ trackingNumber: "7310293847561", stationName: "东区驿站" }, true],
    [{ pickupCode: "1-1", company: "中通" }, true],
    [{ pickupCode: "1-1", stationName: "东区驿站" }, true],
    [{ trackingNumber: "7310293847561", company: "中通" }, false],
    [{ pickupCode: "1-1" }, false],
    [{ stationName: "东区驿站", company: "中通" }, false],
    [{ pickupCode: "  ", company: "中通" }, false],
  ])("%o → %s", (value, expected) => {
    expect(canSave(value)).toBe(expected);
  });
});

describe("duplicates and merging", () => {
  it("is a duplicate with the same code, tracking number and company", () => {
    const list = [entry({ id: "a" })];
    expect(isDuplicate(list, { pickupCode: "1-1-1001", company: "中通快递", trackingNumber: null })).toBe(true);
    expect(isDuplicate(list, { pickupCode: "1-1-1001", company: "圆通速递", trackingNumber: null })).toBe(false);
    expect(isDuplicate(list, { pickupCode: "1-1-1001", company: "中通快递", trackingNumber: null }, "a")).toBe(false);
  });

  it("replaces earlier text results, keeps manual and screenshot ones, skips duplicates", () => {
    let n = 0;
    const id = () => `n${++n}`;
    const list = [entry({ id: "t1", pickupCode: "old" }), entry({ id: "m1", pickupCode: "9-9-9999", source: "manual" })];
    const found = [
      { company: "中通快递", trackingNumber: null, pickupCode: "1-1-1001", stationName: "东区驿站", pickupType: "code" as const },
      { company: "中通快递", trackingNumber: null, pickupCode: "9-9-9999", stationName: "东区驿站", pickupType: "code" as const },
    ];
    const merged = mergeRecognized(list, found, "text", id);
    expect(merged.entries.map((e) => e.id)).toEqual(["m1", "n1"]);
    expect([merged.added, merged.duplicates]).toEqual([1, 1]);
    const images = mergeRecognized(merged.entries, found, "image", id);
    expect([images.added, images.duplicates]).toEqual([0, 2]);
  });
});
