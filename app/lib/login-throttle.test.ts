import { describe, expect, it } from "vitest";
import { backoffMs, THROTTLE_RULES, waitText } from "./login-throttle";

describe("backoff after failures", () => {
  it.each([
    [0, 0],
    [4, 0],
    [5, 30_000],
    [6, 60_000],
    [7, 120_000],
    [9, 480_000],
    [10, 900_000],
    [60, 900_000],
  ])("account+client: %i failures wait %i ms", (failures, wait) => {
    expect(backoffMs(failures, THROTTLE_RULES.accountClient)).toBe(wait);
  });

  it.each([
    [30, 0],
    [31, 10_000],
    [32, 20_000],
    [1000, 900_000],
  ])("address: %i failures wait %i ms", (failures, wait) => {
    expect(backoffMs(failures, THROTTLE_RULES.client)).toBe(wait);
  });
});

describe("the wait in words", () => {
  it.each([
    [1, "1 秒"],
    [30_000, "30 秒"],
    [59_001, "1 分钟"],
    [58_500, "59 秒"],
    [60_000, "1 分钟"],
    [61_000, "2 分钟"],
    [600_000, "10 分钟"],
    [900_000, "15 分钟"],
  ])("%i ms → %s", (ms, text) => {
    expect(waitText(ms)).toBe(text);
  });
});
