// The edits of a user's checkout that the market's routes make (each route holds its
// intents and calls these; they answer domain results and throw CheckoutConflictError, never a
// Response). Every edit goes through updateCheckout (a new version, counts kept adding up).
import { stepCount, type PricedType, type StepResult } from "~/lib/package-counts";
import { DEFAULT_COMPANY, DEFAULT_STATION, canSave, entryHoldsOneCode, isDuplicate, mergeRecognized, type PickupEntry } from "~/lib/pickup-entries";
import type { PackageTypeKey } from "~/lib/catalog";
import { findAddress } from "./addresses.server";
import { newEntryId, updateCheckout } from "./checkout.server";
import { recognizeText } from "./recognition.server";

const TRACKING_LIKE = /^[A-Za-z]{0,4}\d{10,20}[A-Za-z]{0,2}$/;

export type Recognized = Omit<PickupEntry, "id" | "source">[];
export type MergeAnswer = { found: number; duplicates: number };

/** The SMS text: recognised into the list (its parcels replace the text's earlier ones). */
export async function recognizeSms(userId: number, types: PricedType[], text: string, places: readonly string[] = []): Promise<MergeAnswer> {
  const found = recognizeText(text);
  const { result } = await updateCheckout(userId, types, (current) => {
    const merged = mergeRecognized(current.entries, found, "text", newEntryId, places);
    return { set: { smsText: text, entries: merged.entries }, result: merged };
  });
  return { found: found.length, duplicates: result.duplicates };
}

/** The text was emptied: the text's parcels go; answers how many (by hand, from screenshots) stay. */
export async function clearSms(userId: number, types: PricedType[]): Promise<number> {
  const { result } = await updateCheckout(userId, types, (current) => {
    const left = current.entries.filter((entry) => entry.source !== "text");
    return { set: { smsText: "", entries: left }, result: left.length };
  });
  return result;
}

/** Parcels read from screenshots join the list (duplicates are not added twice). */
export async function addRecognized(userId: number, types: PricedType[], found: Recognized, places: readonly string[] = []): Promise<MergeAnswer> {
  const { result } = await updateCheckout(userId, types, (current) => {
    const merged = mergeRecognized(current.entries, found, "image", newEntryId, places);
    return { set: merged.added > 0 ? { entries: merged.entries } : null, result: merged };
  });
  return { found: found.length, duplicates: result.duplicates };
}

export type EntryInput = { entryId?: string; credential: string | null; station: string | null; company: string | null };

/**
 * Why a parcel was not saved: the edited one is gone (`not_found`), it meets none of the save
 * rule's pairs (`save_rule`), it holds several codes (`one_code`), or the list has it already.
 */
export type EntryRefusal = "not_found" | "save_rule" | "one_code" | "duplicate";

/** Adds a parcel by hand or edits one; answers the rule it breaks (null: saved). */
export async function saveEntry(userId: number, types: PricedType[], value: EntryInput, places: readonly string[] = []): Promise<EntryRefusal | null> {
  const { result } = await updateCheckout<EntryRefusal | null>(userId, types, (current) => {
    const existing = value.entryId ? current.entries.find((entry) => entry.id === value.entryId) : undefined;
    if (value.entryId && !existing) return { set: null, result: "not_found" };
    const credential = value.credential;
    const asTracking = Boolean(credential && TRACKING_LIKE.test(credential) && !existing?.pickupCode);
    const next = {
      company: value.company ?? (existing ? existing.company : null),
      pickupCode: asTracking ? (existing?.pickupCode ?? null) : credential,
      trackingNumber: asTracking ? credential : (existing?.trackingNumber ?? null),
      stationName: value.station,
    };
    if (!canSave(next)) return { set: null, result: "save_rule" };
    if (!entryHoldsOneCode(next)) return { set: null, result: "one_code" };
    if (isDuplicate(current.entries, next, existing?.id, places)) return { set: null, result: "duplicate" };
    const saved: PickupEntry = {
      id: existing?.id ?? newEntryId(),
      company: next.company ?? DEFAULT_COMPANY,
      pickupCode: next.pickupCode,
      trackingNumber: next.trackingNumber,
      stationName: next.stationName ?? DEFAULT_STATION,
      pickupType: next.pickupCode ? "code" : "tracking",
      source: "manual",
      // The station's deadline stays with the parcel; a read to check is checked once the student saved it.
      deadline: existing?.deadline ?? null,
      ...(existing?.phoneTail ? { phoneTail: existing.phoneTail } : {}),
      check: null,
    };
    const entries = existing ? current.entries.map((entry) => (entry.id === existing.id ? saved : entry)) : [...current.entries, saved];
    return { set: { entries }, result: null };
  });
  return result;
}

export async function deleteEntry(userId: number, types: PricedType[], entryId: string) {
  await updateCheckout(userId, types, (current) => ({
    set: { entries: current.entries.filter((entry) => entry.id !== entryId) },
    result: null,
  }));
}

/** One tap of a package-count stepper (the counts always add up to the parcels). */
export async function stepPackage(userId: number, types: PricedType[], type: PackageTypeKey, direction: "increase" | "decrease"): Promise<StepResult> {
  const { result } = await updateCheckout(userId, types, (current) => {
    const step = stepCount(current.counts, types, type, direction, current.entries.length);
    return { set: step.ok ? { counts: step.counts } : null, result: step };
  });
  return result;
}

export async function setRemark(userId: number, types: PricedType[], remark: string) {
  await updateCheckout(userId, types, () => ({ set: { remark }, result: null }));
}

/** Chooses the order's address: only one of the user's own, on the order's service campus. */
export async function chooseAddress(userId: number, types: PricedType[], addressId: number, campusCode: string): Promise<"ok" | "not-found" | "other-campus"> {
  const address = await findAddress(userId, addressId);
  if (!address) return "not-found";
  if (address.campusCode !== campusCode) return "other-campus";
  await updateCheckout(userId, types, () => ({ set: { addressId: address.id }, result: null }));
  return "ok";
}
