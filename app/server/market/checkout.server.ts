import crypto from "node:crypto";
import { PACKAGE_TYPE_KEYS } from "~/lib/catalog";
import { defaultCounts, reconcileCounts, type PackageCounts, type PricedType } from "~/lib/package-counts";
import { MAX_ENTRIES, sameParcel, type PickupEntry } from "~/lib/pickup-entries";
import { db, dialect, now, type Executor } from "../db/db.server";

// The checkout: one row per user holding what the market page and its confirm sheet show
// (campus, SMS text, parcels, package counts, address, remark). Every change raises `version`
// under an optimistic check, so two tabs cannot overwrite each other silently; id + version is
// the idempotency key of order creation (the orders issue).

export type Checkout = {
  id: number;
  version: number;
  campusCode: string | null;
  smsText: string;
  entries: PickupEntry[];
  counts: PackageCounts;
  addressId: number | null;
  remark: string;
  updatedAt: string;
};

export type CheckoutChange = Partial<Pick<Checkout, "smsText" | "entries" | "counts" | "addressId" | "remark" | "campusCode">>;

export function newEntryId() {
  return crypto.randomBytes(6).toString("base64url");
}

function parseEntries(text: string): PickupEntry[] {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value
      .filter((item): item is PickupEntry => Boolean(item && typeof item === "object" && typeof (item as PickupEntry).id === "string"))
      .slice(0, MAX_ENTRIES);
  } catch {
    return [];
  }
}

function parseCounts(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

type Row = {
  id: number;
  version: number;
  campus_code: string | null;
  sms_text: string;
  entries: string;
  counts: string;
  address_id: number | null;
  remark: string;
  updated_at: string;
};

function fromRow(row: Row, types: PricedType[]): Checkout {
  const entries = parseEntries(row.entries);
  return {
    id: row.id,
    version: row.version,
    campusCode: row.campus_code,
    smsText: row.sms_text,
    entries,
    counts: reconcileCounts(parseCounts(row.counts), types, entries.length),
    addressId: row.address_id,
    remark: row.remark,
    updatedAt: row.updated_at,
  };
}

const COLUMNS = ["id", "version", "campus_code", "sms_text", "entries", "counts", "address_id", "remark", "updated_at"] as const;

async function readRow(userId: number): Promise<Row> {
  const existing = await db().selectFrom("checkouts").select(COLUMNS).where("user_id", "=", userId).executeTakeFirst();
  if (existing) return existing;
  const timestamp = now();
  await db()
    .insertInto("checkouts")
    .values({ user_id: userId, created_at: timestamp, updated_at: timestamp })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  return db().selectFrom("checkouts").select(COLUMNS).where("user_id", "=", userId).executeTakeFirstOrThrow();
}

/** The user's checkout (made on first use), its counts fitted to the campus's package types. */
export async function loadCheckout(userId: number, types: PricedType[]): Promise<Checkout> {
  return fromRow(await readRow(userId), types);
}

export class CheckoutConflictError extends Error {
  constructor() {
    super("checkout changed concurrently");
  }
}

/**
 * Applies a change computed from the current checkout. `change` returns the fields to write (or
 * null for no change). When the number of parcels changes, the counts go back to the default
 * (every parcel on the cheapest type) unless the change sets them. Retries on a concurrent write.
 */
export async function updateCheckout<T>(
  userId: number,
  types: PricedType[],
  change: (current: Checkout) => { set: CheckoutChange | null; result: T },
  options: { expectedVersion?: number } = {},
): Promise<{ checkout: Checkout; result: T }> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const row = await readRow(userId);
    const current = fromRow(row, types);
    if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) throw new CheckoutConflictError();
    const { set, result } = change(current);
    if (!set) return { checkout: current, result };
    const entries = set.entries ?? current.entries;
    let counts = set.counts ?? current.counts;
    if (!set.counts && entries.length !== current.entries.length) counts = defaultCounts(types, entries.length);
    const updated = await db()
      .updateTable("checkouts")
      .set({
        campus_code: set.campusCode !== undefined ? set.campusCode : current.campusCode,
        sms_text: set.smsText ?? current.smsText,
        entries: JSON.stringify(entries),
        counts: JSON.stringify(Object.fromEntries(PACKAGE_TYPE_KEYS.map((key) => [key, counts[key]]))),
        address_id: set.addressId !== undefined ? set.addressId : current.addressId,
        remark: set.remark ?? current.remark,
        version: current.version + 1,
        updated_at: now(),
      })
      .where("id", "=", current.id)
      .where("version", "=", current.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) {
      return { checkout: fromRow(await readRow(userId), types), result };
    }
  }
  throw new CheckoutConflictError();
}

/** The key the orders issue uses to create an order from this checkout at most once. */
export function checkoutKey(checkout: Pick<Checkout, "id" | "version">) {
  return `${checkout.id}:${checkout.version}`;
}

/**
 * PostgreSQL: holds the user's checkout row until the transaction ends, so two order creations
 * of one user check and take their parcels one after the other (SQLite runs one writer at a time).
 */
export async function lockCheckout(executor: Executor, userId: number) {
  if (dialect() !== "postgres") return;
  await executor.selectFrom("checkouts").select("id").where("user_id", "=", userId).forUpdate().execute();
}

/**
 * An order was created with `ordered` (in the caller's transaction): those parcels leave the
 * checkout list, the counts go back to the default, and the version moves on (its id + version,
 * the idempotency key, is spent: the next order needs the next version).
 */
export async function takeParcelsOut(
  executor: Executor,
  userId: number,
  ordered: { pickupCode: string | null; trackingNumber: string | null; stationName: string }[],
  types: PricedType[],
) {
  const row = await executor.selectFrom("checkouts").select(COLUMNS).where("user_id", "=", userId).executeTakeFirst();
  if (!row) return;
  const entries = parseEntries(row.entries);
  const left = entries.filter((entry) => !ordered.some((parcel) => sameParcel(entry, parcel)));
  const counts = left.length === entries.length ? reconcileCounts(parseCounts(row.counts), types, left.length) : defaultCounts(types, left.length);
  await executor
    .updateTable("checkouts")
    .set({
      entries: JSON.stringify(left),
      counts: JSON.stringify(Object.fromEntries(PACKAGE_TYPE_KEYS.map((key) => [key, counts[key]]))),
      // The text the parcels were read from would bring them back at the next recognition.
      sms_text: left.some((entry) => entry.source === "text") ? row.sms_text : "",
      // The remark went with the order when nothing is left to order.
      remark: left.length > 0 ? row.remark : "",
      version: row.version + 1,
      updated_at: now(),
    })
    .where("id", "=", row.id)
    .execute();
}
