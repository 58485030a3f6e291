// Notifications' part of "Personal data" (docs/architecture.md): what the account-deletion job removes,
// and what moves when two user rows of one person are merged.
import type { Executor, Trx } from "../db/db.server";


/**
 * The user's inbox, consents, snoozes, reminders and every outbox message for or about them
 * (a NEW_ORDER to an operator carries their dorm and room), and the inbox items their replies
 * and likes caused in other people's inboxes.
 */
export async function deleteNotifyData(executor: Executor, userId: number) {
  await executor.deleteFrom("inbox_items").where("user_id", "=", userId).execute();
  await executor.deleteFrom("inbox_items").where("actor_user_id", "=", userId).execute();
  await executor.deleteFrom("subscribe_consents").where("user_id", "=", userId).execute();
  await executor.deleteFrom("subscribe_snoozes").where("user_id", "=", userId).execute();
  await executor.deleteFrom("course_reminders").where("user_id", "=", userId).execute();
  await executor.deleteFrom("outbox_messages").where("user_id", "=", userId).execute();
}

/**
 * Row `fromId` (a messenger identity without a student account) is merging into `intoId`: the
 * inbox and the messages follow the person; consents and snoozes move unless the target has its
 * own for that template (the target's are kept); reminders belong to the timetable of the target.
 */
export async function mergeNotifyRows(fromId: number, intoId: number, trx: Trx) {
  await trx.updateTable("inbox_items").set({ user_id: intoId }).where("user_id", "=", fromId).execute();
  await trx.updateTable("inbox_items").set({ actor_user_id: intoId }).where("actor_user_id", "=", fromId).execute();
  await trx.updateTable("outbox_messages").set({ user_id: intoId }).where("user_id", "=", fromId).execute();
  for (const table of ["subscribe_consents", "subscribe_snoozes"] as const) {
    const taken = await trx.selectFrom(table).select("template_key").where("user_id", "=", intoId).execute();
    let move = trx.updateTable(table).set({ user_id: intoId }).where("user_id", "=", fromId);
    if (taken.length > 0) move = move.where("template_key", "not in", taken.map((row) => row.template_key));
    await move.execute();
    await trx.deleteFrom(table).where("user_id", "=", fromId).execute();
  }
  await trx.deleteFrom("course_reminders").where("user_id", "=", fromId).execute();
}
