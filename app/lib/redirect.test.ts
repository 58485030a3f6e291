import { describe, expect, it } from "vitest";
import { loginPath, safeRedirect } from "./redirect";

describe("safeRedirect keeps same-origin paths only", () => {
  it.each([
    ["/schedule", "/schedule"],
    ["/schedule?week=3", "/schedule?week=3"],
    ["/post/1#comments", "/post/1#comments"],
    ["/a/../b", "/b"],
    ["//evil.example/x", "/fallback"],
    ["/\\evil.example", "/fallback"],
    ["\\\\evil.example", "/fallback"],
    ["https://evil.example/", "/fallback"],
    ["javascript:alert(1)", "/fallback"],
    ["schedule", "/fallback"],
    ["", "/fallback"],
    ["/\u0000evil", "/fallback"],
    ["/%0d%0aSet-Cookie:x", "/%0d%0aSet-Cookie:x"],
    ["/\t/evil.example", "/fallback"],
    [null, "/fallback"],
    [undefined, "/fallback"],
    [42, "/fallback"],
    ["/" + "a".repeat(3000), "/fallback"],
  ])("%j → %s", (input, expected) => {
    expect(safeRedirect(input, "/fallback")).toBe(expected);
  });

  it("defaults to the timetable", () => {
    expect(safeRedirect("//x")).toBe("/schedule");
  });
});

describe("loginPath", () => {
  it.each([
    [undefined, undefined, "/crLogin"],
    ["/", undefined, "/crLogin"],
    ["/schedule", undefined, "/crLogin?redirectTo=%2Fschedule"],
    ["/schedule", "replaced", "/crLogin?redirectTo=%2Fschedule&reason=replaced"],
    [`/backpack/inbox/1?q=${"x".repeat(3000)}`, undefined, "/crLogin?redirectTo=%2Fbackpack%2Finbox%2F1"],
    [`/${"x".repeat(3000)}`, undefined, "/crLogin"],
    // A dialog's query never travels: logging in again after a logout lands on the page, not on the dialog.
    ["/backpack/settings?confirm=logout", undefined, "/crLogin?redirectTo=%2Fbackpack%2Fsettings"],
    ["/market/checkout?sheet=coupon&campus=yuntang", undefined, "/crLogin?redirectTo=%2Fmarket%2Fcheckout%3Fcampus%3Dyuntang"],
    ["/post/7?dialog=share#c3", "replaced", "/crLogin?redirectTo=%2Fpost%2F7%23c3&reason=replaced"],
    ["/schedule?week=3&course=2", undefined, "/crLogin?redirectTo=%2Fschedule%3Fweek%3D3%26course%3D2"],
  ])("(%s, %s) → %s", (redirectTo, reason, expected) => {
    expect(loginPath(redirectTo, reason)).toBe(expected);
  });
});
