// The station's deadline as an instant: the text the SMS gives (the parser's `deadline`: 今天18:00前,
// 当日7点前, 六点前, 12.20前, 3天内) read against the moment the parcel was entered. The instant lets
// lists sort and compare parcels; the text as written stays what the student and the courier read.
import { addDays, shanghaiInstant, shanghaiToday } from "./time";

const DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 7, 十九, 二十二, 十 → the number; null for anything else. */
function hourNumber(text: string): number | null {
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const match = /^([一二两三四五六七八九])?(十)?([一二三四五六七八九])?$/.exec(text);
  if (!match || (!match[2] && (!match[1] || match[3]))) return null;
  if (!match[2]) return DIGITS[match[1]!]!;
  return (match[1] ? DIGITS[match[1]]! : 1) * 10 + (match[3] ? DIGITS[match[3]]! : 0);
}

const SPAN = /^([\d一二三四五六七八九十两]{1,3})(天|日|个工作日|小时)内$/;
const AT =
  /^(今天|今日|今晚|明天|明日|当天|当日|本日|(\d{1,2})月(\d{1,2})日|(\d{1,2})[./](\d{1,2}))?(上午|下午|晚上|中午|早上)?(?:(\d{1,2}):(\d{2})|([\d一二两三四五六七八九十]{1,3})点(半|(\d{1,2})分?)?)?前$/;

/**
 * The deadline's instant as an ISO timestamp, or null when the text is none the parser writes.
 * An hour of 1–7 without 上午/早上 is read in the evening (stations close at night, "当日7点前");
 * a date without an hour is the start of that day (12.20前: before the 20th); a span of days ends
 * at the end of the last day.
 */
export function deadlineAt(deadline: string | null | undefined, enteredAt: Date): string | null {
  if (!deadline) return null;
  const text = deadline.replace(/\s/g, "");
  const today = shanghaiToday(enteredAt);
  const span = SPAN.exec(text);
  if (span) {
    const count = hourNumber(span[1]!);
    if (count === null || count === 0) return null;
    if (span[2] === "小时") return new Date(enteredAt.getTime() + count * 3_600_000).toISOString();
    return shanghaiInstant(addDays(today, count), 0, 0).toISOString();
  }
  const at = AT.exec(text);
  if (!at) return null;
  const [, dayWord, month, day, dotMonth, dotDay, period, clockHour, clockMinute, pointHour, half, pointMinute] = at;
  let date = today;
  if (dayWord === "明天" || dayWord === "明日") date = addDays(today, 1);
  else if (month || dotMonth) {
    const m = Number(month ?? dotMonth);
    const d = Number(day ?? dotDay);
    if (m < 1 || m > 12 || d < 1 || d > 31) return null;
    const year = Number(today.slice(0, 4));
    // A date earlier in the year than today is next year's (a message of late December).
    const candidate = `${year}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    date = candidate < addDays(today, -31) ? `${year + 1}${candidate.slice(4)}` : candidate;
  }
  let hour: number | null = null;
  let minute = 0;
  if (clockHour) {
    hour = Number(clockHour);
    minute = Number(clockMinute);
  } else if (pointHour) {
    hour = hourNumber(pointHour);
    minute = half === "半" ? 30 : pointMinute ? Number(pointMinute) : 0;
  }
  if (hour === null) {
    // A date alone: the start of that day; 今天前 and the like say nothing.
    return month || dotMonth ? shanghaiInstant(date, 0, 0).toISOString() : null;
  }
  if ((period === "下午" || period === "晚上" || (!period && !clockHour && hour >= 1 && hour <= 7) || dayWord === "今晚") && hour < 12) hour += 12;
  if (hour > 24 || minute > 59) return null;
  if (hour === 24) return shanghaiInstant(addDays(date, 1), 0, minute).toISOString();
  return shanghaiInstant(date, hour, minute).toISOString();
}

/** The earliest of the parcels' deadlines (ISO timestamps compare as text), or null. */
export function earliestDeadline(instants: (string | null | undefined)[]): string | null {
  let earliest: string | null = null;
  for (const instant of instants) if (instant && (earliest === null || instant < earliest)) earliest = instant;
  return earliest;
}
