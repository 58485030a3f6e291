// The recognised parcel list of the market page: defaults, the product rules' field aliases, the save
// rule and the duplicate rule. Pure, shared by the page's action and the JSON endpoints.

import type { ParsedPickup, PickupType } from "./pickup-parser";

export const DEFAULT_COMPANY = "未知快递";
export const DEFAULT_STATION = "菜鸟驿站取件点";
export const MAX_ENTRIES = 30;

export type EntrySource = "text" | "image" | "manual";

export type PickupEntry = {
  id: string;
  company: string;
  trackingNumber: string | null;
  pickupCode: string | null;
  stationName: string;
  pickupType: PickupType;
  source: EntrySource;
  /** The station's deadline as the SMS states it (今天18:00前, 3天内), shown with the parcel. */
  deadline?: string | null;
  /** The recipient's phone tail the SMS states, for the rider's recipient check. */
  phoneTail?: string | null;
  /** A read the student should check before ordering: the engine was unsure of a screenshot's
   * code line, the code is shorter than its shape, or a waybill-long number stood where the code
   * does. Cleared when the student saves the entry. */
  check?: EntryCheck | null;
};

export type EntryCheck = "low-confidence" | "short-code" | "long-number";
const ENTRY_CHECKS: readonly EntryCheck[] = ["low-confidence", "short-code", "long-number"];

/** A parsed parcel as the product rules' endpoints answer it: the defaults where the text says nothing. */
export function withDefaults(parsed: ParsedPickup) {
  return {
    company: parsed.company ?? DEFAULT_COMPANY,
    trackingNumber: parsed.trackingNumber,
    pickupCode: parsed.pickupCode,
    stationName: parsed.stationName ?? DEFAULT_STATION,
    pickupType: parsed.pickupType,
    deadline: parsed.deadline ?? null,
    ...(parsed.phoneTail ? { phoneTail: parsed.phoneTail } : {}),
    check: (parsed.check ?? null) as EntryCheck | null,
  };
}

/**
 * A code shorter than its shape: a station code's groups are shelf-layer-number, the number of
 * three digits or more; a read that lost characters ends in a group of one or two ("1-2-30").
 * Only a screenshot read is judged so: a pasted text says what it says.
 */
export function shortForItsShape(code: string | null | undefined) {
  if (!code) return false;
  const groups = normalizeCredential(code).split("-");
  if (groups.length >= 3) return groups[groups.length - 1]!.length <= 2;
  return groups.length === 1 && /^\d{1,2}$/.test(groups[0]!);
}

function text(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.normalize("NFKC").trim();
  return trimmed ? trimmed.slice(0, 64) : null;
}

/**
 * An entry from outside (a JSON body, an older client): pickupCode also read as pickup_code,
 * pickup_credential or the first of pickup_codes; stationName also as station_name.
 */
export function entryFromInput(input: unknown): Omit<PickupEntry, "id" | "source"> | null {
  if (!input || typeof input !== "object") return null;
  const raw = input as Record<string, unknown>;
  const codes = Array.isArray(raw.pickup_codes) ? raw.pickup_codes : [];
  const pickupCode = text(raw.pickupCode) ?? text(raw.pickup_code) ?? text(raw.pickup_credential) ?? text(codes[0]) ?? text(raw.code);
  const trackingNumber = text(raw.trackingNumber) ?? text(raw.tracking_number);
  const stationName = text(raw.stationName) ?? text(raw.station_name) ?? text(raw.location);
  const company = text(raw.company);
  if (!pickupCode && !trackingNumber) return null;
  // What the screenshot endpoint answered, posted back by the page: the station's deadline and a
  // read to check (only the known values; a client that drops the flag only skips its own check).
  const deadline = text(raw.deadline)?.slice(0, 32) ?? null;
  const tail = text(raw.phoneTail);
  const phoneTail = tail && /^\d{4}$/.test(tail) ? { phoneTail: tail } : {};
  const check = ENTRY_CHECKS.find((known) => known === raw.check) ?? null;
  return {
    company: company ?? DEFAULT_COMPANY,
    trackingNumber,
    pickupCode,
    stationName: stationName ?? DEFAULT_STATION,
    pickupType: pickupCode ? "code" : "tracking",
    deadline,
    ...phoneTail,
    check,
  };
}

/** The product rules' save rule: (tracking number + place) or (code + company) or (place + code). */
export function canSave(entry: { company?: string | null; trackingNumber?: string | null; pickupCode?: string | null; stationName?: string | null }) {
  const has = (value: string | null | undefined) => Boolean(value && value.trim());
  return (
    (has(entry.trackingNumber) && has(entry.stationName)) ||
    (has(entry.pickupCode) && has(entry.company)) ||
    (has(entry.stationName) && has(entry.pickupCode))
  );
}

type ParcelFields = { trackingNumber?: string | null; pickupCode?: string | null; stationName?: string | null };

// Characters that show nothing: a pasted or crafted code must not differ by them.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;
// The parts of a code: runs of letters and digits, or of Chinese (a locker prefix: 3号柜).
const CODE_PART = /[A-Z0-9]+|[\u3400-\u9FFF]+/g;

/**
 * One canonical form of a pickup code, so that one parcel is one entry whatever the channel:
 * NFKC, invisible characters gone, upper case, and the groups of letters and digits joined by one
 * "-" whatever separated them ("6.2.1101", "6-2-1101", "6 2 1101", "６－２－１１０１" are one code);
 * any other punctuation is dropped; a locker prefix is glued to the code ("3号柜 581203" →
 * "3号柜581203"). Groups written together stay together: "621101" is another code than "6-2-1101".
 * A tracking number has no groups: every separator is dropped.
 */
export function normalizeCredential(value: string | null | undefined, kind: "code" | "tracking" = "code") {
  const parts = (value ?? "").normalize("NFKC").replace(INVISIBLE, "").toUpperCase().match(CODE_PART) ?? [];
  if (kind === "tracking") return parts.join("");
  let code = "";
  let previousAlnum = false;
  for (const part of parts) {
    const alnum = /^[A-Z0-9]/.test(part);
    if (code && alnum && previousAlnum) code += "-";
    code += part;
    previousAlnum = alnum;
  }
  return code;
}

/** What separates several codes typed or pasted into one field: spaces, commas, 、, semicolons, slashes, bars. */
const CODE_SEPARATORS = /[\s,，、;；/|｜]+/;
/** A piece that reads as a code of its own: three characters or more with a digit ("8 8 1234" is still one code). */
const CODE_LIKE = /^(?=.*\d).{3,}$/;

/**
 * One entry is one parcel: its pickup code (or tracking number) field holds exactly one
 * credential. "1-2-3 4-5-6" or "A1，B2，C3" are several parcels typed into one entry, which would
 * be delivered for the price of one, so every way in (the entry form, the edit dialog, the JSON
 * API, order creation) refuses them.
 */
export function holdsOneCode(value: string | null | undefined) {
  const pieces = (value ?? "").normalize("NFKC").trim().split(CODE_SEPARATORS).filter(Boolean);
  return pieces.filter((piece) => CODE_LIKE.test(piece)).length <= 1;
}

/** The entry's code and tracking number each hold one credential at most. */
export function entryHoldsOneCode(entry: { pickupCode?: string | null; trackingNumber?: string | null }) {
  return holdsOneCode(entry.pickupCode) && holdsOneCode(entry.trackingNumber);
}

const UNKNOWN_STATION = DEFAULT_STATION.normalize("NFKC").toUpperCase();

/** A station name compared loosely: NFKC, no invisible characters, spaces or punctuation ("" for the default). */
export function normalizeStation(value: string | null | undefined) {
  const station = (value ?? "").normalize("NFKC").replace(INVISIBLE, "").replace(/[^\p{L}\p{N}]/gu, "").toUpperCase();
  return station === UNKNOWN_STATION.replace(/[^\p{L}\p{N}]/gu, "") ? "" : station;
}

/** `short` is `long` with at most one character lost at its end (a screenshot read "西区驿" for "西区驿站"). */
function truncatedOf(short: string, long: string) {
  return short.length >= 3 && long.length - short.length === 1 && long.startsWith(short);
}

/**
 * The campus pickup place a station names: the one whose name it is, give or take what a read
 * loses at the end ("西区驿" → 西区驿站) or a note added after it ("西区驿站(东门)" → 西区驿站);
 * null when it names none or several.
 */
export function matchPlace(value: string | null | undefined, places: readonly string[]): string | null {
  const station = normalizeStation(value);
  if (!station) return null;
  const exact = places.find((place) => normalizeStation(place) === station);
  if (exact) return exact;
  const near = places.filter((place) => {
    const name = normalizeStation(place);
    return name.length >= 3 && (truncatedOf(station, name) || (station.startsWith(name) && station.length - name.length <= 6));
  });
  return near.length === 1 ? near[0]! : null;
}

/** Two station names of one place: equal once normalised, one read short by a character, or the same campus place. */
export function sameStation(a: string | null | undefined, b: string | null | undefined, places: readonly string[] = []) {
  const stationA = normalizeStation(a);
  const stationB = normalizeStation(b);
  if (!stationA || !stationB || stationA === stationB) return true;
  if (truncatedOf(stationA, stationB) || truncatedOf(stationB, stationA)) return true;
  const place = matchPlace(a, places);
  return place !== null && place === matchPlace(b, places);
}

/**
 * The same parcel is the same tracking number, or the same canonical pickup code at the same
 * station — never the carrier, which recognition can get wrong. A station left at the default
 * ('菜鸟驿站取件点': the text named none) matches any station. `places` are the campus's pickup
 * places, to which a station read differently is matched.
 */
export function sameParcel(a: ParcelFields, b: ParcelFields, places: readonly string[] = []) {
  const trackingA = normalizeCredential(a.trackingNumber, "tracking");
  if (trackingA && trackingA === normalizeCredential(b.trackingNumber, "tracking")) return true;
  const codeA = normalizeCredential(a.pickupCode);
  if (!codeA || codeA !== normalizeCredential(b.pickupCode)) return false;
  return sameStation(a.stationName, b.stationName, places);
}

/** The same parcel as another entry of the list (not counting `exceptId`). */
export function isDuplicate(list: PickupEntry[], entry: ParcelFields, exceptId?: string, places: readonly string[] = []) {
  return list.some((other) => other.id !== exceptId && sameParcel(other, entry, places));
}

/**
 * Adds recognised parcels to the list. Text recognition replaces the parcels that earlier text
 * recognition produced (the textarea is their source); edited, manual and screenshot parcels
 * stay. A parcel already in the list is skipped and counted.
 */
export function mergeRecognized(
  list: PickupEntry[],
  found: Omit<PickupEntry, "id" | "source">[],
  source: EntrySource,
  newId: () => string,
  places: readonly string[] = [],
): { entries: PickupEntry[]; added: number; duplicates: number } {
  const kept = source === "text" ? list.filter((entry) => entry.source !== "text") : [...list];
  let added = 0;
  let duplicates = 0;
  for (const parcel of found) {
    if (isDuplicate(kept, parcel, undefined, places)) {
      duplicates += 1;
      continue;
    }
    if (kept.length >= MAX_ENTRIES) break;
    kept.push({ ...parcel, id: newId(), source });
    added += 1;
  }
  return { entries: kept, added, duplicates };
}

/** The credential the courier shows: the code, else the tracking number. */
export function credentialOf(entry: Pick<PickupEntry, "pickupCode" | "trackingNumber">) {
  return entry.pickupCode ?? entry.trackingNumber ?? "";
}
