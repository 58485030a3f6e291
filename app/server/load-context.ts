declare module "@remix-run/node" {
  interface AppLoadContext {
    nonce?: string;
    /**
     * The client network every limit counts (app/lib/client-network.ts): an IPv6 address's /64
     * (CLIENT_IPV6_PREFIX), an IPv4 address itself; from the socket, or from X-Forwarded-For
     * only when TRUST_PROXY is on.
     */
    clientIp?: string;
    /**
     * Where the access guard sends a single-fetch data request (/page.data) that it refuses: its
     * loaders and action throw this redirect instead of running (app/server/http/remix.ts).
     */
    accessRedirect?: string;
    /** Set once the request's body is over its limit (decision 016); the action is then refused. */
    bodyRefusal?: () => import("~/lib/request-limits").Refusal | null;
    /** A rate-limited action's Retry-After, for the document answer (app/server/http/remix.ts). */
    retryAfter?: string;
  }
}

export {};
