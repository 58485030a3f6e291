// Relative times of docs/product-rules.md "Limits", computed against a given "now" so the server and the
// browser render the same text. Dates beyond the relative range are Shanghai calendar dates.
import { Common } from "./messages/common";
import { fillTemplate } from "./template";
import { shanghaiDate } from "./time";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function toDate(value: Date | string) {
  return typeof value === "string" ? new Date(value) : value;
}

function pad(n: number) {
  return String(n).padStart(2, "0");
}

/**
 * Post cards and the post header: under 1 minute '刚刚', then minutes, hours, and days below
 * 7 days; from 7 days on the date ('11-22' this year, '2025-11-22' before).
 */
export function cardTime(at: Date | string, now: Date | string): string {
  const then = toDate(at);
  const current = toDate(now);
  const diff = Math.max(0, current.getTime() - then.getTime());
  if (diff < MINUTE) return Common.justNow;
  if (diff < HOUR) return fillTemplate(Common.minutesAgo, { n: Math.floor(diff / MINUTE) });
  if (diff < DAY) return fillTemplate(Common.hoursAgo, { n: Math.floor(diff / HOUR) });
  if (diff < 7 * DAY) return fillTemplate(Common.daysAgo, { n: Math.floor(diff / DAY) });
  const date = shanghaiDate(then);
  const sameYear = date.year === shanghaiDate(current).year;
  return sameYear ? `${pad(date.month)}-${pad(date.day)}` : `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

/**
 * Comments: under 60 s '刚刚', minutes, hours, days below 30, months (30 days) below 12, then
 * years (365 days, at least 1).
 */
export function commentTime(at: Date | string, now: Date | string): string {
  const diff = Math.max(0, toDate(now).getTime() - toDate(at).getTime());
  if (diff < MINUTE) return Common.justNow;
  if (diff < HOUR) return fillTemplate(Common.minutesAgo, { n: Math.floor(diff / MINUTE) });
  if (diff < DAY) return fillTemplate(Common.hoursAgo, { n: Math.floor(diff / HOUR) });
  const days = Math.floor(diff / DAY);
  if (days < 30) return fillTemplate(Common.daysAgo, { n: days });
  const months = Math.floor(days / 30);
  if (months < 12) return fillTemplate(Common.monthsAgo, { n: months });
  return fillTemplate(Common.yearsAgo, { n: Math.max(1, Math.floor(days / 365)) });
}
