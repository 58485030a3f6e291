// Promotions once per person, not per account row (docs/architecture.md "New user", decision 014).
// A person is named by keyed hashes of their stable identities: the school account (school +
// student id) and the messenger openid. A mark (new_user: the new-user grant was given;
// has_assisted: they assisted someone) is stored per hash and outlives account deletion, so
// deleting the account and coming back — with the same school account or the same messenger
// account — never makes the person new again. The hashes are HMAC-SHA256 under a key derived
// from the server's APP_ENCRYPTION_KEY: without it they name nobody (not personal data).
import crypto from "node:crypto";
import { config } from "../config.server";
import { db, type Executor } from "../db/db.server";
import type { PromotionMarksTable } from "../db/schema";

export type PromotionMark = PromotionMarksTable["mark"];

export type StableIdentity = { school_code?: string | null; student_id?: string | null; openid?: string | null };

let cachedKey: { source: Buffer; key: Buffer } | null = null;

function hashKey() {
  const source = config().encryptionKey;
  if (cachedKey?.source !== source) {
    cachedKey = { source, key: crypto.createHmac("sha256", source).update("promotion-identity-v1").digest() };
  }
  return cachedKey.key;
}

/** The keyed hashes of every stable identity the person has (none for an anonymous row). */
export function identityHashes(person: StableIdentity): string[] {
  const names: string[] = [];
  if (person.school_code && person.student_id) names.push(`student:${person.school_code}:${person.student_id}`);
  if (person.openid) names.push(`openid:${person.openid}`);
  return names.map((name) => crypto.createHmac("sha256", hashKey()).update(name).digest("base64url"));
}

export async function identityHashesOf(userId: number, executor: Executor = db()): Promise<string[]> {
  const row = await executor.selectFrom("users").select(["school_code", "student_id", "openid"]).where("id", "=", userId).executeTakeFirst();
  return row ? identityHashes(row) : [];
}

/** Has any identity of the person this mark already? */
export async function hasMark(executor: Executor, hashes: string[], mark: PromotionMark): Promise<boolean> {
  if (hashes.length === 0) return false;
  const row = await executor
    .selectFrom("promotion_marks")
    .select("identity_hash")
    .where("identity_hash", "in", hashes)
    .where("mark", "=", mark)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Marks every identity of the person, in the caller's transaction. True only when none of them
 * had the mark: of two parallel claims for one identity the unique key lets exactly one insert.
 * (Marks put on the other identities by a refused claim stay: they belong to the same person.)
 */
export async function claimMark(executor: Executor, hashes: string[], mark: PromotionMark, at: Date): Promise<boolean> {
  let fresh = hashes.length > 0;
  for (const hash of hashes) {
    const row = await executor
      .insertInto("promotion_marks")
      .values({ identity_hash: hash, mark, created_at: at.toISOString() })
      .onConflict((oc) => oc.columns(["identity_hash", "mark"]).doNothing())
      .returning("identity_hash")
      .executeTakeFirst();
    if (!row) fresh = false;
  }
  return fresh;
}

/**
 * Before an account is deleted: what it received stays marked under its identities (a grant or an
 * assist from before the marks existed, or on a row whose identities changed since).
 */
export async function keepPromotionMarks(executor: Executor, userId: number, at = new Date()) {
  const hashes = await identityHashesOf(userId, executor);
  if (hashes.length === 0) return;
  const granted = await executor.selectFrom("coupon_grants").select("id").where("user_id", "=", userId).where("grant_key", "=", "new_user").executeTakeFirst();
  if (granted) await claimMark(executor, hashes, "new_user", at);
  const assisted = await executor.selectFrom("assists").select("id").where("assistant_user_id", "=", userId).executeTakeFirst();
  if (assisted) await claimMark(executor, hashes, "has_assisted", at);
}
