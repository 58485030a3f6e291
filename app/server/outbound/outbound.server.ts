// The one way the server calls a host that configuration or an operator chose (the schools'
// academic systems): a fetch bound to that host. Rules (docs/outbound-calls.md, decision 031):
//   - http and https only;
//   - every address the name resolves to must be public (app/lib/outbound-address), and the
//     socket connects to the address that was checked: the check runs inside the connection's
//     own `lookup`, so there is no second resolution an attacker's DNS could answer differently;
//     an address written in the URL is checked before connecting (no lookup happens for it);
//   - no request, and no redirect, leaves the bound host (redirects are followed here, by hand,
//     each hop checked again; callers that read redirects themselves get them unfollowed);
//   - an answer is read into memory only up to maxBytes, and one call has a total time limit;
//   - failures are OutboundError with a reason, never an address or a port for the user.
// Tests run their fakes on loopback: `allowHosts` names exact host:port pairs the address check
// lets through. The server takes them from OUTBOUND_ALLOW_HOSTS, which production refuses.
import dns, { type LookupAddress, type LookupAllOptions, type LookupOneOptions } from "node:dns";
import { Agent, fetch as undiciFetch } from "undici";
import { classifyAddress, hostWithPort, parseAddress, type AddressClass } from "~/lib/outbound-address";

export const OUTBOUND_MAX_BYTES = 5 * 1024 * 1024;
export const OUTBOUND_TIMEOUT_MS = 30_000;
export const OUTBOUND_MAX_REDIRECTS = 5;

export type OutboundRefusal =
  /** Not http(s). */
  | "scheme"
  /** A request or a redirect for another host than the bound one. */
  | "other_host"
  /** The host is, or resolves to, an address that is not public. */
  | "forbidden_address"
  /** The answer is larger than maxBytes. */
  | "too_large"
  | "too_many_redirects"
  /** A status fetch cannot hand on (below 200 or above 599). */
  | "bad_answer";

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundRefusal,
    message: string,
    readonly addressClass?: AddressClass,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

export type OutboundOptions = {
  /** host:port pairs let through the address check (loopback fakes in tests). */
  allowHosts?: readonly string[];
  maxBytes?: number;
  /** One call, first byte out to last byte in, redirects included. */
  timeoutMs?: number;
};

export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** net.connect's lookup: resolves, refuses the name if any address is not public, hands on what it checked. */
function checkedLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) {
  dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.map((entry) => classifyAddress(entry.address)).find((kind) => kind !== "public");
    if (refused || addresses.length === 0) {
      const failure = new OutboundError("forbidden_address", `${hostname} resolves to a ${refused ?? "missing"} address`, refused);
      return callback(failure as NodeJS.ErrnoException, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

// Two pools: names checked at connect time, and the allow-listed hosts of tests.
let guardedAgent: Agent | undefined;
let trustedAgent: Agent | undefined;
function agentFor(trusted: boolean) {
  const options = { headersTimeout: OUTBOUND_TIMEOUT_MS, bodyTimeout: OUTBOUND_TIMEOUT_MS, connect: { timeout: 10_000 } };
  if (trusted) return (trustedAgent ??= new Agent(options));
  return (guardedAgent ??= new Agent({ ...options, connect: { ...options.connect, lookup: checkedLookup } }));
}

/** Normalises "host:port" entries the way a URL writes them (127.0.0.1:8080, [::1]:80). */
function normaliseAllowList(entries: readonly string[] = []) {
  const hosts = new Set<string>();
  for (const entry of entries) {
    try {
      hosts.add(hostWithPort(new URL(`http://${entry.trim()}`)));
    } catch {
      // A malformed entry allows nothing.
    }
  }
  return hosts;
}

/** Refuses a URL that is not http(s), or names an address (in any spelling) that is not public. */
export function checkTarget(url: URL, allowHosts: readonly string[] = []): { ok: true; trusted: boolean } | { ok: false; error: OutboundError } {
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, error: new OutboundError("scheme", `${url.protocol} is not http(s)`) };
  const trusted = normaliseAllowList(allowHosts).has(hostWithPort(url));
  if (!trusted && parseAddress(url.hostname)) {
    const kind = classifyAddress(url.hostname);
    if (kind !== "public") return { ok: false, error: new OutboundError("forbidden_address", `the URL names a ${kind} address`, kind) };
  }
  return { ok: true, trusted };
}

export type TargetCheck = { ok: true } | { ok: false; reason: "scheme" | "forbidden_address" };

/**
 * What an operator may save as a host to call (a school's base URL): http(s), and no address, in
 * any spelling or behind any name, that is not public. A name that does not resolve now is
 * accepted (DNS can be down, the school's name may come later): every call checks again anyway.
 */
export async function checkConfiguredUrl(value: string, allowHosts: readonly string[] = [], lookupMs = 3_000): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: "scheme" };
  }
  const target = checkTarget(url, allowHosts);
  if (!target.ok) return { ok: false, reason: target.error.reason === "scheme" ? "scheme" : "forbidden_address" };
  if (target.trusted || parseAddress(url.hostname)) return { ok: true };
  const addresses = await Promise.race([
    dns.promises.lookup(url.hostname, { all: true }).catch(() => [] as LookupAddress[]),
    new Promise<LookupAddress[]>((resolve) => setTimeout(() => resolve([]), lookupMs).unref()),
  ]);
  return addresses.every((entry) => classifyAddress(entry.address) === "public") ? { ok: true } : { ok: false, reason: "forbidden_address" };
}

/** The OutboundError somewhere in a fetch failure's causes, if any. */
export function outboundErrorOf(error: unknown): OutboundError | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof OutboundError) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([204, 205, 304]);

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!response.body) return null;
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel().catch(() => {});
    throw new OutboundError("too_large", `the answer declares ${declared} bytes`);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new OutboundError("too_large", `the answer passed ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * A fetch for one host (the base URL's host and port). The answer comes back whole (at most
 * maxBytes) as an ordinary Response; `redirect: "manual"` hands redirects to the caller, who can
 * only follow them through this same fetch, so to the same host.
 */
export function createOutboundFetch(baseUrl: string, options: OutboundOptions = {}): OutboundFetch {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    // A stored address that is no URL at all: every call fails like a refused one, never a crash.
    return () => Promise.reject(new OutboundError("scheme", "the configured address is not a URL"));
  }
  const boundHost = hostWithPort(base);
  const maxBytes = options.maxBytes ?? OUTBOUND_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;

  async function once(url: URL, init: RequestInit, signal: AbortSignal): Promise<Response> {
    if (hostWithPort(url) !== boundHost) throw new OutboundError("other_host", "the request leaves the configured host");
    const target = checkTarget(url, options.allowHosts);
    if (!target.ok) throw target.error;
    // undici's own fetch with its own dispatcher (the agent whose lookup checks addresses).
    const answer = (await undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      redirect: "manual",
      signal,
      dispatcher: agentFor(target.trusted),
    })) as unknown as Response;
    if (answer.status < 200 || answer.status > 599) throw new OutboundError("bad_answer", `status ${answer.status}`);
    const body = await readCapped(answer, maxBytes);
    const headers = new Headers();
    answer.headers.forEach((value, name) => {
      if (name !== "set-cookie") headers.append(name, value);
    });
    for (const cookie of answer.headers.getSetCookie()) headers.append("set-cookie", cookie);
    return new Response(NULL_BODY.has(answer.status) ? null : body, { status: answer.status, statusText: answer.statusText, headers });
  }

  return async function outboundFetch(input, init = {}) {
    const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    let url = new URL(String(input), base);
    let request: RequestInit = { ...init };
    for (let hop = 0; ; hop++) {
      const response = await once(url, request, signal);
      if (init.redirect === "manual" || !REDIRECTS.has(response.status)) return response;
      const location = response.headers.get("location");
      if (init.redirect === "error") throw new OutboundError("other_host", "a redirect where none was allowed");
      if (!location) return response;
      if (hop >= OUTBOUND_MAX_REDIRECTS) throw new OutboundError("too_many_redirects", "too many redirects");
      url = new URL(location, url);
      // 303, and 301/302 after a POST, continue as a GET without the body (as browsers do).
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && (request.method ?? "GET").toUpperCase() === "POST")) {
        const headers = new Headers(request.headers);
        headers.delete("content-type");
        request = { ...request, method: "GET", body: undefined, headers };
      }
    }
  };
}
