import { afterAll, describe, expect, it } from "vitest";
import {
  compareTerms,
  defaultWeek1Start,
  parseTermCode,
  previousTerm,
  recentTerms,
  termForDate,
  termLabel,
} from "./term";
import { dateInTimeZone, firstMondayOf, isoDate as formatDate } from "./time";

describe("firstMondayOf", () => {
  it.each<[number, number, string]>([
    [2025, 9, "2025-09-01"], // 1 September 2025 is a Monday
    [2026, 9, "2026-09-07"],
    [2026, 3, "2026-03-02"],
    [2027, 3, "2027-03-01"],
    [2024, 9, "2024-09-02"],
    [2025, 3, "2025-03-03"],
    [2026, 2, "2026-02-02"],
    [2026, 7, "2026-07-06"],
    [2028, 2, "2028-02-07"], // leap year
  ])("%i-%i → %s", (year, month, expected) => {
    expect(firstMondayOf(year, month)).toBe(expected);
    expect(new Date(`${expected}T00:00:00Z`).getUTCDay()).toBe(1);
  });
});

describe("termLabel and parseTermCode", () => {
  it.each<[string, string]>([
    ["2025-2026-1", "2025-2026学年第1学期"],
    ["2024-2025-2", "2024-2025学年第2学期"],
    ["2024-2025-3", "2024-2025学年第3学期"],
    ["2025-2027-1", "2025-2027-1"], // years must follow each other
    ["2025-2026-4", "2025-2026-4"],
    ["garbage", "garbage"],
  ])("%s → %s", (code, label) => {
    expect(termLabel(code)).toBe(label);
  });

  it("parses valid codes only", () => {
    expect(parseTermCode("2025-2026-1")).toEqual({ startYear: 2025, term: 1 });
    expect(parseTermCode("2025-2026-3")).toEqual({ startYear: 2025, term: 3 });
    expect(parseTermCode("2025-2026")).toBeNull();
    expect(parseTermCode(" 2025-2026-1")).toBeNull();
  });
});

describe("defaultWeek1Start, previousTerm, recentTerms, compareTerms", () => {
  it.each<[string, string | null]>([
    ["2025-2026-1", "2025-09-01"],
    ["2025-2026-2", "2026-03-02"],
    ["2025-2026-3", "2026-07-06"],
    ["2026-2027-1", "2026-09-07"],
    ["bad", null],
  ])("week 1 of %s starts %s", (code, expected) => {
    expect(defaultWeek1Start(code)).toBe(expected);
  });

  it.each<[string, string | null]>([
    ["2025-2026-1", "2024-2025-2"],
    ["2025-2026-2", "2025-2026-1"],
    ["2025-2026-3", "2025-2026-1"],
    ["bad", null],
  ])("before %s comes %s", (code, expected) => {
    expect(previousTerm(code)).toBe(expected);
  });

  it("lists recent terms newest first", () => {
    expect(recentTerms("2026-2027-1", 4)).toEqual([
      "2026-2027-1",
      "2025-2026-2",
      "2025-2026-1",
      "2024-2025-2",
    ]);
    expect(recentTerms("bad", 4)).toEqual([]);
  });

  it("sorts chronologically", () => {
    const sorted = ["2025-2026-1", "2024-2025-3", "2024-2025-1", "2024-2025-2"].sort(compareTerms);
    expect(sorted).toEqual(["2024-2025-1", "2024-2025-2", "2024-2025-3", "2025-2026-1"]);
  });
});

// Instants on both sides of Shanghai midnight (UTC+8) at each boundary of the term calendar.
const termTable: [string, string, string, string][] = [
  // instant (UTC)            Shanghai date   term             week 1
  ["2026-11-22T04:00:00Z", "2026-11-22", "2026-2027-1", "2026-09-07"],
  ["2025-09-01T00:00:00Z", "2025-09-01", "2025-2026-1", "2025-09-01"],
  ["2026-08-31T15:59:59Z", "2026-08-31", "2025-2026-2", "2026-03-02"],
  ["2026-08-31T16:00:00Z", "2026-09-01", "2026-2027-1", "2026-09-07"],
  ["2026-01-31T15:59:59Z", "2026-01-31", "2025-2026-1", "2025-09-01"],
  ["2026-01-31T16:00:00Z", "2026-02-01", "2025-2026-2", "2026-03-02"],
  ["2025-12-31T16:30:00Z", "2026-01-01", "2025-2026-1", "2025-09-01"],
  ["2026-05-20T12:00:00Z", "2026-05-20", "2025-2026-2", "2026-03-02"],
];

// Node applies a changed process.env.TZ at once, so the table runs under several server zones.
const originalTz = process.env.TZ;
afterAll(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe.each(["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Shanghai"])(
  "termForDate with the server in %s",
  (serverTz) => {
    it.each(termTable)("%s is %s in Shanghai → %s from %s", (instant, date, code, week1Start) => {
      process.env.TZ = serverTz;
      const at = new Date(instant);
      expect(formatDate(dateInTimeZone(at))).toBe(date);
      expect(termForDate(at)).toEqual({ code, week1Start });
    });
  },
);

describe("dateInTimeZone", () => {
  it("honours another zone when asked", () => {
    const at = new Date("2026-08-31T20:00:00Z");
    expect(dateInTimeZone(at, "UTC")).toEqual({ year: 2026, month: 8, day: 31 });
    expect(dateInTimeZone(at, "Asia/Shanghai")).toEqual({ year: 2026, month: 9, day: 1 });
    expect(termForDate(at, "UTC").code).toBe("2025-2026-2");
  });
});
