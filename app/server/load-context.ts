declare module "@remix-run/node" {
  interface AppLoadContext {
    nonce?: string;
    /** The client's address as Express saw it (X-Forwarded-For only when TRUST_PROXY is on). */
    clientIp?: string;
    /** A fetch by Remix's client (?_data=…), which Remix removes from the URL before loaders and actions run. */
    dataRequest?: boolean;
    /** Set by server.mjs once the request's body is over its limit (issue 18); the action is then refused. */
    bodyRefusal?: () => import("~/lib/request-limits").Refusal | null;
  }
}

/**
 * Did the page's JavaScript send this (Remix's ?_data fetch) rather than a plain form post? The
 * server tells through the load context; a request built by hand (tests) still carries ?_data.
 */
export function isDataRequest(request: Request, context?: { dataRequest?: boolean }) {
  return context?.dataRequest === true || new URL(request.url).searchParams.has("_data");
}
