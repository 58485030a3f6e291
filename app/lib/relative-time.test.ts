import { describe, expect, it } from "vitest";
import { cardTime, commentTime } from "./relative-time";

const NOW = "2026-11-22T04:00:00.000Z"; // 12:00 in Shanghai
const before = (ms: number) => new Date(new Date(NOW).getTime() - ms).toISOString();
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;

describe("card relative time (product rules, limits: just now, minutes, hours, days up to 7 days)", () => {
  it.each([
    [0, "刚刚"],
    [59 * S, "刚刚"],
    [60 * S, "1分钟前"],
    [59 * MIN + 59 * S, "59分钟前"],
    [H, "1小时前"],
    [23 * H + 59 * MIN, "23小时前"],
    [D, "1天前"],
    [6 * D + 23 * H, "6天前"],
    [7 * D, "11-15"],
    [30 * D, "10-23"],
    [-5 * MIN, "刚刚"], // a clock slightly ahead never shows a future time
  ])("%i ms ago is %s", (ago, text) => {
    expect(cardTime(before(ago), NOW)).toBe(text);
  });

  it("uses the Shanghai date and shows the year for an earlier year", () => {
    // 2026-11-14T16:30Z is 2026-11-15 00:30 in Shanghai.
    expect(cardTime("2026-11-14T16:30:00.000Z", NOW)).toBe("11-15");
    expect(cardTime("2025-12-31T16:00:00.000Z", NOW)).toBe("01-01");
    expect(cardTime("2025-12-31T15:59:00.000Z", NOW)).toBe("2025-12-31");
  });

  it("accepts Date objects", () => {
    expect(cardTime(new Date(before(3 * H)), new Date(NOW))).toBe("3小时前");
  });
});

describe("comment relative time (product rules, limits: 60 s, minutes, hours, days to 30, months to 12, years)", () => {
  it.each([
    [0, "刚刚"],
    [59 * S, "刚刚"],
    [60 * S, "1分钟前"],
    [45 * MIN, "45分钟前"],
    [H, "1小时前"],
    [23 * H, "23小时前"],
    [D, "1天前"],
    [7 * D, "7天前"],
    [29 * D, "29天前"],
    [30 * D, "1个月前"],
    [59 * D, "1个月前"],
    [60 * D, "2个月前"],
    [359 * D, "11个月前"],
    [360 * D, "1年前"],
    [365 * D, "1年前"],
    [730 * D, "2年前"],
    [-1 * H, "刚刚"],
  ])("%i ms ago is %s", (ago, text) => {
    expect(commentTime(before(ago), NOW)).toBe(text);
  });
});
