import { describe, expect, it } from "vitest";
import { loginPath, requestReturnPath, safeRedirect } from "./redirect";

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
    ["/%0d%0aSet-Cookie:x", "/fallback"],
    // The classic bypasses: each one is normalised first, then checked.
    ["/.//evil.example/x", "/fallback"],
    ["/./\\evil.example", "/fallback"],
    ["/a/..//evil.example", "/fallback"],
    ["/%2F%2Fevil.example", "/fallback"],
    ["/%2f/evil.example", "/fallback"],
    ["/%5Cevil.example", "/fallback"],
    ["/%5C%5Cevil.example", "/fallback"],
    ["/x%2F..%2F..%2F/evil.example", "/fallback"],
    ["%2F%2Fevil.example", "/fallback"],
    ["/\n/evil.example", "/fallback"],
    ["/\r\n/evil.example", "/fallback"],
    ["\t//evil.example", "/fallback"],
    [" //evil.example", "/fallback"],
    ["javascript:alert(1)//", "/fallback"],
    ["JaVaScRiPt:alert(1)", "/fallback"],
    ["/javascript:alert(1)", "/javascript:alert(1)"],
    ["data:text/html,x", "/fallback"],
    ["http:evil.example", "/fallback"],
    ["/market?next=//evil.example", "/market?next=//evil.example"],
    ["/post/1?x=%2F%2Fevil", "/post/1?x=%2F%2Fevil"],
    ["/%E5%9C%88%E5%AD%90", "/%E5%9C%88%E5%AD%90"],
    ["/%ff", "/fallback"],
    ["/\t/evil.example", "/fallback"],
    [null, "/fallback"],
    [undefined, "/fallback"],
    [42, "/fallback"],
    ["/" + "a".repeat(3000), "/fallback"],
  ])("%j → %s", (input, expected) => {
    expect(safeRedirect(input, "/fallback")).toBe(expected);
  });

  it.each(["/schedule", "/.//evil.example", "/a/b/../c?x=1#y", "/%2e%2e//evil.example", "/./%2F/evil"])("is a fixpoint for %j", (input) => {
    const once = safeRedirect(input, "/fallback");
    expect(safeRedirect(once, "/other")).toBe(once);
  });

  it.each([
    ["https://campus.example.cn/market?x=1", "/market?x=1"],
    ["HTTPS://campus.example.cn/market", "/market"],
    ["https://campus.example.cn/.//evil.example/x", "/fallback"],
    ["https://campus.example.cn//evil.example/x", "/fallback"],
    ["https://campus.example.cn/%2F%2Fevil.example", "/fallback"],
    ["https://evil.example/market", "/fallback"],
    ["https://campus.example.cn.evil.example/market", "/fallback"],
    ["https://campus.example.cn@evil.example/market", "/fallback"],
    ["http://campus.example.cn/market", "/fallback"],
  ])("a full URL %j is kept only on our own origin → %s", (input, expected) => {
    expect(safeRedirect(input, "/fallback", { origins: ["https://campus.example.cn"] })).toBe(expected);
  });

  it("refuses full URLs when no origin is ours", () => {
    expect(safeRedirect("https://campus.example.cn/market", "/fallback")).toBe("/fallback");
  });

  it("defaults to the timetable", () => {
    expect(safeRedirect("//x")).toBe("/schedule");
  });

  it.each([
    ["/market?index&tab=express", "/market?tab=express"],
    ["/schedule?week=3&_routes=routes%2Fschedule._index", "/schedule?week=3"],
    ["/admin/orders?_data=routes%2Fadmin.orders", "/admin/orders"],
    ["/post/7?index#c3", "/post/7#c3"],
    // Nothing to drop: the query stays as written, not re-encoded.
    ["/market?next=//evil.example&q=a%20b", "/market?next=//evil.example&q=a%20b"],
  ])("drops a data request's parameters: %j → %s", (input, expected) => {
    expect(safeRedirect(input, "/fallback")).toBe(expected);
  });

  it("drops them from a full URL of our origin too", () => {
    expect(safeRedirect("https://campus.example.cn/market?index&_routes=root", "/fallback", { origins: ["https://campus.example.cn"] })).toBe("/market");
  });
});

describe("requestReturnPath: the page a request was for", () => {
  it.each([
    ["http://localhost/schedule?week=3", "/schedule?week=3"],
    ["http://localhost/schedule?week=3&_routes=routes%2Fschedule._index", "/schedule?week=3"],
    // The market's rule kept `_routes`; the timetable's kept `index`.
    ["http://localhost/market?index&_routes=root&tab=express", "/market?tab=express"],
    ["http://localhost/admin/orders?index&status=paid", "/admin/orders?status=paid"],
    ["http://localhost/market.data?_routes=root", "/market"],
    ["http://localhost/_root.data?_routes=root", "/"],
    ["/backpack/grades?term=2025-2026-1", "/backpack/grades?term=2025-2026-1"],
    // A request's own path can leave the site once it is a Location: "//evil.example" is one.
    ["http://localhost//evil.example/x", "/fallback"],
    ["http://localhost/%2F%2Fevil.example", "/fallback"],
    [`http://localhost/backpack/inbox?q=${"x".repeat(3000)}`, "/backpack/inbox"],
    [`http://localhost/${"x".repeat(3000)}`, "/fallback"],
  ])("%s → %s", (url, expected) => {
    expect(requestReturnPath(url, "/fallback")).toBe(expected);
    expect(requestReturnPath(new URL(url, "http://localhost"), "/fallback")).toBe(expected);
  });

  it("defaults to the timetable", () => {
    expect(requestReturnPath("http://localhost//evil.example")).toBe("/schedule");
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
