// Business time is Asia/Shanghai whatever the server's zone. China has no daylight saving time,
// so Shanghai is always UTC+8: plain arithmetic, no time-zone database needed in the browser.
export const BUSINESS_TIME_ZONE = "Asia/Shanghai";
const SHANGHAI_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export type LocalDate = { year: number; month: number; day: number; weekday: number /* 1 = Monday … 7 = Sunday */ };

/** The calendar date in Shanghai at this instant. */
export function shanghaiDate(at: Date = new Date()): LocalDate {
  const shifted = new Date(at.getTime() + SHANGHAI_OFFSET_MS);
  const weekday = shifted.getUTCDay();
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    weekday: weekday === 0 ? 7 : weekday,
  };
}

/** "2026-11-22" for a Shanghai date. */
export function isoDate(date: Pick<LocalDate, "year" | "month" | "day">) {
  return `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}

export function shanghaiToday(at: Date = new Date()) {
  return isoDate(shanghaiDate(at));
}

/** The instant a Shanghai wall-clock time happens: ("2026-11-22", 13, 30) → 05:30 UTC. */
export function shanghaiInstant(isoDay: string, hour = 0, minute = 0): Date {
  const [year, month, day] = isoDay.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day, hour, minute) - SHANGHAI_OFFSET_MS);
}

export function addDays(isoDay: string, days: number) {
  const [year, month, day] = isoDay.split("-").map(Number);
  const moved = new Date(Date.UTC(year, month - 1, day) + days * DAY_MS);
  return isoDate({ year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() });
}

/** "2026-11-22 13:05" in Shanghai time, for display. */
export function formatShanghai(at: Date | string) {
  const instant = typeof at === "string" ? new Date(at) : at;
  const shifted = new Date(instant.getTime() + SHANGHAI_OFFSET_MS);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}`;
}
