// Notifications' part of "one person, two identities" on SQLite and PostgreSQL: when an openid-only
// row merges into the student's row, its inbox, messages, consents and snoozes follow the person.
import { describe, expect, it } from "vitest";
import { mergeUserRows } from "~/server/auth/messenger.server";
import { db } from "~/server/db/db.server";
import { createMessengerUser, createStudent } from "../../../tests/setup/helpers";
import { unreadCount } from "./inbox.server";
import { notify } from "./notify.server";

const stamp = () => new Date().toISOString();

async function consent(userId: number, key: string, reserved: string) {
  const at = stamp();
  await db().insertInto("subscribe_consents").values({ user_id: userId, template_key: key, confirmed_at: at, expires_at: new Date(Date.now() + 86_400_000).toISOString(), used_at: null, outbox_id: null, reserved, updated_at: at }).execute();
}

describe("merging two rows of one person", () => {
  it("moves the inbox, the messages, and the consents and snoozes the student row has none of", async () => {
    const phone = await createMessengerUser();
    const student = await createStudent();
    const friend = await createStudent();

    await notify({ kind: "order_status", recipientUserId: phone.id, data: { status: "paid", orderNumber: "E20260302555001", amountFen: 300, parcelCount: 1, campusName: "瑶湖校区", dorm: "西苑1栋", room: "101" } });
    await notify({ kind: "post_liked", recipientUserId: friend.id, data: { postId: 3, actorUserId: phone.id, actorName: "小西瓜", excerpt: "帖子" } });
    await consent(phone.id, "ORDER_STATUS", "phone-order-status");
    await consent(phone.id, "EXPRESS_DELIVERY", "phone-express");
    await consent(student.id, "EXPRESS_DELIVERY", "student-express");
    const until = stamp();
    await db().insertInto("subscribe_snoozes").values([{ user_id: phone.id, template_key: "ORDER_STATUS", until }, { user_id: student.id, template_key: "ORDER_STATUS", until: "2099-01-01T00:00:00.000Z" }]).execute();

    await db().transaction().execute((trx) => mergeUserRows(phone.id, student.id, trx));

    expect(await unreadCount(student.id)).toBe(1);
    expect(await db().selectFrom("outbox_messages").select("user_id").where("user_id", "in", [phone.id, student.id]).execute()).toEqual([{ user_id: student.id }]);
    expect(await db().selectFrom("inbox_items").select("actor_user_id").where("user_id", "=", friend.id).execute()).toEqual([{ actor_user_id: student.id }]);
    const consents = await db().selectFrom("subscribe_consents").select(["user_id", "template_key", "reserved"]).where("user_id", "in", [phone.id, student.id]).orderBy("template_key").execute();
    expect(consents).toEqual([
      { user_id: student.id, template_key: "EXPRESS_DELIVERY", reserved: "student-express" },
      { user_id: student.id, template_key: "ORDER_STATUS", reserved: "phone-order-status" },
    ]);
    expect(await db().selectFrom("subscribe_snoozes").selectAll().where("user_id", "in", [phone.id, student.id]).execute()).toEqual([
      { user_id: student.id, template_key: "ORDER_STATUS", until: "2099-01-01T00:00:00.000Z" },
    ]);
    expect(await db().selectFrom("users").select("id").where("id", "=", phone.id).executeTakeFirst()).toBeUndefined();
  });
});
