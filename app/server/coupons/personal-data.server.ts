// Coupons, invites and assists as personal data (docs/architecture.md "Personal data", "One person,
// two identities").
// - Deletion: the person's coupons, grant markers, sheet choice and invite link go; invites they
//   sent and assists they received go; as an invitee or assistant they leave an anonymous trace
//   in the inviter's records (invitee/assistant null: the inviter keeps their count and rewards).
// - Merge: two rows of one person become one; coupons, invites and assists follow. A person
//   holds one new-user grant: when both rows had one, the unused coupons of the second go.
import type { Executor, Trx } from "../db/db.server";
import { NEW_USER_KEY } from "./wallet.server";

export async function deleteCouponData(executor: Executor, userId: number) {
  await executor.deleteFrom("coupon_choices").where("user_id", "=", userId).execute();
  await executor.deleteFrom("user_coupons").where("user_id", "=", userId).execute();
  await executor.deleteFrom("coupon_grants").where("user_id", "=", userId).execute();
  await executor.deleteFrom("invite_links").where("user_id", "=", userId).execute();
  await executor.deleteFrom("invites").where("inviter_user_id", "=", userId).execute();
  await executor.deleteFrom("invites").where("invitee_user_id", "=", userId).where("status", "=", "pending").execute();
  await executor.updateTable("invites").set({ invitee_user_id: null }).where("invitee_user_id", "=", userId).execute();
  await executor.deleteFrom("assists").where("inviter_user_id", "=", userId).execute();
  await executor.updateTable("assists").set({ assistant_user_id: null }).where("assistant_user_id", "=", userId).execute();
}

export async function moveCouponData(trx: Trx, fromId: number, intoId: number) {
  // Grant markers: a key both rows hold stays with `intoId`; the duplicate new-user grant's unused coupons go.
  const fromGrants = await trx.selectFrom("coupon_grants").select(["id", "grant_key"]).where("user_id", "=", fromId).execute();
  for (const grant of fromGrants) {
    const twin = await trx.selectFrom("coupon_grants").select("id").where("user_id", "=", intoId).where("grant_key", "=", grant.grant_key).executeTakeFirst();
    if (!twin) {
      await trx.updateTable("coupon_grants").set({ user_id: intoId }).where("id", "=", grant.id).execute();
      continue;
    }
    if (grant.grant_key === NEW_USER_KEY) {
      await trx.deleteFrom("user_coupons").where("grant_id", "=", grant.id).where("status", "=", "unused").execute();
    }
    await trx.updateTable("user_coupons").set({ grant_id: twin.id }).where("grant_id", "=", grant.id).execute();
    await trx.deleteFrom("coupon_grants").where("id", "=", grant.id).execute();
  }
  await trx.updateTable("user_coupons").set({ user_id: intoId }).where("user_id", "=", fromId).execute();

  // The sheet's choice and the invite link: the target's own win.
  const intoChoice = await trx.selectFrom("coupon_choices").select("user_id").where("user_id", "=", intoId).executeTakeFirst();
  if (intoChoice) await trx.deleteFrom("coupon_choices").where("user_id", "=", fromId).execute();
  else await trx.updateTable("coupon_choices").set({ user_id: intoId }).where("user_id", "=", fromId).execute();
  const intoLink = await trx.selectFrom("invite_links").select("user_id").where("user_id", "=", intoId).executeTakeFirst();
  if (intoLink) await trx.deleteFrom("invite_links").where("user_id", "=", fromId).execute();
  else await trx.updateTable("invite_links").set({ user_id: intoId }).where("user_id", "=", fromId).execute();

  // Invites: a pair both rows hold keeps the target's; an invite between the two rows goes.
  await trx
    .deleteFrom("invites")
    .where((eb) =>
      eb.or([
        eb.and([eb("inviter_user_id", "=", fromId), eb("invitee_user_id", "=", intoId)]),
        eb.and([eb("inviter_user_id", "=", intoId), eb("invitee_user_id", "=", fromId)]),
      ]),
    )
    .execute();
  const asInviter = await trx.selectFrom("invites").select(["id", "invitee_user_id"]).where("inviter_user_id", "=", fromId).execute();
  for (const invite of asInviter) {
    const twin = invite.invitee_user_id === null ? undefined : await trx.selectFrom("invites").select("id").where("inviter_user_id", "=", intoId).where("invitee_user_id", "=", invite.invitee_user_id).executeTakeFirst();
    if (twin) await trx.deleteFrom("invites").where("id", "=", invite.id).execute();
    else await trx.updateTable("invites").set({ inviter_user_id: intoId }).where("id", "=", invite.id).execute();
  }
  const asInvitee = await trx.selectFrom("invites").select(["id", "inviter_user_id"]).where("invitee_user_id", "=", fromId).execute();
  for (const invite of asInvitee) {
    const twin = await trx.selectFrom("invites").select("id").where("inviter_user_id", "=", invite.inviter_user_id).where("invitee_user_id", "=", intoId).executeTakeFirst();
    if (twin) await trx.deleteFrom("invites").where("id", "=", invite.id).execute();
    else await trx.updateTable("invites").set({ invitee_user_id: intoId }).where("id", "=", invite.id).execute();
  }

  // Assists: the inviter side follows; one person assisted once — if both rows had, the second
  // stays with its inviter without a person.
  await trx.updateTable("assists").set({ inviter_user_id: intoId }).where("inviter_user_id", "=", fromId).execute();
  const intoAssisted = await trx.selectFrom("assists").select("id").where("assistant_user_id", "=", intoId).executeTakeFirst();
  await trx
    .updateTable("assists")
    .set({ assistant_user_id: intoAssisted ? null : intoId })
    .where("assistant_user_id", "=", fromId)
    .execute();
}
