// config(): settings outside the pay merchant (see pay/pay-config.test.ts for those).
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.server";

describe("TRUST_PROXY: the number of reverse proxies whose X-Forwarded-* headers are believed", () => {
  it.each([
    [undefined, 0],
    ["", 0],
    ["false", 0],
    ["0", 0],
    ["true", 1],
    ["1", 1],
    ["2", 2],
  ])("%s → %d", (value, hops) => {
    expect(parseConfig({ NODE_ENV: "test", TRUST_PROXY: value }).trustProxy).toBe(hops);
  });

  it.each(["yes", "-1", "10", "loopback"])("refuses %s", (value) => {
    expect(() => parseConfig({ NODE_ENV: "test", TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

describe("request limits and rate limits", () => {
  it("defaults: 64 KB forms, 8 KB pay notifications, 8 KB URLs, 40 parts, depth 16", () => {
    expect(parseConfig({ NODE_ENV: "test" }).requestLimits).toEqual({ formBytes: 65_536, payNotifyBytes: 8192, urlBytes: 8192, multipartParts: 40, jsonDepth: 16 });
  });

  it("reads the limits from the environment", () => {
    const limits = parseConfig({ NODE_ENV: "test", REQUEST_FORM_MAX_KB: "32", PAY_NOTIFY_MAX_KB: "4", REQUEST_JSON_MAX_DEPTH: "8" }).requestLimits;
    expect(limits.formBytes).toBe(32_768);
    expect(limits.payNotifyBytes).toBe(4096);
    expect(limits.jsonDepth).toBe(8);
  });

  it("RATE_LIMIT_<ACTION> reads per-user,per-address/seconds; the others keep their defaults", () => {
    const { rateLimits } = parseConfig({ NODE_ENV: "test", RATE_LIMIT_COMMENT: "5,50/30", RATE_LIMIT_RECOGNIZE_IMAGE: "1,10/600" });
    expect(rateLimits.comment).toEqual({ perUser: 5, perAddress: 50, windowSeconds: 30 });
    expect(rateLimits["recognize-image"]).toEqual({ perUser: 1, perAddress: 10, windowSeconds: 600 });
    expect(rateLimits.like).toEqual({ perUser: 300, perAddress: 3000, windowSeconds: 60 });
  });

  it.each(["5", "5,50", "a,b/c", "5,50/", "-1,5/60"])("refuses RATE_LIMIT_POST=%s with the variable's name", (value) => {
    expect(() => parseConfig({ NODE_ENV: "test", RATE_LIMIT_POST: value })).toThrow(/RATE_LIMIT_POST/);
  });

  it.each([["REQUEST_FORM_MAX_KB", "1"], ["PAY_NOTIFY_MAX_KB", "abc"], ["REQUEST_MULTIPART_MAX_PARTS", "0"]])("refuses %s=%s", (name, value) => {
    expect(() => parseConfig({ NODE_ENV: "test", [name]: value })).toThrow(new RegExp(name));
  });
});
