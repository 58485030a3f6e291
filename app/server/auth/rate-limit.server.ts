import crypto from "node:crypto";
import { sql } from "kysely";
import { clientNetwork } from "~/lib/client-network";
import { backoffMs, THROTTLE_RULES, type ThrottleRule } from "~/lib/login-throttle";
import { config } from "../config.server";
import { appCookie } from "../http/cookies.server";
import { db } from "../db/db.server";

// Login throttles (decision 015). Each key is a counter row in login_throttles; the keys hold
// keyed hashes, never a student id, username or address in clear. A login checks its keys
// before the password is tried and records a failure on each of them after a refusal.
//
// Which keys a login uses depends on the client:
// - a trusted device (its signed __trusted cookie proves an earlier successful login to this
//   account): only "this account from this device". Failures elsewhere never slow it down.
// - anyone else: "this account from this client" and "this client across accounts", where the
//   client is its network (an IPv6 /64, an IPv4 address: app/lib/client-network.ts).
// No key covers an account from every client, so nobody can lock a victim out from elsewhere.

export type ThrottleScope = "student" | "operator" | "delete";
export type ThrottleKey = { key: string; rule: ThrottleRule };

function shortHash(label: string, value: string) {
  return crypto.createHmac("sha256", config().sessionSecret).update(`${label}|${value}`).digest("base64url").slice(0, 22);
}

/** The account part of a key, also the prefix the account-deletion job removes. */
export function accountThrottlePrefix(scope: ThrottleScope, account: string) {
  return `${scope}:${shortHash("throttle-account", account)}|`;
}

/** The account key for a student account: school and student id together. */
export function accountKey(schoolCode: string, studentId: string) {
  return `${schoolCode}:${studentId}`;
}

// ---------------------------------------------------------------------------------------------
// Trusted devices (OWASP "device cookies"): a signed cookie with a random device id and hashes
// of the accounts that logged in successfully from it.

const TRUSTED_LIFETIME_S = 180 * 24 * 60 * 60;
const TRUSTED_MAX_ACCOUNTS = 8;

function trustedCookie() {
  return appCookie("__trusted", { maxAge: TRUSTED_LIFETIME_S });
}

type TrustedValue = { d: string; a: string[] };

async function readTrusted(request: Request): Promise<TrustedValue | null> {
  const value: unknown = await trustedCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const { d, a } = value as { d?: unknown; a?: unknown };
  if (typeof d !== "string" || !Array.isArray(a) || !a.every((item) => typeof item === "string")) return null;
  return { d, a: a as string[] };
}

function trustToken(scope: ThrottleScope, account: string) {
  return shortHash(`trusted-${scope}`, account);
}

/** Set-Cookie that marks this browser as a trusted device of the account (after a success). */
export async function trustDevice(request: Request, scope: ThrottleScope, account: string): Promise<string> {
  const current = (await readTrusted(request)) ?? { d: crypto.randomBytes(16).toString("base64url"), a: [] };
  const token = trustToken(scope, account);
  const accounts = [token, ...current.a.filter((item) => item !== token)].slice(0, TRUSTED_MAX_ACCOUNTS);
  return trustedCookie().serialize({ d: current.d, a: accounts });
}

/** The keys a login attempt of this account from this request counts against. */
export async function throttleKeys(request: Request, scope: ThrottleScope, account: string, clientIp: string): Promise<ThrottleKey[]> {
  const prefix = accountThrottlePrefix(scope, account);
  const trusted = await readTrusted(request);
  if (trusted && trusted.a.includes(trustToken(scope, account))) {
    return [{ key: `${prefix}device:${shortHash("throttle-device", trusted.d)}`, rule: THROTTLE_RULES.accountClient }];
  }
  const address = shortHash("throttle-address", clientNetwork(clientIp, config().clientIpv6Prefix));
  return [
    { key: `${prefix}address:${address}`, rule: THROTTLE_RULES.accountClient },
    { key: `${scope}:address:${address}`, rule: THROTTLE_RULES.client },
  ];
}

// ---------------------------------------------------------------------------------------------
// The counters.

/** How long these keys must still wait (ms; 0 = may try now). */
export async function throttleWait(keys: ThrottleKey[]): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await db()
    .selectFrom("login_throttles")
    .select(["blocked_until"])
    .where(
      "key",
      "in",
      keys.map((k) => k.key),
    )
    .execute();
  const nowMs = Date.now();
  return rows.reduce((longest, row) => Math.max(longest, row.blocked_until ? Date.parse(row.blocked_until) - nowMs : 0), 0);
}

/**
 * Counts a failure on every key and starts its backoff; answers the longest new wait (ms). On the
 * address-wide key (guessing across accounts) it counts `addressWeight` times: more for a login
 * without a proof of work (decision 033).
 */
export async function recordFailure(keys: ThrottleKey[], addressWeight = 1): Promise<number> {
  let longest = 0;
  for (const { key, rule } of keys) {
    const weight = rule === THROTTLE_RULES.client ? addressWeight : 1;
    const at = new Date();
    const forgetBefore = new Date(at.getTime() - rule.forgetAfterMs).toISOString();
    const row = await db()
      .insertInto("login_throttles")
      .values({ key, failures: weight, last_failure_at: at.toISOString(), blocked_until: null })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          failures: sql<number>`CASE WHEN login_throttles.last_failure_at < ${forgetBefore} THEN ${weight} ELSE login_throttles.failures + ${weight} END`,
          last_failure_at: at.toISOString(),
        }),
      )
      .returning("failures")
      .executeTakeFirstOrThrow();
    const wait = backoffMs(Number(row.failures), rule);
    if (wait > 0) {
      await db().updateTable("login_throttles").set({ blocked_until: new Date(at.getTime() + wait).toISOString() }).where("key", "=", key).execute();
      longest = Math.max(longest, wait);
    }
  }
  return longest;
}

/** A success clears the account's key for this client (never the address's key across accounts). */
export async function clearAccountThrottle(keys: ThrottleKey[]) {
  const accountKeys = keys.filter((k) => k.rule === THROTTLE_RULES.accountClient).map((k) => k.key);
  if (accountKeys.length > 0) await db().deleteFrom("login_throttles").where("key", "in", accountKeys).execute();
}

/** Counters whose last failure is older than every rule's memory (the deletion job's sweep). */
export async function sweepLoginThrottles() {
  const longest = Math.max(...Object.values(THROTTLE_RULES).map((rule) => rule.forgetAfterMs));
  await db()
    .deleteFrom("login_throttles")
    .where("last_failure_at", "<", new Date(Date.now() - longest).toISOString())
    .execute();
}
