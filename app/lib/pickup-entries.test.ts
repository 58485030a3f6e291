import { describe, expect, it } from "vitest";
import { canSave, entryFromInput, entryHoldsOneCode, holdsOneCode, isDuplicate, mergeRecognized, sameParcel, withDefaults, type PickupEntry } from "./pickup-entries";

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

describe("the product rules' defaults and aliases", () => {
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

  it("carries a read to check: the parser's flag, and a known flag posted back; an unknown one is dropped", () => {
    expect(withDefaults({ company: null, trackingNumber: "773512306609841", pickupCode: null, stationName: "西区驿站", pickupType: "tracking", check: "long-number" }).check).toBe("long-number");
    expect(withDefaults({ company: null, trackingNumber: null, pickupCode: "1-2-3301", stationName: null, pickupType: "code" }).check).toBeNull();
    expect(entryFromInput({ trackingNumber: "773512306609841", check: "long-number" })?.check).toBe("long-number");
    expect(entryFromInput({ pickupCode: "1-2-3301", check: "trust-me" })?.check).toBeNull();
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
  it.each([
    ["same code, same station, another carrier", { pickupCode: "1-1-1001", stationName: "东区驿站", company: "韵达快递" }, true],
    ["same code written in full width with spaces", { pickupCode: "１－１－ 1001", stationName: "东区驿站" }, true],
    ["same code, station with full-width brackets and spaces", { pickupCode: "1-1-1001", stationName: "东区 驿站" }, true],
    ["same code, station left at the default", { pickupCode: "1-1-1001", stationName: "菜鸟驿站取件点" }, true],
    ["same code, another station", { pickupCode: "1-1-1001", stationName: "西区驿站" }, false],
    ["another code, same station", { pickupCode: "1-1-1002", stationName: "东区驿站" }, false],
    ["same tracking number under another code", { pickupCode: null, trackingNumber: "7310293847561", stationName: "西区驿站" }, true],
  ])("%s → duplicate %s", (_name, candidate, expected) => {
    const list = [entry({ id: "a", trackingNumber: "7310293847561" })];
    expect(isDuplicate(list, candidate)).toBe(expected);
    expect(isDuplicate(list, candidate, "a")).toBe(false);
  });

  it("treats half-width and full-width brackets in a station as one place", () => {
    expect(sameParcel({ pickupCode: "7-2-3301", stationName: "菜鸟驿站(东门)" }, { pickupCode: "7-2-3301", stationName: "菜鸟驿站（东门）" })).toBe(true);
  });

  it("recognising the same text again adds nothing, even after the carrier of an entry was edited", () => {
    let n = 0;
    const id = () => `n${++n}`;
    const found = [
      { company: "中通快递", trackingNumber: null, pickupCode: "1-1-1001", stationName: "东区驿站", pickupType: "code" as const },
      { company: "中通快递", trackingNumber: null, pickupCode: "2-2-2002", stationName: "东区驿站", pickupType: "code" as const },
    ];
    const first = mergeRecognized([], found, "text", id).entries;
    const edited = first.map((e, i) => (i === 0 ? { ...e, company: "韵达快递", source: "manual" as const } : e));
    const again = mergeRecognized(edited, found, "text", id);
    expect(again.entries).toHaveLength(2);
    expect([again.added, again.duplicates]).toEqual([1, 1]);
    expect(mergeRecognized(again.entries, [...found, ...found], "image", id).added).toBe(0);
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

describe("one entry holds one code", () => {
  it.each([
    ["8-8-1234", true],
    ["A12-3456", true],
    ["ZT7000123456789", true],
    ["8 8 1234", true],
    ["  12-3-4567  ", true],
    ["", true],
    [null, true],
    ["1-2-3 4-5-6", false],
    ["1-1-1111 2-2-2222 3-3-3333 4-4-4444 5-5-5555", false],
    ["A1001，B2002，C3003", false],
    ["8-8-1234、8-8-1235", false],
    ["8-8-1234;8-8-1235", false],
    ["8-8-1234/8-8-1235", false],
    ["8-8-1234\n8-8-1235", false],
  ])("%j holds one code: %s", (value, one) => {
    expect(holdsOneCode(value)).toBe(one);
  });

  it("the tracking number is held to the same rule", () => {
    expect(entryHoldsOneCode({ pickupCode: "8-8-1234", trackingNumber: null })).toBe(true);
    expect(entryHoldsOneCode({ pickupCode: null, trackingNumber: "ZT7000123456 ZT7000123457" })).toBe(false);
  });
});
