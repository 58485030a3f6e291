import crypto from "node:crypto";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { CAPTCHA_ALPHABET, CAPTCHA_ISSUE_LIMIT, CAPTCHA_LENGTH, CAPTCHA_TTL_MS, normaliseCaptcha } from "~/lib/captcha";
import { config } from "../config.server";
import { sameSecret } from "../crypto.server";
import { db } from "../db/db.server";
import { drawCaptcha } from "./captcha-image.server";

// The login captcha is stateless: the form carries a token signed with the session
// secret that holds a nonce, the expiry and a keyed hash of the answer. Nothing is stored when a
// captcha is shown; the nonce is written to captcha_nonces only when the token is used, so one
// token never passes twice (whatever the outcome of its first use).

/** `id` is the token the form sends back as `captchaId`; `image` a data: URL of the picture. */
export type CaptchaChallenge = { id: string; image: string };

const TOKEN_VERSION = "c1";

function mac(label: string, value: string) {
  return crypto.createHmac("sha256", config().sessionSecret).update(`${label}|${value}`).digest("base64url");
}

function answerHash(nonce: string, answer: string) {
  return mac("captcha-answer", `${nonce}|${normaliseCaptcha(answer)}`);
}

function randomAnswer() {
  // Tests and local trials may fix the answer; the config refuses that in production.
  const fixed = config().captchaFixedValue;
  if (fixed) return fixed;
  let answer = "";
  for (let i = 0; i < CAPTCHA_LENGTH; i++) answer += CAPTCHA_ALPHABET[crypto.randomInt(0, CAPTCHA_ALPHABET.length)];
  return answer;
}

/** The token for an answer: `c1.<nonce>.<expiry ms>.<answer hash>.<signature>`. */
export function captchaToken(answer: string, expiresAt = Date.now() + CAPTCHA_TTL_MS, nonce = crypto.randomBytes(16).toString("base64url")) {
  const body = `${TOKEN_VERSION}.${nonce}.${expiresAt}.${answerHash(nonce, answer)}`;
  return `${body}.${mac("captcha-token", body)}`;
}

/** A new captcha: its token for the form and its picture (a WebP, decision 033). Writes nothing. */
export async function createCaptcha(): Promise<CaptchaChallenge> {
  const answer = randomAnswer();
  return {
    id: captchaToken(answer),
    image: `data:image/webp;base64,${(await drawCaptcha(answer)).toString("base64")}`,
  };
}

const issueLimiter = new RateLimiterMemory({ points: CAPTCHA_ISSUE_LIMIT.perAddress, duration: CAPTCHA_ISSUE_LIMIT.windowSeconds });

export type CaptchaIssue = { ok: true; captcha: CaptchaChallenge } | { ok: false; retryAfterSeconds: number };

/**
 * A captcha for "tap to refresh", limited per client address (drawing costs CPU; nothing is
 * stored). A counter per process: the limit bounds one instance's work, which is what it is for.
 */
export async function issueCaptcha(clientIp: string): Promise<CaptchaIssue> {
  try {
    await issueLimiter.consume(clientIp || "unknown");
  } catch (refusal) {
    const msBeforeNext = (refusal as { msBeforeNext?: number }).msBeforeNext ?? CAPTCHA_ISSUE_LIMIT.windowSeconds * 1000;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) };
  }
  return { ok: true, captcha: await createCaptcha() };
}

export type CaptchaCheck = "ok" | "empty" | "wrong";

type ParsedToken = { nonce: string; expiresAt: number; hash: string };

function parseToken(token: string | undefined): ParsedToken | null {
  if (!token || token.length > 400) return null;
  const parts = token.split(".");
  if (parts.length !== 5 || parts[0] !== TOKEN_VERSION) return null;
  const [, nonce, expiry, hash, signature] = parts as [string, string, string, string, string];
  if (!sameSecret(signature, mac("captcha-token", parts.slice(0, 4).join(".")))) return null;
  const expiresAt = Number(expiry);
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= Date.now()) return null;
  return { nonce, expiresAt, hash };
}

/** Checks and spends a captcha token: whatever the outcome, the same token never passes twice. */
export async function verifyCaptcha(token: string | undefined, input: string | undefined): Promise<CaptchaCheck> {
  if (!input || !normaliseCaptcha(input)) return "empty";
  const parsed = parseToken(token);
  if (!parsed) return "wrong";
  const spent = await db()
    .insertInto("captcha_nonces")
    .values({ nonce: parsed.nonce, expires_at: new Date(parsed.expiresAt).toISOString() })
    .onConflict((oc) => oc.column("nonce").doNothing())
    .returning("nonce")
    .executeTakeFirst();
  // Spent nonces are worthless once their token has expired; sweep them now and then.
  if (crypto.randomInt(0, 50) === 0) await sweepCaptchaNonces();
  if (!spent) return "wrong";
  return sameSecret(parsed.hash, answerHash(parsed.nonce, input)) ? "ok" : "wrong";
}

export async function sweepCaptchaNonces() {
  await db().deleteFrom("captcha_nonces").where("expires_at", "<", new Date().toISOString()).execute();
}
