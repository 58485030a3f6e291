import { describe, expect, it } from "vitest";
import { isDuplicate, matchPlace, mergeRecognized, normalizeCredential, normalizeStation, sameParcel, sameStation, type PickupEntry } from "./pickup-entries";

// One parcel, one entry: the canonical parcel identity (docs/recognition.md).
describe("normalizeCredential: one canonical form of a code", () => {
  it.each([
    ["6-2-1101", "6-2-1101"],
    ["6.2.1101", "6-2-1101"],
    ["6 2 1101", "6-2-1101"],
    ["６－２－１１０１", "6-2-1101"],
    ["6—2—1101", "6-2-1101"],
    ["6_2/1101", "6-2-1101"],
    ["6-2-\u200b1101", "6-2-1101"],
    ["\u20606-2-1101\ufeff", "6-2-1101"],
    ["6 - 2 - 1101。", "6-2-1101"],
    ["「6-2-1101」", "6-2-1101"],
    ["a12-3", "A12-3"],
    ["1号柜 902144", "1号柜902144"],
    ["1号柜902144", "1号柜902144"],
    ["621101", "621101"],
    ["", ""],
    [null, ""],
  ])("%s → %s", (input, expected) => {
    expect(normalizeCredential(input)).toBe(expected);
  });

  it("keeps groups written together apart from groups written with separators", () => {
    expect(normalizeCredential("621101")).not.toBe(normalizeCredential("6-2-1101"));
    expect(normalizeCredential("62-1101")).not.toBe(normalizeCredential("6-2-1101"));
  });

  it("reads a tracking number without any separator", () => {
    expect(normalizeCredential("SF 1234 5678 9012", "tracking")).toBe("SF123456789012");
    expect(normalizeCredential("７３１０２９３８４７５６１", "tracking")).toBe("7310293847561");
  });
});

describe("stations", () => {
  const places = ["西区驿站", "东区菜鸟驿站", "北门丰巢柜"];
  it.each([
    ["西区驿", "西区驿站", true],
    ["西区驿站", "西区 驿站", true],
    ["西区驿站", "西区驿站。", true],
    ["东区驿站", "西区驿站", false],
    ["东区菜鸟驿站(东门)", "东区菜鸟驿站", true],
    ["菜鸟驿站取件点", "西区驿站", true],
    ["北门", "北门丰巢柜", false],
  ])("%s ≈ %s: %s", (a, b, expected) => {
    expect(sameStation(a, b, places)).toBe(expected);
  });

  it("matches a read station to the campus's pickup place, when it names exactly one", () => {
    expect(matchPlace("西区驿", places)).toBe("西区驿站");
    expect(matchPlace("东区菜鸟驿站(东门)", places)).toBe("东区菜鸟驿站");
    expect(matchPlace("南门快递点", places)).toBeNull();
    expect(normalizeStation("菜鸟驿站取件点")).toBe("");
  });
});

describe("one parcel, one entry", () => {
  const entry = (fields: Partial<PickupEntry>): PickupEntry => ({ id: "a", company: "中通快递", trackingNumber: null, pickupCode: "6-2-1101", stationName: "西区驿站", pickupType: "code", source: "text", ...fields });

  it.each([
    ["a crafted variant with dots", { pickupCode: "6.2.1101", stationName: "西区驿站" }],
    ["a crafted variant with spaces and a zero-width space", { pickupCode: "6 2\u200b 1101", stationName: "西区驿站" }],
    ["full-width, from a screenshot with the station cut short", { pickupCode: "６－２－１１０１", stationName: "西区驿" }],
    ["another carrier", { pickupCode: "6-2-1101", stationName: "西区驿站", company: "韵达快递" }],
  ])("%s is the same parcel", (_name, other) => {
    expect(sameParcel(entry({}), other)).toBe(true);
    expect(isDuplicate([entry({})], other)).toBe(true);
  });

  it("another code or another place is another parcel", () => {
    expect(sameParcel(entry({}), { pickupCode: "6-2-1102", stationName: "西区驿站" })).toBe(false);
    expect(sameParcel(entry({}), { pickupCode: "6-2-1101", stationName: "东区驿站" })).toBe(false);
    expect(sameParcel(entry({}), { pickupCode: "621101", stationName: "西区驿站" })).toBe(false);
  });

  it("the same SMS pasted and then uploaded as a screenshot gives one entry", () => {
    let n = 0;
    const id = () => `n${++n}`;
    const pasted = mergeRecognized([], [{ company: "中通快递", trackingNumber: null, pickupCode: "6-2-1101", stationName: "西区驿站", pickupType: "code" }], "text", id).entries;
    const uploaded = mergeRecognized(pasted, [{ company: "中通快递", trackingNumber: null, pickupCode: "6-2-1101", stationName: "西区驿", pickupType: "code" }], "image", id, ["西区驿站"]);
    expect(uploaded.entries).toHaveLength(1);
    expect(uploaded.duplicates).toBe(1);
  });
});
