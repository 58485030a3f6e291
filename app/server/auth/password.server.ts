import crypto from "node:crypto";
import { promisify } from "node:util";

// Operator passwords: scrypt from node:crypto, stored as `scrypt$N$r$p$salt$hash` (base64 salt
// and hash), so the cost can be raised later and old hashes still verify with their own cost.

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

export const SCRYPT_PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
// Bounds for a stored hash we are asked to verify: anything outside them is not ours.
const MAX_N = 2 ** 20;
const MAX_RP = 16;

function memoryFor(N: number, r: number) {
  // scrypt needs 128·N·r bytes; node's default maxmem (32 MiB) is just too small for N=2^15.
  return 256 * N * r;
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_PARAMS;
  const salt = crypto.randomBytes(SALT_BYTES);
  const hash = await scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { N, r, p, maxmem: memoryFor(N, r) });
  return ["scrypt", N, r, p, salt.toString("base64"), hash.toString("base64")].join("$");
}

/** True when `password` matches `stored`. A malformed stored hash never matches (and never throws). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^\d{1,8}$/.test(part) ? Number(part) : NaN)) as [number, number, number];
  if (!Number.isInteger(N) || N < 2 || N > MAX_N || (N & (N - 1)) !== 0) return false;
  if (!Number.isInteger(r) || r < 1 || r > MAX_RP || !Number.isInteger(p) || p < 1 || p > MAX_RP) return false;
  const salt = Buffer.from(parts[4]!, "base64");
  const expected = Buffer.from(parts[5]!, "base64");
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await scrypt(password.normalize("NFC"), salt, expected.length, { N, r, p, maxmem: memoryFor(N, r) });
  return crypto.timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification against a throwaway hash, so an unknown username answers
 * as slowly as a wrong password and the response time does not tell which usernames exist.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  await verifyPassword(password, await dummy);
  return false;
}
