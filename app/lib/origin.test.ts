import { describe, expect, it } from "vitest";
import { isCrossSiteMutation } from "./origin";

const base = { pathname: "/backpack/settings", expectedOrigins: ["https://app.example"] };

describe("same-origin check on mutations", () => {
  it.each([
    ["GET", "https://evil.example", "cross-site", false],
    ["POST", "https://app.example", "same-origin", false],
    ["POST", "https://app.example", null, false],
    ["POST", null, null, false],
    ["POST", "https://evil.example", null, true],
    ["POST", "https://evil.example", "cross-site", true],
    ["POST", null, "same-site", true],
    ["POST", "null", null, true],
    ["DELETE", "https://evil.example", null, true],
  ])("%s origin=%s fetch-site=%s → cross-site %s", (method, origin, secFetchSite, expected) => {
    expect(isCrossSiteMutation({ ...base, method, origin, secFetchSite })).toBe(expected);
  });

  it("lets the pay notification in from the provider", () => {
    expect(
      isCrossSiteMutation({ ...base, method: "POST", pathname: "/api/pay/wechat/notify", origin: "https://provider.example", secFetchSite: "cross-site" }),
    ).toBe(false);
  });
});
