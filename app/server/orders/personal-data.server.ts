// Orders and personal data. Account deletion keeps an order only as an anonymised accounting
// row: the number, campus, counts, amounts, statuses and times stay; the person (user, name,
// phone, dorm, room, address text, pickup codes, remark, reasons, payer openid, review comment,
// delivery photo)
// goes. Two user rows of one person merging: the orders and reviews follow the person.
import type { Executor, Trx } from "../db/db.server";

/** What account deletion writes over an order's personal columns (the accounting ones stay). */
export const ANONYMISED_ORDER = {
  user_id: null,
  recipient_name: null,
  recipient_phone: null,
  recipient_dorm: null,
  recipient_room: null,
  delivery_address: null,
  pickup_codes: null,
  remark: null,
  cancel_reason: null,
  refund_reason: null,
  checkout_key: null,
  idempotency_key: null,
  // The delivery photo shows the person's door: its file goes after the commit (runAccountDeletionJob).
  delivery_photo: null,
} as const;

export async function anonymiseOrders(executor: Executor, userId: number) {
  const own = executor.selectFrom("orders").select("id").where("user_id", "=", userId);
  await executor.updateTable("payments").set({ payer_openid: null }).where("order_id", "in", own).execute();
  await executor.updateTable("refunds").set({ reason: null }).where("order_id", "in", own).execute();
  await executor.updateTable("order_events").set({ note: null }).where("order_id", "in", own).execute();
  await executor.updateTable("reviews").set({ user_id: null, comment: null }).where("order_id", "in", own).execute();
  await executor.updateTable("reviews").set({ user_id: null, comment: null }).where("user_id", "=", userId).execute();
  await executor.updateTable("orders").set(ANONYMISED_ORDER).where("user_id", "=", userId).execute();
}

export async function moveOrderRows(trx: Trx, fromId: number, intoId: number) {
  await trx.updateTable("orders").set({ user_id: intoId }).where("user_id", "=", fromId).execute();
  await trx.updateTable("reviews").set({ user_id: intoId }).where("user_id", "=", fromId).execute();
}
