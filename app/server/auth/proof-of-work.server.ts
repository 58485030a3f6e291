import crypto from "node:crypto";
import { extractParams, verifySolution } from "altcha-lib";
import { PROOF_OF_WORK, type ProofChallenge } from "~/lib/proof-of-work";
import { config } from "../config.server";
import { db } from "../db/db.server";

// Proof of work on anonymous costly forms (decisions 033 and 042): the student and operator logins,
// the invite registration and the feature request. The page carries an ALTCHA challenge
// (signed, expiring, stateless); its script finds the number whose SHA-256 with the salt is the
// challenge and sends it in the `altcha` field. A browser without JavaScript sends none: its
// submission still goes on, with the captcha alone, and each of its failures counts
// PROOF_OF_WORK.failuresWithoutProof times in the login throttles (a tighter limit). The limits
// and the captcha stay the defence; this makes each scripted attempt cost CPU.

export type { ProofChallenge };

function hmacKey() {
  return `altcha|${config().sessionSecret}`;
}

/**
 * A new challenge for a form (nothing stored), in ALTCHA's format (what verifySolution checks).
 * Made with node:crypto, synchronously: microseconds, where altcha-lib's createChallenge queues
 * Web Crypto jobs on libuv's thread pool behind the captcha renders on a busy login page.
 */
export async function createProofChallenge(): Promise<ProofChallenge> {
  const expires = Math.floor((Date.now() + PROOF_OF_WORK.ttlMs) / 1000);
  const salt = `${crypto.randomBytes(12).toString("hex")}?expires=${expires};`;
  const number = crypto.randomInt(0, PROOF_OF_WORK.maxNumber);
  const challenge = crypto.createHash("sha256").update(salt + number).digest("hex");
  const signature = crypto.createHmac("sha256", hmacKey()).update(challenge).digest("hex");
  return { algorithm: "SHA-256", challenge, maxnumber: PROOF_OF_WORK.maxNumber, salt, signature };
}

export type ProofVerdict = "valid" | "absent" | "invalid";

/**
 * The verdict on a form's `altcha` field, spending a valid one. Absent: a browser without
 * JavaScript (the form goes on under a tighter limit). Invalid (forged, expired, spent): never
 * what a browser sends, so the invite registration and the feature request refuse it.
 */
export async function proofVerdict(payload: unknown): Promise<ProofVerdict> {
  if (payload === null || payload === undefined || payload === "") return "absent";
  return (await spendProof(payload)) ? "valid" : "invalid";
}

/** Whether a submitted `altcha` payload is a valid, unexpired, unspent solution; spends it. */
export async function spendProof(payload: unknown): Promise<boolean> {
  if (typeof payload !== "string" || payload.length === 0 || payload.length > 1000) return false;
  let valid = false;
  try {
    valid = await verifySolution(payload, hmacKey(), true);
  } catch {
    return false;
  }
  if (!valid) return false;
  // One solution, one submission: its signature joins the spent captcha nonces until it expires.
  const solution = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as { signature: string; salt: string };
  const { signature } = solution;
  const expires = Number(extractParams(solution as never).expires) * 1000 || Date.now() + PROOF_OF_WORK.ttlMs;
  const spent = await db()
    .insertInto("captcha_nonces")
    .values({ nonce: `pow.${signature}`, expires_at: new Date(expires).toISOString() })
    .onConflict((oc) => oc.column("nonce").doNothing())
    .returning("nonce")
    .executeTakeFirst();
  return Boolean(spent);
}
