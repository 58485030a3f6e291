import { describe, expect, it } from "vitest";
import {
  HANDOVER_MAX_FAILURES,
  checkHandoverCode,
  chooseSlot,
  groupByBuilding,
  groupByStation,
  handoverAttemptsLeft,
  handoverCodeOf,
  parcelSizeText,
  phoneTail,
  recipientCheck,
  slotPicker,
} from "./riders";
import { deliveryText } from "./orders";

describe("the handover code", () => {
  it.each([
    ["1234", "1234", 0, "ok"],
    ["1234", " 1234 ", 0, "ok"],
    ["1234", "１２３４", 0, "ok"],
    ["1234", "4321", 0, "wrong"],
    ["1234", "123", 0, "format"],
    ["1234", "12a4", 0, "format"],
    ["1234", "", 0, "format"],
    ["1234", "1234", HANDOVER_MAX_FAILURES - 1, "ok"],
    ["1234", "1234", HANDOVER_MAX_FAILURES, "locked"],
    [null, "1234", 0, "missing"],
  ] as const)("expected %s, typed %j after %i failures → %s", (expected, typed, failures, verdict) => {
    expect(checkHandoverCode(expected, typed, failures)).toBe(verdict);
  });

  it.each([
    [0, "0000"],
    [7, "0007"],
    [12345, "2345"],
    [9999, "9999"],
  ])("random %i makes %s", (random, code) => expect(handoverCodeOf(random)).toBe(code));

  it("counts attempts down to zero", () => {
    expect(handoverAttemptsLeft(0)).toBe(HANDOVER_MAX_FAILURES);
    expect(handoverAttemptsLeft(HANDOVER_MAX_FAILURES + 3)).toBe(0);
  });
});

describe("the recipient check", () => {
  it.each([
    [null, "13800001234", { state: "unknown" }],
    ["1234", "13800001234", { state: "match", tail: "1234" }],
    ["5678", "13800001234", { state: "mismatch", labelTail: "5678", orderTail: "1234" }],
    ["5678", null, { state: "mismatch", labelTail: "5678", orderTail: null }],
  ])("label %s, order %s", (label, phone, check) => expect(recipientCheck(label, phone)).toEqual(check));

  it.each([
    ["138 0000 1234", "1234"],
    ["123", null],
    [null, null],
  ])("tail of %s is %s", (phone, tail) => expect(phoneTail(phone)).toBe(tail));
});

describe("grouping", () => {
  it("groups parcels by station in natural order, codes sorted, deadlines once", () => {
    const groups = groupByStation([
      { station: "10号驿站", code: "2-1-10", deadline: null },
      { station: "2号驿站", code: "3-1-2", deadline: "今天18:00前" },
      { station: "2号驿站", code: "3-1-10", deadline: "今天18:00前" },
      { station: "2号驿站", code: null, trackingNumber: "YT1", deadline: "3天内" },
    ]);
    expect(groups.map((g) => g.station)).toEqual(["2号驿站", "10号驿站"]);
    expect(groups[0]!.parcels.map((p) => p.code ?? p.trackingNumber)).toEqual(["3-1-2", "3-1-10", "YT1"]);
    expect(groups[0]!.deadlines).toEqual(["今天18:00前", "3天内"]);
    expect(groups[1]!.deadlines).toEqual([]);
  });

  it("groups deliveries by building, then room", () => {
    const groups = groupByBuilding([
      { building: "10号楼", room: "101", id: 1 },
      { building: "2号楼", room: "1002", id: 2 },
      { building: "2号楼", room: "302", id: 3 },
      { building: "2号楼", room: "302", id: 4 },
    ]);
    expect(groups.map((g) => g.building)).toEqual(["2号楼", "10号楼"]);
    expect(groups[0]!.rooms.map((r) => [r.room, r.orders.map((o) => o.id)])).toEqual([
      ["302", [3, 4]],
      ["1002", [2]],
    ]);
  });
});

describe("sizes and slots", () => {
  const names = [
    { type: "pocket", name: "口袋件" },
    { type: "small", name: "小件" },
    { type: "large", name: "大件" },
  ];
  it.each([
    [{ pocket: 0, small: 2, large: 0 }, { certain: true, text: "小件" }],
    [{ pocket: 1, small: 0, large: 1 }, { certain: false, text: "口袋件×1 大件×1" }],
  ])("%j reads %j", (counts, text) => expect(parcelSizeText(counts, names)).toEqual(text));

  const slots = ["2026-11-28T05:30:00.000Z", "2026-11-28T11:30:00.000Z", "2026-11-29T05:30:00.000Z"];
  it.each([
    ["2026-11-28T04:00:00.000Z", null, slots[0]],
    ["2026-11-28T06:00:00.000Z", null, slots[1]],
    ["2026-11-30T00:00:00.000Z", null, slots[2]],
    ["2026-11-28T04:00:00.000Z", slots[2], slots[2]],
    ["2026-11-28T04:00:00.000Z", "2026-01-01T00:00:00.000Z", slots[0]],
  ])("at %s asking %s shows %s", (now, requested, slot) => expect(chooseSlot(slots, new Date(now), requested)).toBe(slot));

  it("has no slot without orders", () => expect(chooseSlot([], new Date())).toBeNull());
});

describe("the slot picker", () => {
  it("labels each slot with its count, marks past ones, and labels the shown slot", () => {
    const at = new Date("2026-11-29T06:00:00.000Z");
    const picker = slotPicker({ slots: [{ slot: "2026-11-29T04:00:00.000Z", count: 2 }, { slot: "2026-11-29T10:00:00.000Z", count: 1 }], slot: "2026-11-29T10:00:00.000Z" }, at, "（已过）");
    expect(picker.slots.map((row) => row.value)).toEqual(["2026-11-29T04:00:00.000Z", "2026-11-29T10:00:00.000Z"]);
    expect(picker.slots[0].label).toMatch(/（2）（已过）$/);
    expect(picker.slots[1].label).toMatch(/（1）$/);
    expect(picker.slotLabel).toBe(deliveryText("2026-11-29T10:00:00.000Z", at));
    expect(slotPicker({ slots: [], slot: null }, at).slotLabel).toBeNull();
  });
});
