// Field accuracy of recognised parcels: entry i of what was read against entry i of what was
// expected, four fields each. A missing entry misses its four fields; an extra entry (something
// read that is not there) counts four wrong fields too, so a false positive costs as much as a miss.
import { DEFAULT_COMPANY, DEFAULT_STATION } from "~/lib/pickup-entries";

export const FIELDS = ["pickupCode", "company", "stationName", "trackingNumber"] as const;
export type Field = (typeof FIELDS)[number];
export type Fields = Partial<Record<Field, string | null>>;

/** NFKC, dashes folded to "-" without spaces around, the endpoint's defaults as null (fixtures/README). */
export function normalise(field: Field, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value
    .normalize("NFKC")
    .replace(/\s*[‐‑‒–—―−－]\s*/g, "-")
    .trim();
  if (!text) return null;
  if (field === "company" && text === DEFAULT_COMPANY) return null;
  if (field === "stationName" && text === DEFAULT_STATION) return null;
  return text;
}

export type Mismatch = { entry: number; field: Field; expected: string | null; actual: string | null };

export function scoreFields(expected: Fields[], actual: Fields[]) {
  const mismatches: Mismatch[] = [];
  let total = 0;
  const entries = Math.max(expected.length, actual.length);
  for (let entry = 0; entry < entries; entry += 1) {
    for (const field of FIELDS) {
      total += 1;
      const want = normalise(field, expected[entry]?.[field]);
      const got = normalise(field, actual[entry]?.[field]);
      if (entry >= expected.length || entry >= actual.length || want !== got) mismatches.push({ entry, field, expected: want, actual: got });
    }
  }
  return { total, correct: total - mismatches.length, mismatches };
}
