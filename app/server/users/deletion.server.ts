import { checkpointWal, db, now, type Executor } from "../db/db.server";
import { registerJob, runTrackedJob, unregisterJob } from "../jobs.server";
import { log } from "../log.server";
import { accountKey, accountThrottlePrefix, sweepLoginThrottles } from "../auth/rate-limit.server";
import { sweepCaptchaNonces } from "../auth/captcha.server";
import { endUserSessions } from "../auth/session.server";
import { deleteCouponData } from "../coupons/personal-data.server";
import { keepPromotionMarks } from "../coupons/promotion-identity.server";
import { deleteForumData } from "../forum/posts.server";
import { deleteGradesData } from "../grades/grades.server";
import { deleteTimetableEdits } from "../schedule/edits.server";
import { deleteNotifyData } from "../notify/personal-data.server";
import { anonymiseOrders } from "../orders/personal-data.server";
import { ordersHoldingMoney, settleOrdersForDeletion } from "../orders/account-orders.server";
import { anonymiseAudit } from "../admin/personal-data.server";
import { deleteRateLimitCounts } from "../rate-limits.server";
import { uploadKeyFromUrl } from "../storage/images.server";
import { removeAvatarFiles } from "./profile.server";
import { removeDeliveryPhoto } from "../storage/delivery-photos.server";


/**
 * Marks the account for deletion and ends its sessions at once; the job does the rest. Its open
 * orders are settled first (decision 030): unpaid ones cancelled, paid ones that may still be
 * cancelled refunded; the ones being picked up or delivered are answered as `waiting` — the job
 * deletes the account once they are delivered (or refunded).
 */
export async function requestAccountDeletion(userId: number) {
  const orders = await settleOrdersForDeletion(userId);
  await db().updateTable("users").set({ deletion_requested_at: now(), updated_at: now() }).where("id", "=", userId).execute();
  await endUserSessions(userId, "deleted");
  return orders;
}

/**
 * Physically deletes one person's data. Every capability that stores personal data adds its
 * tables here (and to the deletion test): posts, comments, likes, addresses, coupons, reminders;
 * orders keep only an anonymised accounting row.
 */
export async function deleteUserData(executor: Executor, userId: number) {
  const user = await executor.selectFrom("users").select(["school_code", "student_id"]).where("id", "=", userId).executeTakeFirst();
  if (!user) return;
  if (user.school_code && user.student_id) {
    // Login throttles (decision 015) of the student account and of the deletion check.
    await executor.deleteFrom("login_throttles").where("key", "like", `${accountThrottlePrefix("student", accountKey(user.school_code, user.student_id))}%`).execute();
  }
  await executor.deleteFrom("login_throttles").where("key", "like", `${accountThrottlePrefix("delete", String(userId))}%`).execute();
  await executor.deleteFrom("academic_sessions").where("user_id", "=", userId).execute();
  // The market: the checkout, saved addresses and feature-request taps.
  await executor.deleteFrom("checkouts").where("user_id", "=", userId).execute();
  await executor.deleteFrom("addresses").where("user_id", "=", userId).execute();
  await executor.deleteFrom("feature_requests").where("user_id", "=", userId).execute();
  // Recognition corrections (decision 034): the kept, masked messages and the consent answer.
  await executor.deleteFrom("recognition_corrections").where("user_id", "=", userId).execute();
  await executor.deleteFrom("recognition_consents").where("user_id", "=", userId).execute();
  // Admin: operators' reasons about this person's orders in the audit log (before
  // the orders lose their user).
  await anonymiseAudit(executor, userId);
  // Orders: kept only as anonymised accounting rows (number, amounts, status, times).
  await anonymiseOrders(executor, userId);
  // Promotions once per person: the keyed hashes of the person's identities keep what
  // they received (new-user grant, an assist given). Not personal data; /about says they stay.
  await keepPromotionMarks(executor, userId);
  // Coupons and invites: coupons, grant markers, the invite link, invites and assists.
  await deleteCouponData(executor, userId);
  // The timetable: cached timetables, reminder switches and the calendar-feed token.
  await executor.deleteFrom("timetable_cache").where("user_id", "=", userId).execute();
  await executor.deleteFrom("schedule_settings").where("user_id", "=", userId).execute();
  // The student's own courses and overrides (decision 040).
  await deleteTimetableEdits(executor, userId);
  // Grades and exams: the sealed grades, the exam arrangements, the new-grade switch.
  await deleteGradesData(executor, userId);
  // Notifications: inbox, subscribe consents and snoozes, reminders, outbox messages.
  await deleteNotifyData(executor, userId);
  // The circle: posts (with everything on them), comments, likes, views, reports, bans, images.
  await deleteForumData(executor, userId);
  await executor.deleteFrom("sessions").where("user_id", "=", userId).execute();
  // Rate limits: the person's counters in the shared store (PostgreSQL only).
  await deleteRateLimitCounts(executor, userId);
  await executor.deleteFrom("users").where("id", "=", userId).execute();
}

/** The deletion job: every account whose deletion was requested is removed now. */
export async function runAccountDeletionJob() {
  const requested = await db().selectFrom("users").select("id").where("deletion_requested_at", "is not", null).execute();
  const due: typeof requested = [];
  // An order still holding money keeps its recipient until it is delivered or refunded (I1).
  for (const user of requested) if (!(await ordersHoldingMoney(user.id))) due.push(user);
  for (const { id } of due) {
    const { avatar_url: avatar } = (await db().selectFrom("users").select("avatar_url").where("id", "=", id).executeTakeFirst()) ?? {};
    const photos = await db().selectFrom("orders").select("delivery_photo").where("user_id", "=", id).where("delivery_photo", "is not", null).execute();
    await db().transaction().execute((trx) => deleteUserData(trx, id));
    for (const { delivery_photo: photo } of photos) if (photo) await removeDeliveryPhoto(photo);
    // The avatar's files go once the row that pointed at them is gone.
    const avatarKey = avatar ? uploadKeyFromUrl(avatar) : null;
    if (avatarKey) await removeAvatarFiles(avatarKey);
  }
  // Login throttles (hashed accounts and addresses) and spent captcha nonces are kept only while they matter.
  await sweepLoginThrottles();
  await sweepCaptchaNonces();
  if (due.length > 0) {
    // The deleted rows' old page versions leave the -wal file too (secure_delete zeroes the rest).
    const checkpointed = await checkpointWal();
    log("info", "accounts-deleted", { count: due.length, checkpointed });
  }
  return due.length;
}

let timer: NodeJS.Timeout | undefined;

/** Runs the job every 10 minutes: well inside the 24 hours the about page promises. */
export function scheduleAccountDeletion(intervalMs = 10 * 60 * 1000) {
  if (timer) return;
  // The start-up run counts as the first heartbeat (startup.server.ts runs the job before this).
  registerJob("account-deletion", intervalMs);
  timer = setInterval(() => void runTrackedJob("account-deletion", runAccountDeletionJob), intervalMs);
  timer.unref();
}

export function stopAccountDeletion() {
  unregisterJob("account-deletion");
  if (timer) clearInterval(timer);
  timer = undefined;
}
