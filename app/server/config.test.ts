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
