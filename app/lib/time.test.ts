import { describe, expect, it, vi } from "vitest";
import {
  addDays,
  compactShanghai,
  dateInTimeZone,
  daysBetween,
  firstMondayOf,
  formatShanghai,
  rfc3339Shanghai,
  shanghaiClock,
  shanghaiDate,
  shanghaiInstant,
  shanghaiMinuteOfDay,
  shanghaiToday,
  utcOffsetMinutes,
  wallClock,
  weekdayOf,
} from "./time";

// These run under TZ=UTC in CI (see the test script), so a local-time mistake shows up here.
describe("business time is Asia/Shanghai", () => {
  it("runs with the process in UTC", () => {
    expect(new Date("2026-01-01T00:00:00Z").getTimezoneOffset()).toBe(0);
  });

  // Shanghai midnight is 16:00 UTC: every row on either side of it.
  it.each([
    // instant (UTC)            Shanghai day   wd  clock    minute  display              file name        RFC 3339
    ["2026-11-22T15:59:59Z", "2026-11-22", 7, "23:59", 1439, "2026-11-22 23:59", "20261122-2359", "2026-11-22T23:59:59+08:00"],
    ["2026-11-22T16:00:00Z", "2026-11-23", 1, "00:00", 0, "2026-11-23 00:00", "20261123-0000", "2026-11-23T00:00:00+08:00"],
    ["2026-11-22T16:00:01Z", "2026-11-23", 1, "00:00", 0, "2026-11-23 00:00", "20261123-0000", "2026-11-23T00:00:01+08:00"],
    ["2026-12-31T15:59:00Z", "2026-12-31", 4, "23:59", 1439, "2026-12-31 23:59", "20261231-2359", "2026-12-31T23:59:00+08:00"],
    ["2026-12-31T16:00:00Z", "2027-01-01", 5, "00:00", 0, "2027-01-01 00:00", "20270101-0000", "2027-01-01T00:00:00+08:00"],
    ["2024-02-28T16:30:00Z", "2024-02-29", 4, "00:30", 30, "2024-02-29 00:30", "20240229-0030", "2024-02-29T00:30:00+08:00"],
    ["2026-03-01T00:00:00Z", "2026-03-01", 7, "08:00", 480, "2026-03-01 08:00", "20260301-0800", "2026-03-01T08:00:00+08:00"],
    ["2026-11-22T03:45:00Z", "2026-11-22", 7, "11:45", 705, "2026-11-22 11:45", "20261122-1145", "2026-11-22T11:45:00+08:00"],
    ["2026-11-22T05:30:00.999Z", "2026-11-22", 7, "13:30", 810, "2026-11-22 13:30", "20261122-1330", "2026-11-22T13:30:00+08:00"],
  ])("%s is %s (weekday %i) %s in Shanghai", (instant, day, weekday, clock, minute, display, file, rfc) => {
    const at = new Date(instant);
    expect(shanghaiToday(at)).toBe(day);
    expect(shanghaiDate(at).weekday).toBe(weekday);
    expect(shanghaiClock(at)).toBe(clock);
    expect(shanghaiMinuteOfDay(at)).toBe(minute);
    expect(formatShanghai(at)).toBe(display);
    expect(formatShanghai(instant)).toBe(display);
    expect(compactShanghai(at)).toBe(file);
    expect(rfc3339Shanghai(at)).toBe(rfc);
    expect(utcOffsetMinutes(at)).toBe(480);
  });

  it.each([
    ["2026-11-22", 13, 30, "2026-11-22T05:30:00.000Z"],
    ["2026-11-23", 0, 0, "2026-11-22T16:00:00.000Z"],
    ["2027-01-01", 0, 0, "2026-12-31T16:00:00.000Z"],
    ["2026-11-22", 23, 59, "2026-11-22T15:59:00.000Z"],
    ["2024-02-29", 8, 0, "2024-02-29T00:00:00.000Z"],
  ])("%s %i:%i Shanghai is %s", (day, hour, minute, iso) => {
    expect(shanghaiInstant(day, hour, minute).toISOString()).toBe(iso);
    expect(shanghaiToday(shanghaiInstant(day, hour, minute))).toBe(day);
  });

  it("reads other zones through the same Intl path (a zone with daylight saving time)", () => {
    // New York: EST (-5 h) in January, EDT (-4 h) in July.
    expect(utcOffsetMinutes(new Date("2026-01-15T12:00:00Z"), "America/New_York")).toBe(-300);
    expect(utcOffsetMinutes(new Date("2026-07-15T12:00:00Z"), "America/New_York")).toBe(-240);
    expect(shanghaiInstant("2026-07-15", 9, 0, "America/New_York").toISOString()).toBe("2026-07-15T13:00:00.000Z");
    expect(wallClock(new Date("2026-07-15T03:00:00Z"), "America/New_York")).toEqual({
      year: 2026, month: 7, day: 14, weekday: 2, hour: 23, minute: 0, second: 0,
    });
    expect(dateInTimeZone(new Date("2026-08-31T16:00:00Z"), "UTC")).toEqual({ year: 2026, month: 8, day: 31 });
    expect(dateInTimeZone(new Date("2026-08-31T16:00:00Z"))).toEqual({ year: 2026, month: 9, day: 1 });
  });
});

describe("the business calendar", () => {
  it.each([
    ["2026-12-31", 1, "2027-01-01"],
    ["2024-03-01", -1, "2024-02-29"],
    ["2026-11-22", 7, "2026-11-29"],
    ["2026-01-01", -1, "2025-12-31"],
    ["2026-11-22", 0, "2026-11-22"],
  ])("%s + %i days = %s", (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected);
    expect(daysBetween(day, expected)).toBe(days);
  });

  it.each([
    ["2026-11-22", 7],
    ["2026-11-23", 1],
    ["2024-02-29", 4],
    ["2027-01-01", 5],
  ])("%s is weekday %i", (day, weekday) => {
    expect(weekdayOf(day)).toBe(weekday);
  });

  it.each([
    [2025, 9, "2025-09-01"],
    [2026, 3, "2026-03-02"],
    [2026, 9, "2026-09-07"],
    [2027, 2, "2027-02-01"],
  ])("the first Monday of %i-%i is %s", (year, month, day) => {
    expect(firstMondayOf(year, month)).toBe(day);
  });
});

describe("wallClock agrees with the time-zone database around every kind of transition (its offset is kept per 15-minute window)", () => {
  function intlClock(at: Date, timeZone: string) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", weekday: "short", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" })
        .formatToParts(at)
        .map((part) => [part.type, part.value]),
    );
    const weekday = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 }[parts.weekday as string];
    return { year: +parts.year!, month: +parts.month!, day: +parts.day!, weekday, hour: +parts.hour!, minute: +parts.minute!, second: +parts.second! };
  }

  it.each([
    ["Asia/Shanghai", "2026-11-26T15:59:00Z"], // Shanghai's midnight
    ["America/New_York", "2026-03-08T07:00:00Z"], // spring forward on the hour
    ["America/New_York", "2026-11-01T06:00:00Z"], // fall back
    ["Australia/Lord_Howe", "2026-04-04T15:00:00Z"], // a half-hour shift
    ["Asia/Kathmandu", "2026-06-01T00:00:00Z"], // a +5:45 zone
    ["Asia/Shanghai", "1901-01-01T00:00:00Z"], // local mean time, an offset with seconds
  ])("%s around %s, minute by minute and in seconds across each window's end", (timeZone, around) => {
    const centre = Date.parse(around);
    for (let ms = centre - 2 * 3600_000; ms <= centre + 2 * 3600_000; ms += 37_000) {
      const at = new Date(ms);
      expect(wallClock(at, timeZone), `${timeZone} ${at.toISOString()}`).toEqual(intlClock(at, timeZone));
    }
  });

  it("keeps many windows: reading now and other days by turns asks Intl nothing once each is known", () => {
    const instants = ["2026-11-27T01:00:00Z", "2026-11-20T09:30:00Z", "1988-07-01T04:00:00Z", "2027-01-01T00:00:00Z"].map((iso) => new Date(iso));
    const offsets = instants.map((at) => utcOffsetMinutes(at));
    expect(offsets).toEqual([480, 480, 540, 480]); // Shanghai kept summer time 1986–1991
    const formatToParts = vi.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    try {
      for (let i = 0; i < 3; i++) expect(instants.map((at) => utcOffsetMinutes(at))).toEqual(offsets);
      expect(formatToParts).not.toHaveBeenCalled();
    } finally {
      formatToParts.mockRestore();
    }
  });

  it("reading the clock in several zones by turns gives each its own offset", () => {
    const at = new Date("2026-07-01T12:00:00Z");
    for (let i = 0; i < 3; i++) {
      expect(utcOffsetMinutes(at, "Asia/Shanghai")).toBe(480);
      expect(utcOffsetMinutes(at, "America/New_York")).toBe(-240);
      expect(utcOffsetMinutes(at, "Asia/Kathmandu")).toBe(345);
    }
  });
});
