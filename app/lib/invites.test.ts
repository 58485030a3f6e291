import { describe, expect, it } from "vitest";
import { inviteCode, invitePath, inviteStatus, milestoneProgress, normalizeInviteCode } from "./invites";

describe("the invite code: the last 8 characters of the openid, uppercased", () => {
  it.each([
    ["oUpF8uMuAJO_M2pxb1Q9zNjWeS6o", "ZNJWES6O"],
    ["o6_bmjrPTlm6_2sgVt7hMZOPfL2M", "MZOPFL2M"],
    ["abc", "ABC"],
    ["test-openid-123-45", "D-123-45"],
  ])("%s → %s", (openid, code) => {
    expect(inviteCode(openid)).toBe(code);
  });

  it("compares typed codes trimmed and uppercased", () => {
    expect(normalizeInviteCode("  mzopfl2m ")).toBe("MZOPFL2M");
    expect(normalizeInviteCode(null)).toBe("");
  });

  it("puts the code and the opaque inviter id in the link, never more", () => {
    expect(invitePath("MZOPFL2M", "t0k3n")).toBe("/market/promo-activity?invite=MZOPFL2M&inviter=t0k3n");
  });
});

describe("an invite's status", () => {
  const opened = "2026-03-01T00:00:00.000Z";
  it.each([
    ["completed", "2026-04-01T00:00:00.000Z", "completed"],
    ["pending", "2026-03-01T00:00:00.000Z", "pending"],
    ["pending", "2026-03-08T00:00:00.000Z", "pending"],
    ["pending", "2026-03-08T00:00:00.001Z", "expired"],
  ] as const)("%s, seen at %s → %s", (status, now, expected) => {
    expect(inviteStatus({ status, createdAt: opened }, now)).toBe(expected);
  });
});

describe("progress toward the next milestone (5 and 10)", () => {
  // [completed, next, remaining, percent, reached]
  it.each([
    [0, 5, 5, 0, []],
    [1, 5, 4, 20, []],
    [4, 5, 1, 80, []],
    [5, 10, 5, 50, [5]],
    [6, 10, 4, 60, [5]],
    [9, 10, 1, 90, [5]],
    [10, null, 0, 100, [5, 10]],
    [17, null, 0, 100, [5, 10]],
  ] as const)("%i completed → next %s", (completed, next, remaining, percent, reached) => {
    expect(milestoneProgress(completed, [10, 5])).toEqual({ completed, next, remaining, percent, reached });
  });

  it("without milestones everything is reached", () => {
    expect(milestoneProgress(3, [])).toEqual({ completed: 3, next: null, remaining: 0, percent: 100, reached: [] });
  });
});
