import { fillTemplate } from "./template";

// Login throttling (decision 015, after OWASP ASVS V2.2): failures are counted per account and
// client, and per client address; past a key's free failures every further failure doubles the
// wait before that key may try again. Nothing locks an account for everyone: a client without
// failures, with the right password and captcha, always gets in.

export type ThrottleRule = {
  /** Failures allowed before any wait. */
  free: number;
  /** The wait after the first failure past the free ones; each further failure doubles it. */
  baseMs: number;
  maxMs: number;
  /** A key whose last failure is this old starts again from zero. */
  forgetAfterMs: number;
};

const DAY_MS = 24 * 60 * 60 * 1000;

export const THROTTLE_RULES = {
  /** One account from one client (a trusted device, else an address): 30 s, 1 min, 2 min … 15 min. */
  accountClient: { free: 4, baseMs: 30_000, maxMs: 15 * 60_000, forgetAfterMs: DAY_MS },
  /** One address across accounts (untrusted clients only): generous for a campus NAT, 10 s … 15 min. */
  client: { free: 30, baseMs: 10_000, maxMs: 15 * 60_000, forgetAfterMs: DAY_MS },
} as const satisfies Record<string, ThrottleRule>;

/** How long a key must wait after its n-th failure in a row (0 while it has free failures left). */
export function backoffMs(failures: number, rule: ThrottleRule): number {
  if (failures <= rule.free) return 0;
  const doublings = Math.min(failures - rule.free - 1, 30);
  return Math.min(rule.maxMs, rule.baseMs * 2 ** doublings);
}

/** The wait in words for a 'too many attempts' or rate-limit message: "30 秒", "2 分钟" (rounded up). */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} 秒`;
  return `${Math.ceil(seconds / 60)} 分钟`;
}

/** A 'too many attempts' (or 'too frequent') message with the wait filled in ({wait} in the template). */
export function tooManyMessage(template: string, waitMs: number) {
  return fillTemplate(template, { wait: waitText(waitMs) });
}
