// The recognised parcel list of the market page: defaults, the spec's field aliases, the save
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
};

/** A parsed parcel as the spec's endpoints answer it: the defaults where the text says nothing. */
export function withDefaults(parsed: ParsedPickup) {
  return {
    company: parsed.company ?? DEFAULT_COMPANY,
    trackingNumber: parsed.trackingNumber,
    pickupCode: parsed.pickupCode,
    stationName: parsed.stationName ?? DEFAULT_STATION,
    pickupType: parsed.pickupType,
  };
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
  return {
    company: company ?? DEFAULT_COMPANY,
    trackingNumber,
    pickupCode,
    stationName: stationName ?? DEFAULT_STATION,
    pickupType: pickupCode ? "code" : "tracking",
  };
}

/** The spec's save rule: (tracking number + place) or (code + company) or (place + code). */
export function canSave(entry: { company?: string | null; trackingNumber?: string | null; pickupCode?: string | null; stationName?: string | null }) {
  const has = (value: string | null | undefined) => Boolean(value && value.trim());
  return (
    (has(entry.trackingNumber) && has(entry.stationName)) ||
    (has(entry.pickupCode) && has(entry.company)) ||
    (has(entry.stationName) && has(entry.pickupCode))
  );
}

type ParcelFields = { trackingNumber?: string | null; pickupCode?: string | null; stationName?: string | null };

/** A code or tracking number as the courier reads it: full-width forms folded, dashes unified, no spaces, upper case. */
export function normalizeCredential(value: string | null | undefined) {
  return (value ?? "")
    .normalize("NFKC")
    .replace(/[\u2010-\u2015\u2212\uFE58\uFE63]/g, "-")
    .replace(/\s+/g, "")
    .toUpperCase();
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

/** A station name compared loosely: full-width brackets and spaces do not make another place. */
export function normalizeStation(value: string | null | undefined) {
  const station = (value ?? "").normalize("NFKC").replace(/\s+/g, "").toUpperCase();
  return station === UNKNOWN_STATION ? "" : station;
}

/**
 * ARCHITECTURE "Parcels": the same parcel is the same tracking number, or the same normalised
 * pickup code at the same station — never the carrier, which recognition can get wrong. A
 * station left at the default ('菜鸟驿站取件点': the text named none) matches any station.
 */
export function sameParcel(a: ParcelFields, b: ParcelFields) {
  const trackingA = normalizeCredential(a.trackingNumber);
  if (trackingA && trackingA === normalizeCredential(b.trackingNumber)) return true;
  const codeA = normalizeCredential(a.pickupCode);
  if (!codeA || codeA !== normalizeCredential(b.pickupCode)) return false;
  const stationA = normalizeStation(a.stationName);
  const stationB = normalizeStation(b.stationName);
  return !stationA || !stationB || stationA === stationB;
}

/** The same parcel as another entry of the list (not counting `exceptId`). */
export function isDuplicate(list: PickupEntry[], entry: ParcelFields, exceptId?: string) {
  return list.some((other) => other.id !== exceptId && sameParcel(other, entry));
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
): { entries: PickupEntry[]; added: number; duplicates: number } {
  const kept = source === "text" ? list.filter((entry) => entry.source !== "text") : [...list];
  let added = 0;
  let duplicates = 0;
  for (const parcel of found) {
    if (isDuplicate(kept, parcel)) {
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
