// Semester codes ('2025-2026-1') and their calendar. Pure; every date is computed in the
// school's time zone (Asia/Shanghai), never in the server's local time. Dates, time zones and
// calendar arithmetic come from ./time, the one date module.
import { BUSINESS_TIME_ZONE, dateInTimeZone, firstMondayOf } from "./time";

export type TermNumber = 1 | 2 | 3;

export interface ParsedTerm {
  /** First calendar year of the academic year: 2025 for '2025-2026-1'. */
  startYear: number;
  /** 1 = autumn, 2 = spring, 3 = summer short term. */
  term: TermNumber;
}

const TERM_CODE = /^(\d{4})-(\d{4})-([123])$/;

export function parseTermCode(code: string): ParsedTerm | null {
  const match = TERM_CODE.exec(code);
  if (!match) return null;
  const startYear = Number(match[1]);
  if (Number(match[2]) !== startYear + 1) return null;
  return { startYear, term: Number(match[3]) as TermNumber };
}

export function formatTermCode({ startYear, term }: ParsedTerm): string {
  return `${startYear}-${startYear + 1}-${term}`;
}

/** '2025-2026-1' → '2025-2026学年第1学期'; an unreadable code is returned as it is. */
export function termLabel(code: string): string {
  const parsed = parseTermCode(code);
  if (!parsed) return code;
  return `${parsed.startYear}-${parsed.startYear + 1}学年第${parsed.term}学期`;
}

/**
 * Default Monday of week 1 when the school does not publish one: first Monday of September
 * (term 1), of March (term 2) or of July (short term 3).
 */
export function defaultWeek1Start(code: string): string | null {
  const parsed = parseTermCode(code);
  if (!parsed) return null;
  if (parsed.term === 1) return firstMondayOf(parsed.startYear, 9);
  return firstMondayOf(parsed.startYear + 1, parsed.term === 2 ? 3 : 7);
}

/**
 * The regular term containing an instant in the school's time zone:
 * September–January → term 1 of that academic year, February–August → term 2.
 */
export function termForDate(
  instant: Date,
  timeZone: string = BUSINESS_TIME_ZONE,
): { code: string; week1Start: string } {
  const { year, month } = dateInTimeZone(instant, timeZone);
  const parsed: ParsedTerm =
    month >= 9
      ? { startYear: year, term: 1 }
      : month === 1
        ? { startYear: year - 1, term: 1 }
        : { startYear: year - 1, term: 2 };
  const code = formatTermCode(parsed);
  return { code, week1Start: defaultWeek1Start(code)! };
}

/** The regular term before this one (short terms are skipped): '2025-2026-1' → '2024-2025-2'. */
export function previousTerm(code: string): string | null {
  const parsed = parseTermCode(code);
  if (!parsed) return null;
  if (parsed.term === 1) return formatTermCode({ startYear: parsed.startYear - 1, term: 2 });
  return formatTermCode({ startYear: parsed.startYear, term: 1 });
}

/** This term and the regular terms before it, newest first. */
export function recentTerms(code: string, count: number): string[] {
  const terms: string[] = [];
  for (let term = parseTermCode(code) ? code : null; term && terms.length < count; term = previousTerm(term)) {
    terms.push(term);
  }
  return terms;
}

/** Orders term codes chronologically (for sort()); short term 3 follows term 2. */
export function compareTerms(a: string, b: string): number {
  const x = parseTermCode(a);
  const y = parseTermCode(b);
  if (!x || !y) return a.localeCompare(b);
  return x.startYear - y.startYear || x.term - y.term;
}
