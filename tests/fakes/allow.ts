// The fakes listen on loopback, which the outbound client refuses. A test names its fake's exact
// host:port here (or in OUTBOUND_ALLOW_HOSTS for a server process); nothing else is let through.
import type { OutboundOptions } from "~/server/outbound/outbound.server";

/** "127.0.0.1:41234" for a fake's base URL. */
export function hostOf(baseUrl: string) {
  return new URL(baseUrl).host;
}

export function allowFake(...baseUrls: string[]): OutboundOptions {
  return { allowHosts: baseUrls.map(hostOf) };
}
