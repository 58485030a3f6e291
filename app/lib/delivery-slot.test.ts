import { describe, expect, it } from "vitest";
import { DEFAULT_DELIVERY_SCHEDULE, estimateDelivery, firstWithRoom, isValidSlot, slotOccurrences, type DeliverySlot } from "./delivery-slot";
import { shanghaiInstant } from "./time";

const at = (day: string, hour: number, minute: number, second = 0) => new Date(shanghaiInstant(day, hour, minute).getTime() + second * 1000);

describe("the delivery rule from the default schedule (Asia/Shanghai)", () => {
  it.each([
    ["00:00", 0, 0, 0, "2026-11-22", "13:30"],
    ["07:59", 7, 59, 0, "2026-11-22", "13:30"],
    ["11:44", 11, 44, 0, "2026-11-22", "13:30"],
    ["11:45 sharp", 11, 45, 0, "2026-11-22", "13:30"],
    ["11:45:59", 11, 45, 59, "2026-11-22", "13:30"],
    ["11:46", 11, 46, 0, "2026-11-22", "19:30"],
    ["17:30 sharp", 17, 30, 0, "2026-11-22", "19:30"],
    ["17:31", 17, 31, 0, "2026-11-23", "13:30"],
    ["23:59", 23, 59, 0, "2026-11-23", "13:30"],
  ])("an order at %s → %s %s", (_label, hour, minute, second, day, time) => {
    const estimate = estimateDelivery(at("2026-11-22", hour, minute, second));
    expect(estimate.day).toBe(day);
    expect(estimate.time).toBe(time);
    expect(estimate.dayOffset).toBe(day === "2026-11-22" ? 0 : 1);
    const [h, m] = time.split(":").map(Number);
    expect(estimate.at).toBe(shanghaiInstant(day, h, m).toISOString());
  });

  it("crosses a month and a year end in Shanghai, whatever the server's zone", () => {
    expect(estimateDelivery(at("2026-12-31", 18, 0)).day).toBe("2027-01-01");
    // 2026-11-22T16:30Z is already 00:30 on the 23rd in Shanghai
    expect(estimateDelivery(new Date("2026-11-22T16:30:00Z")).day).toBe("2026-11-23");
  });
});

describe("driven by the schedule data", () => {
  const evening: DeliverySlot[] = [
    { order_start_time: "18:00", order_end_time: "21:00", delivery_start_time: "21:00", delivery_end_time: "22:00" },
    { order_start_time: "09:00", order_end_time: "12:00", delivery_start_time: "12:00", delivery_end_time: "13:00", estimated_time: "12:30" },
  ];

  it.each([
    [10, 0, "2026-11-22", "12:30"],
    [12, 1, "2026-11-22", "22:00"],
    [21, 0, "2026-11-22", "22:00"],
    [21, 1, "2026-11-23", "12:30"],
  ])("%i:%i → %s %s", (hour, minute, day, time) => {
    const estimate = estimateDelivery(at("2026-11-22", hour, minute), evening);
    expect([estimate.day, estimate.time]).toEqual([day, time]);
  });

  it("falls back to the default when no slot is valid", () => {
    expect(isValidSlot({ order_start_time: "8:00" })).toBe(false);
    expect(isValidSlot(DEFAULT_DELIVERY_SCHEDULE[0])).toBe(true);
    expect(estimateDelivery(at("2026-11-22", 12, 0), [{ order_start_time: "x" } as unknown as DeliverySlot]).time).toBe("19:30");
  });
});

describe("a full slot moves the order to the next one", () => {
  const schedule: DeliverySlot[] = DEFAULT_DELIVERY_SCHEDULE.map((slot, index) => ({ ...slot, id: index + 1 }));
  const label = (occurrence: { day: string; time: string; slotId: number | null }) => `${occurrence.day} ${occurrence.time} #${occurrence.slotId}`;

  it.each([
    ["10:00: today's two, tomorrow's two", 10, 0, ["2026-11-22 13:30 #1", "2026-11-22 19:30 #2", "2026-11-23 13:30 #1", "2026-11-23 19:30 #2"]],
    ["12:00: today's evening, tomorrow's two", 12, 0, ["2026-11-22 19:30 #2", "2026-11-23 13:30 #1", "2026-11-23 19:30 #2"]],
    ["18:00: tomorrow's two", 18, 0, ["2026-11-23 13:30 #1", "2026-11-23 19:30 #2"]],
  ])("%s", (_label, hour, minute, expected) => {
    const occurrences = slotOccurrences(at("2026-11-22", hour, minute), schedule);
    expect(occurrences.map(label)).toEqual(expected);
    expect(occurrences[0]).toEqual(estimateDelivery(at("2026-11-22", hour, minute), schedule));
  });

  it.each([
    ["room in the first", [], "2026-11-22 13:30 #1"],
    ["the first full", ["2026-11-22 13:30"], "2026-11-22 19:30 #2"],
    ["today full", ["2026-11-22 13:30", "2026-11-22 19:30"], "2026-11-23 13:30 #1"],
    ["all full: the last (never refused)", ["2026-11-22 13:30", "2026-11-22 19:30", "2026-11-23 13:30", "2026-11-23 19:30"], "2026-11-23 19:30 #2"],
  ])("%s", (_label, full, expected) => {
    const occurrences = slotOccurrences(at("2026-11-22", 10, 0), schedule);
    expect(label(firstWithRoom(occurrences, (occurrence) => !full.includes(`${occurrence.day} ${occurrence.time}`)))).toBe(expected);
  });
});
