// Which network addresses the server may call out to (school systems, any URL an operator can
// type). Pure: the outbound client (app/server/outbound) resolves names and asks this module about
// every address it would connect to. Addresses are first brought to the one canonical form the
// URL standard gives them, so 2130706433, 0x7f000001, 017700000001 and 127.1 are all 127.0.0.1,
// and [::ffff:127.0.0.1] is ::ffff:7f00:1 — the forms a hostile value hides behind.

/** Why an address may not be called; "public" is the only callable class. */
export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "shared" // carrier-grade NAT 100.64/10 (Alibaba Cloud's metadata lives there)
  | "link-local"
  | "metadata"
  | "ula"
  | "mapped" // IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo: an IPv4 address in IPv6 clothes
  | "multicast"
  | "reserved" // documentation, benchmarking, protocol assignments, 240/4, broadcast
  | "invalid";

export type ParsedAddress = { family: 4; value: number } | { family: 6; groups: number[] };

/** The URL standard's host parser: the same one fetch uses, so both see the same address. */
function canonicalHost(input: string): string | null {
  let text = input.trim();
  if (!text) return null;
  // A bare IPv6 address gets the brackets a URL needs.
  if (text.includes(":") && !text.startsWith("[")) text = `[${text}]`;
  try {
    const url = new URL(`http://${text}/`);
    // Anything beyond a host (a port, a user, a path) is not an address.
    if (url.port || url.username || url.password || url.pathname !== "/" || url.search || url.hash) return null;
    return url.hostname;
  } catch {
    return null;
  }
}

function parseDottedQuad(host: string): number | null {
  const parts = host.split(".");
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

/** The canonical IPv6 text (no dotted tail, at most one "::") → eight 16-bit groups. */
function parseCanonicalIpv6(host: string): number[] | null {
  const inner = host.slice(1, -1);
  const [head, tail, extra] = inner.split("::");
  if (extra !== undefined) return null;
  const groups = (text: string | undefined) => (text ? text.split(":").map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array.from({ length: tail === undefined ? 0 : missing }, () => 0), ...right];
  return all.length === 8 && all.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? all : null;
}

/** An IP address in any form the URL standard accepts, or null for a name (or garbage). */
export function parseAddress(input: string): ParsedAddress | null {
  const host = canonicalHost(input);
  if (!host) return null;
  if (host.startsWith("[")) {
    const groups = parseCanonicalIpv6(host);
    return groups ? { family: 6, groups } : null;
  }
  const value = parseDottedQuad(host);
  return value === null ? null : { family: 4, value };
}

const v4 = (a: number, b: number, c: number, d: number) => ((a * 256 + b) * 256 + c) * 256 + d;
const inV4 = (value: number, base: number, bits: number) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));

// First match wins: the metadata addresses sit inside the link-local and shared ranges.
const IPV4_RANGES: [number, number, AddressClass][] = [
  [v4(169, 254, 169, 254), 32, "metadata"], // AWS, GCP, Azure, OpenStack
  [v4(169, 254, 0, 23), 32, "metadata"], // Tencent Cloud
  [v4(100, 100, 100, 200), 32, "metadata"], // Alibaba Cloud
  [v4(0, 0, 0, 0), 8, "unspecified"],
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "shared"],
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link-local"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 0, 0, 0), 24, "reserved"],
  [v4(192, 0, 2, 0), 24, "reserved"],
  [v4(192, 88, 99, 0), 24, "reserved"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(198, 18, 0, 0), 15, "reserved"],
  [v4(198, 51, 100, 0), 24, "reserved"],
  [v4(203, 0, 113, 0), 24, "reserved"],
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(240, 0, 0, 0), 4, "reserved"], // includes 255.255.255.255
];

export function classifyIpv4(value: number): AddressClass {
  return IPV4_RANGES.find(([base, bits]) => inV4(value, base, bits))?.[2] ?? "public";
}

function classifyIpv6(g: number[]): AddressClass {
  const zeroUpTo = (n: number) => g.slice(0, n).every((group) => group === 0);
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && g[7] === 1) return "loopback";
  if (zeroUpTo(5) && g[5] === 0xffff) return "mapped"; // ::ffff:a.b.c.d
  if (zeroUpTo(6)) return "mapped"; // ::a.b.c.d, the old IPv4-compatible form
  if (g[0] === 0x64 && g[1] === 0xff9b) return "mapped"; // NAT64 64:ff9b::/96 and 64:ff9b:1::/48
  if (g[0] === 0x2002) return "mapped"; // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return "mapped"; // Teredo
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((group) => group === 0) && g[7] === 0x254) return "metadata"; // AWS over IPv6
  if ((g[0]! & 0xfe00) === 0xfc00) return "ula";
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xffc0) === 0xfec0) return "private"; // the old site-local
  if ((g[0]! & 0xff00) === 0xff00) return "multicast";
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "reserved"; // documentation
  if (g[0] === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return "reserved"; // discard 100::/64
  // Only global unicast (2000::/3) is routed on the internet.
  if ((g[0]! & 0xe000) !== 0x2000) return "reserved";
  return "public";
}

/** The class of an address given as text in any accepted form; "invalid" for a name. */
export function classifyAddress(input: string): AddressClass {
  const parsed = parseAddress(input);
  if (!parsed) return "invalid";
  return parsed.family === 4 ? classifyIpv4(parsed.value) : classifyIpv6(parsed.groups);
}

export function isPublicAddress(input: string): boolean {
  return classifyAddress(input) === "public";
}

/** An http(s) URL's host as the URL standard writes it, with its port ("127.0.0.1:8080"). */
export function hostWithPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}
