import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS, RATE_LIMITED_ACTIONS, rateLimitVariable, retryAfterSeconds } from "./rate-limits";

describe("rate limit settings", () => {
  it.each(RATE_LIMITED_ACTIONS.map((action) => [action]))("%s has a default no student reaches by hand, and more room per address than per user", (action) => {
    const { perUser, perAddress, windowSeconds } = DEFAULT_RATE_LIMITS[action];
    expect(perUser).toBeGreaterThanOrEqual(10);
    expect(perAddress).toBeGreaterThanOrEqual(perUser * 10);
    expect(windowSeconds).toBeGreaterThan(0);
  });

  it.each([
    ["post", "RATE_LIMIT_POST"],
    ["recognize-image", "RATE_LIMIT_RECOGNIZE_IMAGE"],
    ["invite-register", "RATE_LIMIT_INVITE_REGISTER"],
  ] as const)("%s is configured by %s", (action, variable) => {
    expect(rateLimitVariable(action)).toBe(variable);
  });

  it.each([
    [0, 1],
    [1, 1],
    [999, 1],
    [1001, 2],
    [59_500, 60],
  ])("Retry-After of %d ms is %d s", (ms, seconds) => {
    expect(retryAfterSeconds(ms)).toBe(seconds);
  });
});
