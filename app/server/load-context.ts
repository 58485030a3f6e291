declare module "@remix-run/node" {
  interface AppLoadContext {
    nonce?: string;
    /** The client's address as Express saw it (X-Forwarded-For only when TRUST_PROXY is on). */
    clientIp?: string;
  }
}
export {};
