import { describe, expect, it } from "vitest";
import { isDataRequest, pagePath, pageSearch, pageUrl } from "./request-kind";

describe("isDataRequest", () => {
  it.each([
    ["/post/12.data", true],
    ["/_root.data", true],
    ["/schedule.data?_routes=routes%2Fschedule._index", true],
    ["http://localhost:3000/market/checkout.data?index", true],
    [new URL("http://x/circle.data"), true],
    ["/post/12", false],
    ["/post/12?_data=routes%2Fpost.%24id", false],
    ["/", false],
    ["/files/a.data/b", false],
    ["/search?q=x.data", false],
    [new URL("http://x/circle"), false],
  ])("%s → %s", (url, expected) => {
    expect(isDataRequest(url)).toBe(expected);
  });
});

describe("pagePath and pageUrl", () => {
  it.each([
    ["/post/12.data", "/post/12"],
    ["/_root.data", "/"],
    ["/market/checkout.data", "/market/checkout"],
    ["/post/12", "/post/12"],
    ["/", "/"],
  ])("%s → %s", (path, expected) => {
    expect(pagePath(path)).toBe(expected);
  });

  it.each([
    ["/schedule.data?week=3&_routes=routes%2Fschedule._index", "/schedule", "?week=3"],
    ["/_root.data?_routes=root", "/", ""],
    ["/market.data?index&_routes=root", "/market", ""],
    ["/market?index&tab=express", "/market", "?tab=express"],
    ["/admin/orders?status=paid&_data=routes%2Fadmin.orders", "/admin/orders", "?status=paid"],
  ])("%s → %s%s", (url, path, search) => {
    expect(pageUrl(url).pathname).toBe(path);
    expect(pageSearch(url)).toBe(search);
  });
});

describe("the limits of a data request are its page's", () => {
  it("a multipart publish sent by the page's JavaScript (/publish-post.data) has the publish limit", async () => {
    const { bodyRule } = await import("./request-limits");
    const multipart = "multipart/form-data; boundary=x";
    expect(bodyRule("/publish-post.data", multipart)).toEqual(bodyRule("/publish-post", multipart));
    expect(bodyRule("/publish-post.data", multipart).name).toBe("publish-post");
    expect(bodyRule("/market/checkout.data", multipart).name).toBe("market-screenshots");
  });
});
