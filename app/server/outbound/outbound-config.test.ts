// OUTBOUND_ALLOW_HOSTS: the explicit switch tests use for their loopback fakes, never production's.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.server";

const PRODUCTION = { NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), APP_ENCRYPTION_KEY: "ab".repeat(32) };

describe("OUTBOUND_ALLOW_HOSTS", () => {
  it("is empty unless set, and reads host:port pairs", () => {
    expect(parseConfig({ NODE_ENV: "test" }).outboundAllowHosts).toEqual([]);
    expect(parseConfig({ NODE_ENV: "test", OUTBOUND_ALLOW_HOSTS: "127.0.0.1:4100, [::1]:4200,localhost:80" }).outboundAllowHosts).toEqual([
      "127.0.0.1:4100",
      "[::1]:4200",
      "localhost:80",
    ]);
  });

  it.each(["127.0.0.1", "http://127.0.0.1:80", "127.0.0.1:80/path", "*:80"])("refuses %j (a host without its port, or more than a host)", (value) => {
    expect(() => parseConfig({ NODE_ENV: "test", OUTBOUND_ALLOW_HOSTS: value })).toThrow(/OUTBOUND_ALLOW_HOSTS/);
  });

  it("is refused in production", () => {
    expect(() => parseConfig({ ...PRODUCTION, OUTBOUND_ALLOW_HOSTS: "127.0.0.1:4100" })).toThrow(/OUTBOUND_ALLOW_HOSTS is not allowed in production/);
    expect(parseConfig(PRODUCTION).outboundAllowHosts).toEqual([]);
  });
});
