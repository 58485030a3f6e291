import crypto from "node:crypto";
import { CAPTCHA_ALPHABET, CAPTCHA_LENGTH, CAPTCHA_TTL_MS, normaliseCaptcha } from "~/lib/captcha";
import { config } from "../config.server";
import { keyedHash, sameSecret } from "../crypto.server";
import { db, now } from "../db/db.server";
import { drawCaptcha } from "./captcha-image.server";

export type CaptchaChallenge = { id: string; image: string };

function randomAnswer() {
  // Tests and local trials may fix the answer; the config refuses that in production.
  const fixed = config().captchaFixedValue;
  if (fixed) return fixed;
  let answer = "";
  for (let i = 0; i < CAPTCHA_LENGTH; i++) answer += CAPTCHA_ALPHABET[crypto.randomInt(0, CAPTCHA_ALPHABET.length)];
  return answer;
}

/** A new one-use captcha: its id for the form and its picture as a data: URL. */
export async function createCaptcha(): Promise<CaptchaChallenge> {
  const id = crypto.randomBytes(16).toString("base64url");
  const answer = randomAnswer();
  const image = `data:image/svg+xml;base64,${Buffer.from(drawCaptcha(answer)).toString("base64")}`;
  const created = new Date();
  await db()
    .insertInto("captchas")
    .values({
      id,
      answer_hash: keyedHash(answer),
      image,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + CAPTCHA_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  // Old challenges are worthless; sweep them now and then instead of with a separate job.
  if (crypto.randomInt(0, 50) === 0) {
    await db().deleteFrom("captchas").where("expires_at", "<", new Date(created.getTime() - 60 * 60 * 1000).toISOString()).execute();
  }
  return { id, image };
}

export type CaptchaCheck = "ok" | "empty" | "wrong";

/** Checks and spends a captcha: whatever the outcome, the same id never passes twice. */
export async function verifyCaptcha(id: string | undefined, input: string | undefined): Promise<CaptchaCheck> {
  if (!input || !normaliseCaptcha(input)) return "empty";
  if (!id) return "wrong";
  const spent = await db()
    .updateTable("captchas")
    .set({ used_at: now() })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", now())
    .returning("answer_hash")
    .executeTakeFirst();
  if (!spent) return "wrong";
  return sameSecret(spent.answer_hash, keyedHash(normaliseCaptcha(input))) ? "ok" : "wrong";
}
