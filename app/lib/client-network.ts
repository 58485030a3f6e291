/**
 * The client a limit counts: a network, not an address. One subscriber line of IPv6 gets a whole
 * /64 (often more), and a script can send each request from a new address inside it, so IPv6 is
 * keyed by its network prefix (64 bits unless configured). An IPv4 address is scarce and stands
 * for itself (campus NATs share one, which the limits' numbers allow for). An IPv4 address
 * written as IPv6 (::ffff:1.2.3.4, how a dual-stack socket reports it) is that IPv4 address.
 *
 * Pure string work, no node:net: the result is the key, never shown to anyone.
 */

export const DEFAULT_IPV6_PREFIX = 64;

/** "2001:db8:1:2::/64" for any address of that /64; "1.2.3.4" for 1.2.3.4 and ::ffff:1.2.3.4. */
export function clientNetwork(address: string | null | undefined, ipv6Prefix = DEFAULT_IPV6_PREFIX): string {
  const text = (address ?? "").trim().toLowerCase();
  if (!text) return "unknown";
  // An already keyed network ("2001:db8::/64", as the pipeline hands it on) keys the same again.
  const slash = text.lastIndexOf("/");
  const bare = slash >= 0 ? text.slice(0, slash) : text;
  const given = slash >= 0 ? Number(text.slice(slash + 1)) : 128;
  const unbracketed = bare.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const v4 = parseIpv4(unbracketed);
  if (v4) return v4.join(".");
  const groups = parseIpv6(unbracketed);
  if (!groups) return text.length > 64 ? text.slice(0, 64) : text;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  const bits = Math.max(0, Math.min(128, Number.isInteger(given) ? Math.min(given, ipv6Prefix) : ipv6Prefix));
  const masked = groups.map((group, index) => {
    const keep = Math.max(0, Math.min(16, bits - index * 16));
    return keep === 0 ? 0 : group & (0xffff << (16 - keep)) & 0xffff;
  });
  return `${compress(masked)}/${bits}`;
}

function parseIpv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

function parseIpv6(text: string): number[] | null {
  if (!text.includes(":")) return null;
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is the last two groups.
  const lastColon = text.lastIndexOf(":");
  const dotted = parseIpv4(text.slice(lastColon + 1));
  const body = dotted
    ? `${text.slice(0, lastColon + 1)}${((dotted[0]! << 8) | dotted[1]!).toString(16)}:${((dotted[2]! << 8) | dotted[3]!).toString(16)}`
    : text;
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const read = (part: string) => (part === "" ? [] : part.split(":"));
  const head = read(halves[0]!);
  const rest = halves.length === 2 ? read(halves[1]!) : [];
  if (![...head, ...rest].every((word) => /^[0-9a-f]{1,4}$/.test(word))) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  return [...head, ...new Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest].map((word) => parseInt(word, 16));
}

/** RFC 5952 text: the longest run (two or more) of zero groups becomes "::". */
function compress(groups: number[]): string {
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > best.length) best = { start, length: end - start };
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.length < 2) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}
