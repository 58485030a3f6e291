import { describe, expect, it } from "vitest";
import { clientNetwork } from "./client-network";

// What a limit counts for each address a socket or a trusted proxy can report.
const CASES: { address: string | undefined; prefix?: number; network: string }[] = [
  // IPv4 stands for itself.
  { address: "203.0.113.7", network: "203.0.113.7" },
  { address: "203.0.113.8", network: "203.0.113.8" },
  { address: "127.0.0.1", network: "127.0.0.1" },
  // IPv4 as a dual-stack socket reports it, in both spellings.
  { address: "::ffff:203.0.113.7", network: "203.0.113.7" },
  { address: "::FFFF:cb00:7107", network: "203.0.113.7" },
  { address: "0:0:0:0:0:ffff:203.0.113.7", network: "203.0.113.7" },
  // IPv6: every address of one /64 is one client.
  { address: "2001:db8:1:2::1", network: "2001:db8:1:2::/64" },
  { address: "2001:db8:1:2:aaaa:bbbb:cccc:dddd", network: "2001:db8:1:2::/64" },
  { address: "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff", network: "2001:db8:1:2::/64" },
  { address: "2001:db8:1:3::1", network: "2001:db8:1:3::/64" },
  { address: "[2001:db8:1:2::9]", network: "2001:db8:1:2::/64" },
  { address: "fe80::1%eth0", network: "fe80::/64" },
  { address: "::1", network: "::/64" },
  { address: "64:ff9b::203.0.113.7", network: "64:ff9b::/64" },
  // The prefix is configuration: a /56 per subscriber, or every address on its own.
  { address: "2001:db8:1:2ff::1", prefix: 56, network: "2001:db8:1:200::/56" },
  { address: "2001:db8:1:2ff::1", prefix: 48, network: "2001:db8:1::/48" },
  { address: "2001:db8:1:2::1", prefix: 128, network: "2001:db8:1:2::1/128" },
  // Already a key: keyed the same again.
  { address: "2001:db8:1:2::/64", network: "2001:db8:1:2::/64" },
  // Not an address: kept (bounded), so that such requests still share one key.
  { address: "unknown", network: "unknown" },
  { address: undefined, network: "unknown" },
  { address: "", network: "unknown" },
  { address: "1:2:3:4:5:6:7:8:9", network: "1:2:3:4:5:6:7:8:9" },
  { address: "2001:db8::1::2", network: "2001:db8::1::2" },
  { address: "256.1.1.1", network: "256.1.1.1" },
];

describe("clientNetwork", () => {
  it.each(CASES)("$address (/$prefix) → $network", ({ address, prefix, network }) => {
    expect(clientNetwork(address, prefix)).toBe(network);
  });

  it("keys 20 addresses of one /64 as one client and its neighbour /64 as another", () => {
    const keys = new Set(Array.from({ length: 20 }, (_, i) => clientNetwork(`2001:db8:ab:cd:${((i * 7919) & 0xffff).toString(16)}::${i + 1}`)));
    expect([...keys]).toEqual(["2001:db8:ab:cd::/64"]);
    expect(clientNetwork("2001:db8:ab:ce::1")).not.toBe("2001:db8:ab:cd::/64");
  });
});
