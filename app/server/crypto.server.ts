import crypto from "node:crypto";
import { config } from "./config.server";

// Secrets we must be able to read back (the student's school password, the school's session
// cookies) are sealed with AES-256-GCM under APP_ENCRYPTION_KEY: "v1.<iv>.<tag>.<ciphertext>".
const VERSION = "v1";

export function seal(plaintext: string, key: Buffer = config().encryptionKey): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function unseal(sealed: string, key: Buffer = config().encryptionKey): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("unsupported sealed value");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/** A keyed hash for values we only compare (captcha answers). */
export function keyedHash(value: string) {
  return crypto.createHmac("sha256", config().sessionSecret).update(value).digest("base64url");
}

export function sameSecret(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
