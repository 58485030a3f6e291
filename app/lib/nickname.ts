// The product rules' nickname for a messenger user who has none: 小 + a melon name + 6 random characters
// ("小哈密瓜x3Fq9Z"). Pure: the random source can be given, so tests are deterministic.
import { hasAbuse, impersonates } from "./nickname-words";

export const MELON_NAMES = [
  "西瓜",
  "哈密瓜",
  "香瓜",
  "甜瓜",
  "木瓜",
  "冬瓜",
  "南瓜",
  "黄瓜",
  "苦瓜",
  "丝瓜",
  "白兰瓜",
  "伊丽莎白瓜",
  "羊角蜜",
  "佛手瓜",
] as const;

export const NICKNAME_SUFFIX_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const NICKNAME_SUFFIX_LENGTH = 6;

/** Nicknames the provider hands out when the user shared none: treated as no nickname. */
export const PLACEHOLDER_NICKNAMES = ["微信用户"] as const;

/** A uniform integer in [0, max), from the platform's cryptographic random source. */
export function secureRandomInt(max: number): number {
  if (!Number.isInteger(max) || max <= 0 || max > 0x1_0000_0000) throw new RangeError(`bad max ${max}`);
  const limit = Math.floor(0x1_0000_0000 / max) * max; // reject the uneven tail
  const buffer = new Uint32Array(1);
  for (;;) {
    globalThis.crypto.getRandomValues(buffer);
    if (buffer[0]! < limit) return buffer[0]! % max;
  }
}

export function randomNickname(randomInt: (max: number) => number = secureRandomInt): string {
  const melon = MELON_NAMES[randomInt(MELON_NAMES.length)];
  let suffix = "";
  for (let i = 0; i < NICKNAME_SUFFIX_LENGTH; i += 1) {
    suffix += NICKNAME_SUFFIX_ALPHABET[randomInt(NICKNAME_SUFFIX_ALPHABET.length)];
  }
  return `小${melon}${suffix}`;
}

const RANDOM_NICKNAME = new RegExp(`^小(${MELON_NAMES.join("|")})[A-Za-z0-9]{${NICKNAME_SUFFIX_LENGTH}}$`);

export function isRandomNickname(nickname: string) {
  return RANDOM_NICKNAME.test(nickname);
}

/** The provider's nickname when it is a real one: trimmed, not empty, not the placeholder. */
export function realNickname(nickname: string | null | undefined): string | null {
  const trimmed = nickname?.trim() ?? "";
  if (!trimmed || (PLACEHOLDER_NICKNAMES as readonly string[]).includes(trimmed)) return null;
  return trimmed;
}

/** A nickname a student chooses: 2-20 characters (counted as people count them). */
export const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 20;

export type NicknameProblem = "required" | "tooShort" | "tooLong" | "reserved" | "abusive" | "digits" | "symbols";

/** Why a chosen nickname is refused (the circle's rules for names), or null when it is fine. */
export function nicknameProblem(raw: string): NicknameProblem | null {
  const nickname = raw.trim();
  if (!nickname) return "required";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\u200b-\u200f\u2028-\u202e\ufeff]/.test(nickname)) return "symbols";
  const length = [...nickname].length;
  if (length < NICKNAME_MIN) return "tooShort";
  if (length > NICKNAME_MAX) return "tooLong";
  if (/^[\d\s-]+$/.test(nickname)) return "digits";
  if (!/[\p{L}\p{N}]/u.test(nickname)) return "symbols";
  if (hasAbuse(nickname)) return "abusive";
  if (impersonates(nickname)) return "reserved";
  return null;
}
