import type { Trx } from "../db/db.server";

/**
 * Two user rows became one person (auth/messenger.server.ts mergeUserRows): the market's rows
 * of `fromId` move to `intoId`. Addresses move (keeping one default: the target's if it has one);
 * of two checkouts the one changed last survives; feature requests follow.
 */
export async function moveMarketData(trx: Trx, fromId: number, intoId: number) {
  const intoDefault = await trx
    .selectFrom("addresses")
    .select("id")
    .where("user_id", "=", intoId)
    .where("is_default", "=", 1)
    .executeTakeFirst();
  if (intoDefault) await trx.updateTable("addresses").set({ is_default: 0 }).where("user_id", "=", fromId).execute();
  await trx.updateTable("addresses").set({ user_id: intoId }).where("user_id", "=", fromId).execute();

  const [from, into] = await Promise.all([
    trx.selectFrom("checkouts").select(["id", "updated_at"]).where("user_id", "=", fromId).executeTakeFirst(),
    trx.selectFrom("checkouts").select(["id", "updated_at"]).where("user_id", "=", intoId).executeTakeFirst(),
  ]);
  if (from && into) {
    const loser = from.updated_at > into.updated_at ? into : from;
    await trx.deleteFrom("checkouts").where("id", "=", loser.id).execute();
    if (loser === into) await trx.updateTable("checkouts").set({ user_id: intoId }).where("id", "=", from.id).execute();
  } else if (from) {
    await trx.updateTable("checkouts").set({ user_id: intoId }).where("id", "=", from.id).execute();
  }
  await trx.updateTable("feature_requests").set({ user_id: intoId }).where("user_id", "=", fromId).execute();
}
