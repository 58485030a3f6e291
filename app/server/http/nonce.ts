import crypto from "node:crypto";

// Every page gets a fresh CSP nonce. Asking the system for 16 random bytes per request costs a
// call into OpenSSL each time; 256 nonces' worth are drawn at once instead, and each is used once.
const NONCE_BYTES = 16;
const pool = Buffer.alloc(NONCE_BYTES * 256);
let next = pool.length;

/** 128 random bits, base64: never handed out twice. */
export function freshNonce(): string {
  if (next === pool.length) {
    crypto.randomFillSync(pool);
    next = 0;
  }
  const nonce = pool.toString("base64", next, next + NONCE_BYTES);
  next += NONCE_BYTES;
  return nonce;
}
