// The money invariants (decision 030), stated once over the database. The rules themselves are
// pure (app/lib/order-ledger.ts: splitMoney, moneyViolations); this module reads the rows they
// apply to and adds what needs more than one order or another table:
//
// I1  Every fen received is held for a live order, refunded, or earned by a delivered one —
//     per order (moneyViolations) and per day (dailyLedger: payments = refunded + earned + held
//     over the orders paid that day); the payments rows agree with the orders.
// I3  One parcel identity is in at most one live order of a person, an entry holds one code,
//     the counts equal the parcels.
// I4  Only the state table moves money: a deleted order holds none (moneyViolations).
// I6  What the student and the operator see come from the same rows: the payment-status answer
//     is "paid" only while payment_status is paid; the day's summary adds up.
//
// The generated sequences (money-properties.db.test.ts) call `moneyInvariantViolations` after
// every step; `dailyLedger` is the domain function the operators' reconciliation reads.
import { storedCounts } from "~/lib/package-counts";
import { sql } from "kysely";
import { isLive, splitMoney, moneyViolations, type LedgerOrder, type LedgerRefund } from "~/lib/order-ledger";
import { parsePickupCodes } from "~/lib/orders";
import { entryHoldsOneCode, sameParcel } from "~/lib/pickup-entries";
import { addDays, shanghaiInstant } from "~/lib/time";
import { db } from "../db/db.server";
import type { OrderRow } from "./events.server";
import { LIVE_ORDER_STATUSES } from "./orders.server";

type RefundRow = { order_id: number; amountFen: number; state: LedgerRefund["state"]; supplement: boolean };

/** `supplementFen`: the order's paid supplement (paidSupplementsOf), received on top of its amount. */
export function ledgerOrderOf(order: Pick<OrderRow, "status" | "payment_status" | "refund_state" | "amount_fen" | "paid_at" | "deleted_at">, supplementFen = 0): LedgerOrder {
  return {
    status: order.status,
    paymentStatus: order.payment_status,
    refundState: order.refund_state,
    amountFen: order.amount_fen,
    paidAt: order.paid_at,
    deleted: order.deleted_at !== null,
    supplementFen,
  };
}

export async function refundsOf(orderIds: number[]): Promise<Map<number, RefundRow[]>> {
  const byOrder = new Map<number, RefundRow[]>();
  // Batched, so a day of many orders stays a few queries (refunds_order_idx).
  for (let index = 0; index < orderIds.length; index += 500) {
    const rows = await db()
      .selectFrom("refunds")
      .select(["order_id", "amount_fen", "state", "out_trade_no"])
      .where("order_id", "in", orderIds.slice(index, index + 500))
      .execute();
    for (const row of rows)
      byOrder.set(row.order_id, [...(byOrder.get(row.order_id) ?? []), { order_id: row.order_id, amountFen: row.amount_fen, state: row.state, supplement: row.out_trade_no !== null }]);
  }
  return byOrder;
}

/** The paid supplements of some orders, by order (the unique order_id index), batched like the refunds. */
export async function paidSupplementsOf(orderIds: number[]): Promise<Map<number, number>> {
  const byOrder = new Map<number, number>();
  for (let index = 0; index < orderIds.length; index += 500) {
    const rows = await db()
      .selectFrom("order_supplements")
      .select(["order_id", "amount_fen"])
      .where("order_id", "in", orderIds.slice(index, index + 500))
      .where("state", "=", "paid")
      .execute();
    for (const row of rows) byOrder.set(row.order_id, row.amount_fen);
  }
  return byOrder;
}

function parcelCounts(text: string) {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    return Object.values(value).reduce<number>((total, count) => total + (Number.isInteger(count) ? (count as number) : 0), 0);
  } catch {
    return -1;
  }
}

/**
 * Every invariant the orders (all of them, or `orderIds`) break now, in words; empty when all hold.
 * For tests and an operator's check; it reads every row it is given, so it is not for a page.
 */
export async function moneyInvariantViolations(orderIds?: number[]): Promise<string[]> {
  let query = db().selectFrom("orders").selectAll();
  if (orderIds) query = query.where("id", "in", orderIds.length > 0 ? orderIds : [-1]);
  const orders = await query.orderBy("id").execute();
  const refunds = await refundsOf(orders.map((order) => order.id));
  const supplements = await paidSupplementsOf(orders.map((order) => order.id));
  const allSupplements = new Map(
    (await db().selectFrom("order_supplements").selectAll().where("order_id", "in", orders.length > 0 ? orders.map((order) => order.id) : [-1]).execute()).map((row) => [row.order_id, row]),
  );
  const payments = new Map(
    (await db().selectFrom("payments").select(["order_id", "state", "amount_fen"]).where("order_id", "in", orders.length > 0 ? orders.map((order) => order.id) : [-1]).execute()).map((row) => [row.order_id, row]),
  );
  const problems: string[] = [];
  const liveByUser = new Map<number, OrderRow[]>();
  for (const order of orders) {
    const at = `${order.order_number} (${order.status}/${order.payment_status}/${order.refund_state ?? "-"})`;
    const ledgerOrder = ledgerOrderOf(order, supplements.get(order.id) ?? 0);
    for (const problem of moneyViolations(ledgerOrder, refunds.get(order.id) ?? [])) problems.push(`${at}: ${problem}`);
    // I1: an order holding money keeps its recipient (account deletion waits or refunds first).
    const split = splitMoney(ledgerOrder, refunds.get(order.id) ?? []);
    // S1–S3: a supplement's trade is refunded only once paid and never beyond its amount; only an
    // order that was paid has one; a declined one holds no money and left its parcel refunded.
    const supplement = allSupplements.get(order.id);
    const supplementRefunds = (refunds.get(order.id) ?? []).filter((refund) => refund.supplement && (refund.state === "processing" || refund.state === "succeeded"));
    const supplementRefunded = supplementRefunds.reduce((total, refund) => total + refund.amountFen, 0);
    if (supplementRefunds.length > 0 && supplement?.state !== "paid") problems.push(`${at}: S2: a refund of a supplement never paid`);
    if (supplement && supplementRefunded > supplement.amount_fen) problems.push(`${at}: S2: supplement refunds ${supplementRefunded} exceed its ${supplement.amount_fen}`);
    if (supplement && !order.paid_at) problems.push(`${at}: S1: a supplement of an order never paid`);
    if (supplement?.state === "paid" && !supplement.success_time) problems.push(`${at}: S1: a paid supplement without the provider's time`);
    if (supplement && supplement.amount_fen <= 0) problems.push(`${at}: S1: a supplement of ${supplement.amount_fen}`);
    if (supplement?.state === "declined" && !(refunds.get(order.id) ?? []).some((refund) => !refund.supplement && refund.state !== "rejected")) problems.push(`${at}: S3: a declined supplement whose parcel was not refunded`);
    // S4: a paid supplement whose parcel a 配送失败 covered is refunded in full (or its refund failed
    // and is owed); a supplement is refunded only for that, or with its order refunded or ended.
    const supplementRefundFailed = (refunds.get(order.id) ?? []).some((refund) => refund.supplement && refund.state === "failed");
    if (supplement?.missing_at && supplement.state === "paid" && supplementRefunded !== supplement.amount_fen && !supplementRefundFailed)
      problems.push(`${at}: S4: a paid supplement of a parcel not delivered, refunded ${supplementRefunded} of ${supplement.amount_fen}`);
    if (supplementRefunds.length > 0 && !supplement?.missing_at && order.status !== "refunded" && order.status !== "cancelled")
      problems.push(`${at}: S4: a supplement refunded while its parcel was delivered or is still to be`);
    if (order.user_id === null && split.heldFen > 0) problems.push(`${at}: I1: ${split.heldFen} held by an order whose account was deleted`);
    if (order.user_id === null && order.status !== "completed" && isLive(ledgerOrderOf(order))) problems.push(`${at}: I1: a live order lost its recipient`);
    // The payments row says what the order says.
    const payment = payments.get(order.id);
    if (payment) {
      if (payment.amount_fen !== order.amount_fen) problems.push(`${at}: I2: the payment's amount ${payment.amount_fen} ≠ the order's ${order.amount_fen}`);
      if (order.payment_status === "paid" && payment.state !== "paid") problems.push(`${at}: I1: order paid, payment ${payment.state}`);
      if (payment.state === "paid" && order.payment_status !== "paid") problems.push(`${at}: I1: payment paid, order ${order.payment_status}`);
    }
    // I3: counts equal parcels, one code per entry (anonymised rows keep their counts only).
    if (parcelCounts(order.package_counts) !== order.parcel_count) problems.push(`${at}: I3: counts ≠ parcel count`);
    if (order.pickup_codes !== null) {
      const items = parsePickupCodes(order.pickup_codes);
      if (items.length !== order.parcel_count) problems.push(`${at}: I3: ${items.length} entries for ${order.parcel_count} parcels`);
      if (!items.every((item) => entryHoldsOneCode({ pickupCode: item.code, trackingNumber: item.trackingNumber }))) problems.push(`${at}: I3: an entry holds several codes`);
    }
    if (order.user_id !== null && order.deleted_at === null && (LIVE_ORDER_STATUSES as readonly string[]).includes(order.status)) {
      liveByUser.set(order.user_id, [...(liveByUser.get(order.user_id) ?? []), order]);
    }
  }
  // I3: one parcel identity in at most one live order of a person.
  for (const live of liveByUser.values()) {
    const held = live.flatMap((order) => parsePickupCodes(order.pickup_codes).map((item) => ({ order: order.order_number, item })));
    for (let i = 0; i < held.length; i += 1) {
      for (let j = i + 1; j < held.length; j += 1) {
        const a = held[i]!;
        const b = held[j]!;
        if (a.order === b.order) continue;
        const parcel = (value: typeof a.item) => ({ pickupCode: value.code, trackingNumber: value.trackingNumber, stationName: value.station });
        if (sameParcel(parcel(a.item), parcel(b.item))) problems.push(`I3: one parcel in live orders ${a.order} and ${b.order}`);
      }
    }
  }
  return problems;
}

export type DailyLedger = {
  /** The Shanghai day, "2026-11-28". */
  day: string;
  /** Payments (orders' and supplements') that succeeded that day (the provider's success time): what its trade bill lists. */
  payments: { count: number; fen: number };
  /** Refunds that succeeded that day, of any order: what its trade bill lists. */
  refunds: { count: number; fen: number };
  /**
   * The orders whose payment we confirmed that day (paid_at), and where their money is now (I1
   * per day): receivedFen = refundedFen + earnedFen + heldFen; refundingFen (refunds on their
   * way) is part of heldFen. receivedFen equals payments.fen but for a payment confirmed on
   * another day than the provider's success time (a payment at 23:59:59 confirmed after midnight),
   * and for supplements, which count with their order's day here and on their own day there.
   */
  orders: number;
  receivedFen: number;
  refundedFen: number;
  refundingFen: number;
  earnedFen: number;
  heldFen: number;
  /** The same split per campus of the order, by orders then code. */
  byCampus: { code: string; name: string; orders: number; receivedFen: number; refundedFen: number; refundingFen: number; earnedFen: number; heldFen: number }[];
  /** Parcels of the day's orders not refunded in full, per size key. */
  parcels: Record<string, number>;
};

/**
 * The ledger of one Shanghai day. Payments and refunds as the provider records them, by its
 * success times (payments_success_idx, refunds_succeeded_idx): these equal its trade bill. The
 * orders confirmed paid that day (orders_paid_idx) and where their money is now. Soft-deleted orders are included:
 * only an order holding no money can be deleted, and the accounts keep every payment.
 */
export async function dailyLedger(day: string): Promise<DailyLedger> {
  const from = shanghaiInstant(day).toISOString();
  const to = shanghaiInstant(addDays(day, 1)).toISOString();
  const columns = ["orders.id", "orders.campus_code", "orders.campus_name", "orders.status", "orders.payment_status", "orders.refund_state", "orders.amount_fen", "orders.paid_at", "orders.deleted_at", "orders.package_counts"] as const;
  const [rows, paid, refunded, supplementsPaid] = await Promise.all([
    db().selectFrom("orders").select([...columns]).where("orders.paid_at", ">=", from).where("orders.paid_at", "<", to).execute(),
    db()
      .selectFrom("payments")
      .select([(eb) => eb.fn.countAll<number | string>().as("n"), (eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount_fen"), sql<number>`0`).as("fen")])
      .where("success_time", ">=", from)
      .where("success_time", "<", to)
      .where("state", "in", ["paid", "refunded"])
      .executeTakeFirstOrThrow(),
    db()
      .selectFrom("refunds")
      .select([(eb) => eb.fn.countAll<number | string>().as("n"), (eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount_fen"), sql<number>`0`).as("fen")])
      .where("state", "=", "succeeded")
      .where("succeeded_at", ">=", from)
      .where("succeeded_at", "<", to)
      .executeTakeFirstOrThrow(),
    // Supplements are trades of their own on the provider's bill (order_supplements_success_idx).
    db()
      .selectFrom("order_supplements")
      .select([(eb) => eb.fn.countAll<number | string>().as("n"), (eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount_fen"), sql<number>`0`).as("fen")])
      .where("success_time", ">=", from)
      .where("success_time", "<", to)
      .where("state", "=", "paid")
      .executeTakeFirstOrThrow(),
  ]);
  const refunds = await refundsOf(rows.map((row) => row.id));
  const supplements = await paidSupplementsOf(rows.map((row) => row.id));
  const ledger: DailyLedger = {
    day,
    payments: { count: Number(paid.n) + Number(supplementsPaid.n), fen: Number(paid.fen) + Number(supplementsPaid.fen) },
    refunds: { count: Number(refunded.n), fen: Number(refunded.fen) },
    orders: rows.length,
    receivedFen: 0,
    refundedFen: 0,
    refundingFen: 0,
    earnedFen: 0,
    heldFen: 0,
    byCampus: [],
    parcels: {},
  };
  const campuses = new Map<string, DailyLedger["byCampus"][number]>();
  for (const row of rows) {
    const split = splitMoney(ledgerOrderOf(row, supplements.get(row.id) ?? 0), refunds.get(row.id) ?? []);
    const campus = campuses.get(row.campus_code) ?? { code: row.campus_code, name: row.campus_name, orders: 0, receivedFen: 0, refundedFen: 0, refundingFen: 0, earnedFen: 0, heldFen: 0 };
    campus.orders += 1;
    for (const target of [ledger, campus]) {
      target.receivedFen += split.receivedFen;
      target.refundedFen += split.refundedFen;
      target.refundingFen += split.refundingFen;
      target.earnedFen += split.earnedFen;
      target.heldFen += split.heldFen;
    }
    campuses.set(row.campus_code, campus);
    // The parcels of the orders that stand (not refunded in full).
    if (split.receivedFen === 0 || split.refundedFen + split.refundingFen < split.receivedFen) {
      for (const [size, count] of Object.entries(storedCounts(row.package_counts))) {
        if (count > 0) ledger.parcels[size] = (ledger.parcels[size] ?? 0) + count;
      }
    }
  }
  ledger.byCampus = [...campuses.values()].sort((a, b) => b.orders - a.orders || a.code.localeCompare(b.code));
  return ledger;
}
