// The login captcha's rules: 4 characters from letters without the ambiguous ones (I, L, O, Z)
// and the digits 2–8, compared without regard to case.
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXY2345678";
export const CAPTCHA_TTL_MS = 5 * 60 * 1000;

export function normaliseCaptcha(input: string) {
  return input.trim().toUpperCase();
}

export function isWellFormedCaptcha(input: string) {
  const value = normaliseCaptcha(input);
  return value.length === CAPTCHA_LENGTH && [...value].every((char) => CAPTCHA_ALPHABET.includes(char));
}

/** "Tap to refresh" captchas one client address may draw (POST /api/captcha). */
export const CAPTCHA_ISSUE_LIMIT = { perAddress: 60, windowSeconds: 60 } as const;
