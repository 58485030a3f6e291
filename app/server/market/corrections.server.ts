// The recognition correction loop (decision 034). When a student corrects a recognised parcel, or
// types one by hand after recognition found nothing, the original message is kept for operators,
// masked, with what was recognised and what was entered, if the student agreed (asked once).
// Operators read them at /admin/recognition, grouped by sender tag, so rules improve from the
// real campus. Rows are kept 90 days and go with the account.
import { normalizeCredential, normalizeStation, type PickupEntry } from "~/lib/pickup-entries";
import { maskPersonalData, messageOf, senderTag } from "~/lib/recognition-privacy";
import { db, now } from "../db/db.server";

export const CORRECTION_DAYS = 90;
const MAX_LISTED = 500;

type Fields = { pickupCode: string | null; company: string | null; stationName: string | null; trackingNumber?: string | null };

/** The student's answer: true, false, or null when not asked yet. */
export async function consentOf(userId: number): Promise<boolean | null> {
  const row = await db().selectFrom("recognition_consents").select("consent").where("user_id", "=", userId).executeTakeFirst();
  return row ? row.consent === 1 : null;
}

/** Asked once: the first answer is kept. */
export async function recordConsent(userId: number, consent: boolean) {
  await db()
    .insertInto("recognition_consents")
    .values({ user_id: userId, consent: consent ? 1 : 0, decided_at: now() })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
}

function cutoff(at = Date.now()) {
  return new Date(at - CORRECTION_DAYS * 24 * 3600 * 1000).toISOString();
}

/** Rows older than 90 days go (by the created_at index); run with every write and by the admin page. */
export async function expireCorrections() {
  await db().deleteFrom("recognition_corrections").where("created_at", "<", cutoff()).execute();
}

const changed = (a: Fields, b: Fields) =>
  normalizeCredential(a.pickupCode) !== normalizeCredential(b.pickupCode) ||
  (a.company ?? "") !== (b.company ?? "") ||
  normalizeStation(a.stationName) !== normalizeStation(b.stationName);

/**
 * After a parcel was saved: was it a correction of recognition? `before` is the entry as it was
 * (undefined for a parcel added by hand), `entries` the list before the save, `smsText` the paste.
 * Keeps the masked original when the student agreed; answers whether a row was kept.
 */
export async function keepCorrection(
  userId: number,
  input: { before: PickupEntry | undefined; entries: PickupEntry[]; smsText: string; saved: Fields },
): Promise<boolean> {
  const { before, entries, smsText, saved } = input;
  const corrected = before !== undefined && before.source !== "manual" && changed(before, saved);
  // By hand after recognition found nothing in the pasted text.
  const missed = before === undefined && smsText.trim() !== "" && !entries.some((entry) => entry.source === "text");
  if (!corrected && !missed) return false;
  if ((await consentOf(userId)) !== true) return false;
  const original = before?.source === "image" ? "" : messageOf(smsText, before ? (before.pickupCode ?? before.trackingNumber) : saved.pickupCode) ?? "";
  await expireCorrections();
  await db()
    .insertInto("recognition_corrections")
    .values({
      user_id: userId,
      sender_tag: senderTag(original),
      original: maskPersonalData(original),
      recognized: JSON.stringify(before ? { pickupCode: before.pickupCode, company: before.company, stationName: before.stationName, source: before.source } : null),
      entered: JSON.stringify({ pickupCode: saved.pickupCode, company: saved.company, stationName: saved.stationName }),
      created_at: now(),
    })
    .execute();
  return true;
}

export type CorrectionRow = { id: number; original: string; recognized: Fields & { source?: string } | null; entered: Fields; createdAt: string };
export type CorrectionGroup = { senderTag: string; rows: CorrectionRow[] };

/** The kept corrections of the last 90 days, grouped by sender tag (most corrected tag first). */
export async function listCorrections(): Promise<CorrectionGroup[]> {
  await expireCorrections();
  const rows = await db()
    .selectFrom("recognition_corrections")
    .select(["id", "sender_tag", "original", "recognized", "entered", "created_at"])
    .where("created_at", ">=", cutoff())
    .orderBy("sender_tag")
    .orderBy("created_at", "desc")
    .limit(MAX_LISTED)
    .execute();
  const groups = new Map<string, CorrectionRow[]>();
  for (const row of rows) {
    const list = groups.get(row.sender_tag) ?? [];
    list.push({ id: row.id, original: row.original, recognized: JSON.parse(row.recognized), entered: JSON.parse(row.entered), createdAt: row.created_at });
    groups.set(row.sender_tag, list);
  }
  return [...groups.entries()].map(([tag, list]) => ({ senderTag: tag, rows: list })).sort((a, b) => b.rows.length - a.rows.length);
}
