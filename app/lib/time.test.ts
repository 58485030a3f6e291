import { describe, expect, it } from "vitest";
import { addDays, formatShanghai, shanghaiDate, shanghaiInstant, shanghaiToday } from "./time";

// These run under TZ=UTC in CI (see the test script), so a local-time mistake shows up here.
describe("business time is Asia/Shanghai", () => {
  it("runs with the process in UTC", () => {
    expect(new Date("2026-01-01T00:00:00Z").getTimezoneOffset()).toBe(0);
  });

  it.each([
    ["2026-11-22T15:59:59Z", "2026-11-22", 7],
    ["2026-11-22T16:00:00Z", "2026-11-23", 1],
    ["2026-12-31T16:00:00Z", "2027-01-01", 5],
    ["2024-02-28T16:30:00Z", "2024-02-29", 4],
    ["2026-03-01T00:00:00Z", "2026-03-01", 7],
  ])("%s is %s (weekday %i) in Shanghai", (instant, day, weekday) => {
    expect(shanghaiToday(new Date(instant))).toBe(day);
    expect(shanghaiDate(new Date(instant)).weekday).toBe(weekday);
  });

  it.each([
    ["2026-11-22", 13, 30, "2026-11-22T05:30:00.000Z"],
    ["2026-11-23", 0, 0, "2026-11-22T16:00:00.000Z"],
  ])("%s %i:%i Shanghai is %s", (day, hour, minute, iso) => {
    expect(shanghaiInstant(day, hour, minute).toISOString()).toBe(iso);
  });

  it.each([
    ["2026-12-31", 1, "2027-01-01"],
    ["2024-03-01", -1, "2024-02-29"],
    ["2026-11-22", 7, "2026-11-29"],
  ])("%s + %i days = %s", (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected);
  });

  it("formats an instant in Shanghai time", () => {
    expect(formatShanghai("2026-11-22T16:05:00Z")).toBe("2026-11-23 00:05");
  });
});
