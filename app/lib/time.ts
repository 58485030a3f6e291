// Business time and the business calendar, in one module.
//
// Business time is Asia/Shanghai whatever the server's or the browser's zone (docs/architecture.md
// "Time"). Instants are read in that zone through Intl (the platform's time-zone database), never
// by adding a hand-written +8 h: no module outside this one knows the offset. Calendar dates are
// 'YYYY-MM-DD' strings or CalendarDate values, and calendar arithmetic on them is plain UTC date
// arithmetic, which no time zone can shift.

export const BUSINESS_TIME_ZONE = "Asia/Shanghai";

/** A calendar date (no time, no zone). */
export interface CalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** A calendar date with its weekday: 1 = Monday … 7 = Sunday. */
export interface LocalDate extends CalendarDate {
  weekday: number;
}

/** The wall clock in a time zone at an instant. */
export interface WallClock extends LocalDate {
  hour: number;
  minute: number;
  second: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string) {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock as Intl reads it (a formatToParts call: the slow path, see wallClock). */
function intlWallClock(at: Date, timeZone: string): WallClock {
  const clock: WallClock = { year: 0, month: 0, day: 0, weekday: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(timeZone).formatToParts(at)) {
    if (part.type === "weekday") clock.weekday = WEEKDAYS[part.value] ?? 0;
    else if (part.type in clock) clock[part.type as keyof WallClock] = Number(part.value);
  }
  return clock;
}

function intlOffsetMs(ms: number, timeZone: string): number {
  const c = intlWallClock(new Date(ms), timeZone);
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - Math.floor(ms / 1000) * 1000;
}

// Pages read the clock many times per request (formatToParts was 1.5–4% of a loaded
// /market's CPU). The zone's offset is asked of Intl once per 15-minute window and kept when it is
// the same at both ends of the window; a window holding a transition is never kept, so every
// instant still gets the offset the time-zone database gives it. Many windows are kept at once: a
// page reads now, today's midnight, a post's or a coupon's instant, and one kept window thrashed
// (intlOffsetMs was still 1.9% of /market's CPU with one).
const OFFSET_WINDOW_MS = 15 * 60 * 1000;
const OFFSET_WINDOWS_KEPT = 4096;
const offsetWindows = new Map<string, number>();

function offsetMsAt(ms: number, timeZone: string): number {
  const window = Math.floor(ms / OFFSET_WINDOW_MS);
  const key = `${window}|${timeZone}`;
  const known = offsetWindows.get(key);
  if (known !== undefined) return known;
  const start = intlOffsetMs(window * OFFSET_WINDOW_MS, timeZone);
  if (start !== intlOffsetMs((window + 1) * OFFSET_WINDOW_MS - 1000, timeZone)) return intlOffsetMs(ms, timeZone);
  if (offsetWindows.size >= OFFSET_WINDOWS_KEPT) offsetWindows.delete(offsetWindows.keys().next().value!);
  offsetWindows.set(key, start);
  return start;
}

/** The wall clock at this instant in a time zone (default Asia/Shanghai). */
export function wallClock(at: Date = new Date(), timeZone: string = BUSINESS_TIME_ZONE): WallClock {
  const ms = at.getTime();
  if (Number.isNaN(ms)) return intlWallClock(at, timeZone);
  const local = new Date(ms + offsetMsAt(ms, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    weekday: local.getUTCDay() || 7,
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** The zone's offset from UTC at this instant, in minutes (Shanghai: 480). */
export function utcOffsetMinutes(at: Date, timeZone: string = BUSINESS_TIME_ZONE): number {
  return Math.round(offsetMsAt(at.getTime(), timeZone) / 60_000);
}

/** The calendar date in Shanghai at this instant. */
export function shanghaiDate(at: Date = new Date()): LocalDate {
  const { year, month, day, weekday } = wallClock(at);
  return { year, month, day, weekday };
}

/** The calendar date of an instant in a time zone (default Asia/Shanghai). */
export function dateInTimeZone(at: Date, timeZone: string = BUSINESS_TIME_ZONE): CalendarDate {
  const { year, month, day } = wallClock(at, timeZone);
  return { year, month, day };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "2026-11-22" for a calendar date. */
export function isoDate(date: Pick<CalendarDate, "year" | "month" | "day">) {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** "2026-11-22" → { year, month, day }. */
export function parseIsoDate(isoDay: string): CalendarDate {
  const [year, month, day] = isoDay.split("-").map(Number);
  return { year, month, day };
}

/** Today's date in Shanghai, "2026-11-22". */
export function shanghaiToday(at: Date = new Date()) {
  return isoDate(shanghaiDate(at));
}

/** The instant a Shanghai wall-clock time happens: ("2026-11-22", 13, 30) → 05:30 UTC. */
export function shanghaiInstant(isoDay: string, hour = 0, minute = 0, timeZone: string = BUSINESS_TIME_ZONE): Date {
  const { year, month, day } = parseIsoDate(isoDay);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The offset at the guess, then at the answer (they differ only across a zone's clock change).
  const first = asUtc - utcOffsetMinutes(new Date(asUtc), timeZone) * 60_000;
  return new Date(asUtc - utcOffsetMinutes(new Date(first), timeZone) * 60_000);
}

/** Minutes since Shanghai midnight at this instant (13:30 → 810). */
export function shanghaiMinuteOfDay(at: Date): number {
  const { hour, minute } = wallClock(at);
  return hour * 60 + minute;
}

/** "13:05" in Shanghai time. */
export function shanghaiClock(at: Date | string): string {
  const c = wallClock(typeof at === "string" ? new Date(at) : at);
  return `${pad(c.hour)}:${pad(c.minute)}`;
}

/** "2026-11-22 13:05" in Shanghai time, for display. */
export function formatShanghai(at: Date | string) {
  const c = wallClock(typeof at === "string" ? new Date(at) : at);
  return `${isoDate(c)} ${pad(c.hour)}:${pad(c.minute)}`;
}

/** "20261122-1305" in Shanghai time, for file names. */
export function compactShanghai(at: Date): string {
  const c = wallClock(at);
  return `${pad(c.year, 4)}${pad(c.month)}${pad(c.day)}-${pad(c.hour)}${pad(c.minute)}`;
}

/** RFC 3339 with the zone's offset, to the second: "2025-01-02T03:04:05+08:00" (what the pay API wants). */
export function rfc3339Shanghai(at: Date): string {
  const c = wallClock(at);
  const offset = utcOffsetMinutes(at);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${isoDate(c)}T${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// The business calendar: arithmetic on calendar dates.

/** Days since 1970-01-01 of a calendar date. */
function dayNumber(isoDay: string) {
  const { year, month, day } = parseIsoDate(isoDay);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

export function addDays(isoDay: string, days: number) {
  const moved = new Date((dayNumber(isoDay) + days) * DAY_MS);
  return isoDate({ year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() });
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The weekday of a calendar date: 1 = Monday … 7 = Sunday. */
export function weekdayOf(isoDay: string): number {
  const weekday = new Date(dayNumber(isoDay) * DAY_MS).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** The first Monday of a month, as 'YYYY-MM-DD' (month 1–12). */
export function firstMondayOf(year: number, month: number): string {
  const first = isoDate({ year, month, day: 1 });
  return addDays(first, (8 - weekdayOf(first)) % 7);
}
