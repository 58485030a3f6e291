declare module "@remix-run/node" {
  interface AppLoadContext {
    nonce?: string;
    /** The client's address as Express saw it (X-Forwarded-For only when TRUST_PROXY is on). */
    clientIp?: string;
    /**
     * Where the access guard sends a single-fetch data request (/page.data) that it refuses: its
     * loaders and action throw this redirect instead of running (server.mjs, decision 027).
     */
    accessRedirect?: string;
    /** Set by server.mjs once the request's body is over its limit; the action is then refused. */
    bodyRefusal?: () => import("~/lib/request-limits").Refusal | null;
  }
}

export {};
