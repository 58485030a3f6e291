// iCalendar (RFC 5545) text for the timetable feed: CRLF line ends, lines folded at 75 octets
// without splitting a UTF-8 character, TEXT values escaped, times in Asia/Shanghai (a fixed
// +08:00 zone, described once by a VTIMEZONE so calendars show local wall-clock times).
import { BUSINESS_TIME_ZONE } from "./time";

/** The alarm lead times a student can choose for the feed (minutes; 0 = no alarm). */
export const ALARM_CHOICES = [0, 5, 10, 15, 30, 60] as const;
export const DEFAULT_ALARM_MINUTES = 15;

export type IcsEvent = {
  uid: string;
  /** YYYY-MM-DD and HH:MM, Shanghai wall clock. */
  date: string;
  start: string;
  end: string;
  summary: string;
  location?: string;
  description?: string;
  /** A VALARM this many minutes before the start (none when absent or 0). */
  alarmMinutes?: number;
  /** Text the phone shows when the alarm rings (the summary when absent). */
  alarmText?: string;
};

export type IcsCalendar = {
  name: string;
  /** When the feed was made (DTSTAMP of every event). */
  generatedAt: Date;
  events: IcsEvent[];
  /** A hint for subscribing clients: how often to ask again (ISO 8601 duration). */
  refreshInterval?: string;
};

const CRLF = "\r\n";
const encoder = new TextEncoder();

/** Escapes a TEXT value: backslash, semicolon, comma and line breaks. */
export function escapeText(value: string) {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/**
 * Folds a content line into pieces of at most 75 octets; each continuation starts with a space
 * (which counts towards its 75). A multi-byte character is never cut in two.
 */
export function foldLine(line: string) {
  const pieces: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    const limit = pieces.length === 0 ? 75 : 74;
    if (size + bytes > limit) {
      pieces.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += bytes;
  }
  pieces.push(current);
  return pieces.join(`${CRLF} `);
}

const compactDate = (isoDay: string) => isoDay.replace(/-/g, "");
const compactTime = (clock: string) => `${clock.replace(":", "")}00`;

function utcStamp(at: Date) {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

export function buildIcs(calendar: IcsCalendar) {
  const stamp = utcStamp(calendar.generatedAt);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//campus-app//timetable//ZH-CN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
    `X-WR-TIMEZONE:${BUSINESS_TIME_ZONE}`,
    ...(calendar.refreshInterval
      ? [`REFRESH-INTERVAL;VALUE=DURATION:${calendar.refreshInterval}`, `X-PUBLISHED-TTL:${calendar.refreshInterval}`]
      : []),
    "BEGIN:VTIMEZONE",
    `TZID:${BUSINESS_TIME_ZONE}`,
    "BEGIN:STANDARD",
    "DTSTART:19700101T000000",
    "TZOFFSETFROM:+0800",
    "TZOFFSETTO:+0800",
    "TZNAME:CST",
    "END:STANDARD",
    "END:VTIMEZONE",
  ];
  for (const event of calendar.events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${event.uid}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;TZID=${BUSINESS_TIME_ZONE}:${compactDate(event.date)}T${compactTime(event.start)}`,
      `DTEND;TZID=${BUSINESS_TIME_ZONE}:${compactDate(event.date)}T${compactTime(event.end)}`,
      `SUMMARY:${escapeText(event.summary)}`,
    );
    if (event.location) lines.push(`LOCATION:${escapeText(event.location)}`);
    if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
    lines.push("TRANSP:OPAQUE");
    if (event.alarmMinutes && event.alarmMinutes > 0) {
      lines.push("BEGIN:VALARM", "ACTION:DISPLAY", `DESCRIPTION:${escapeText(event.alarmText ?? event.summary)}`, `TRIGGER:-PT${Math.trunc(event.alarmMinutes)}M`, "END:VALARM");
    }
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join(CRLF) + CRLF;
}
