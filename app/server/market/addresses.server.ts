import type { AddressView } from "~/lib/address";
import { db, now, type Trx } from "../db/db.server";
import type { AddressInput } from "~/lib/schemas/address";

export const MAX_ADDRESSES = 20;

/** A user's addresses, the default first, then the newest. */
export async function listAddresses(userId: number): Promise<AddressView[]> {
  const rows = await addressesQuery(userId).execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    phone: row.phone,
    campusCode: row.campus_code,
    campusName: row.campus_name ?? row.campus_code,
    building: row.building,
    room: row.room,
    isDefault: row.is_default === 1,
  }));
}

/** The query of listAddresses (addresses_user_idx; the query-plan test reads it). */
export function addressesQuery(userId: number) {
  return db()
    .selectFrom("addresses")
    .leftJoin("campuses", "campuses.code", "addresses.campus_code")
    .select([
      "addresses.id",
      "addresses.name",
      "addresses.phone",
      "addresses.campus_code",
      "campuses.name as campus_name",
      "addresses.building",
      "addresses.room",
      "addresses.is_default",
    ])
    .where("addresses.user_id", "=", userId)
    .orderBy("addresses.is_default", "desc")
    .orderBy("addresses.id", "desc");
}

export async function findAddress(userId: number, id: number) {
  return (await listAddresses(userId)).find((address) => address.id === id);
}

type SaveResult = { ok: true; id: number } | { ok: false; reason: "not-found" | "limit" };

/**
 * Creates (no id) or updates an address of this user. The first address becomes the default;
 * making one the default clears the others; the default cannot be switched off by editing it
 * (another one has to become the default).
 */
export async function saveAddress(userId: number, input: AddressInput, id?: number): Promise<SaveResult> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const existing = await trx.selectFrom("addresses").select(["id", "is_default"]).where("user_id", "=", userId).execute();
      const timestamp = now();
      const values = {
        name: input.name,
        phone: input.phone,
        campus_code: input.campus,
        building: input.building,
        room: input.room,
        updated_at: timestamp,
      };
      let targetId: number;
      let makeDefault = input.isDefault;
      if (id === undefined) {
        if (existing.length >= MAX_ADDRESSES) return { ok: false, reason: "limit" } as const;
        if (existing.length === 0) makeDefault = true;
        const row = await trx
          .insertInto("addresses")
          .values({ ...values, user_id: userId, is_default: 0, created_at: timestamp })
          .returning("id")
          .executeTakeFirstOrThrow();
        targetId = row.id;
      } else {
        const current = existing.find((row) => row.id === id);
        if (!current) return { ok: false, reason: "not-found" } as const;
        if (current.is_default === 1) makeDefault = true;
        await trx.updateTable("addresses").set(values).where("id", "=", id).where("user_id", "=", userId).execute();
        targetId = id;
      }
      if (makeDefault) await markDefault(trx, userId, targetId);
      return { ok: true, id: targetId } as const;
    });
}


async function markDefault(trx: Trx, userId: number, id: number) {
  await trx.updateTable("addresses").set({ is_default: 0 }).where("user_id", "=", userId).where("id", "!=", id).execute();
  await trx.updateTable("addresses").set({ is_default: 1 }).where("user_id", "=", userId).where("id", "=", id).execute();
}

export async function setDefaultAddress(userId: number, id: number) {
  return db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx.selectFrom("addresses").select("id").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
      if (!row) return false;
      await markDefault(trx, userId, id);
      return true;
    });
}

/** Deletes one address; when it was the default, the newest remaining one becomes the default. */
export async function deleteAddress(userId: number, id: number) {
  return db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .selectFrom("addresses")
        .select(["id", "is_default"])
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (!row) return false;
      await trx.updateTable("checkouts").set({ address_id: null }).where("user_id", "=", userId).where("address_id", "=", id).execute();
      await trx.deleteFrom("addresses").where("id", "=", id).execute();
      if (row.is_default === 1) {
        const next = await trx.selectFrom("addresses").select("id").where("user_id", "=", userId).orderBy("id", "desc").executeTakeFirst();
        if (next) await markDefault(trx, userId, next.id);
      }
      return true;
    });
}
