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

function key(entry: { company?: string | null; trackingNumber?: string | null; pickupCode?: string | null }) {
  const part = (value: string | null | undefined) => (value ?? "").trim().toUpperCase();
  return `${part(entry.pickupCode)}|${part(entry.trackingNumber)}|${part(entry.company)}`;
}

/** Same code, tracking number and company as another entry of the list (not counting `exceptId`). */
export function isDuplicate(list: PickupEntry[], entry: Parameters<typeof key>[0], exceptId?: string) {
  const wanted = key(entry);
  return list.some((other) => other.id !== exceptId && key(other) === wanted);
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
