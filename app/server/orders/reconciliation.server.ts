// The day's reconciliation (对账) for the operators: the daily ledger (invariants.server
// `dailyLedger`) itemised down to the order — each payment and refund that succeeded that
// Shanghai day, and each order paid that day with where its money is now (refunded, earned,
// held) — and matched against the pay provider's trade bill of the same day. Returns domain data;
// the route words it. Every list is bounded (RECONCILIATION_MAX_ROWS) and read by an index:
// payments_success_idx, order_supplements_success_idx, refunds_succeeded_idx, orders_paid_idx.
import { splitMoney } from "~/lib/order-ledger";
import { addDays, shanghaiInstant } from "~/lib/time";
import { matchTradeBill, type BillDifference, type BillEntry } from "~/lib/trade-bill";
import { db } from "../db/db.server";
import { log } from "../log.server";
import { paymentProvider, type PaymentProvider } from "../pay/provider.server";
import { dailyLedger, ledgerOrderOf, paidSupplementsOf, refundsOf, type DailyLedger } from "./invariants.server";
import type { RefundKind } from "./transitions.server";

/** A day with more rows than this is shown in part (and says so); the totals stay whole. */
export const RECONCILIATION_MAX_ROWS = 5000;

export type ReconciledOrder = {
  orderNumber: string;
  campusName: string;
  status: string;
  receivedFen: number;
  refundedFen: number;
  refundingFen: number;
  earnedFen: number;
  heldFen: number;
};

export type ReconciledRefund = BillEntry & { kind: "refund"; refundKind: RefundKind; reason: string | null };

export type Reconciliation = {
  day: string;
  ledger: DailyLedger;
  payments: BillEntry[];
  refunds: ReconciledRefund[];
  orders: ReconciledOrder[];
  /** The provider's bill: its entries, or why there is none to match (no provider, or it failed). */
  bill: { ok: true; entries: BillEntry[]; paidFen: number; refundFen: number } | { ok: false; reason: "no_provider" | "provider" };
  /** Empty when the day matches the bill (and the bill was read). */
  differences: BillDifference[];
  /** A list was cut at RECONCILIATION_MAX_ROWS. */
  truncated: boolean;
};

/** Our side of the bill: the payments and refunds that succeeded on the day, by their success times. */
export async function recordedBillEntries(day: string): Promise<{ payments: BillEntry[]; refunds: ReconciledRefund[]; truncated: boolean }> {
  const from = shanghaiInstant(day).toISOString();
  const to = shanghaiInstant(addDays(day, 1)).toISOString();
  const [payments, supplements, refunds] = await Promise.all([
    db()
      .selectFrom("payments")
      .select(["out_trade_no", "transaction_id", "amount_fen", "success_time"])
      .where("success_time", ">=", from)
      .where("success_time", "<", to)
      .where("state", "in", ["paid", "refunded"])
      .orderBy("success_time")
      .limit(RECONCILIATION_MAX_ROWS + 1)
      .execute(),
    // A supplement is a trade of its own (order_supplements_success_idx).
    db()
      .selectFrom("order_supplements")
      .select(["out_trade_no", "transaction_id", "amount_fen", "success_time"])
      .where("success_time", ">=", from)
      .where("success_time", "<", to)
      .where("state", "=", "paid")
      .orderBy("success_time")
      .limit(RECONCILIATION_MAX_ROWS + 1)
      .execute(),
    db()
      .selectFrom("refunds")
      .innerJoin("payments", "payments.order_id", "refunds.order_id")
      .leftJoin("order_supplements", "order_supplements.out_trade_no", "refunds.out_trade_no")
      .select([
        "refunds.out_refund_no",
        "refunds.refund_id",
        "refunds.amount_fen",
        "refunds.succeeded_at",
        "refunds.kind",
        "refunds.reason",
        "payments.out_trade_no",
        "payments.transaction_id",
        "refunds.out_trade_no as supplement_trade_no",
        "order_supplements.transaction_id as supplement_transaction_id",
      ])
      .where("refunds.state", "=", "succeeded")
      .where("refunds.succeeded_at", ">=", from)
      .where("refunds.succeeded_at", "<", to)
      .orderBy("refunds.succeeded_at")
      .limit(RECONCILIATION_MAX_ROWS + 1)
      .execute(),
  ]);
  const trades = [...payments, ...supplements].sort((a, b) => (a.success_time ?? "").localeCompare(b.success_time ?? ""));
  return {
    truncated: trades.length > RECONCILIATION_MAX_ROWS || refunds.length > RECONCILIATION_MAX_ROWS,
    payments: trades.slice(0, RECONCILIATION_MAX_ROWS).map((row) => ({
      kind: "payment",
      outTradeNo: row.out_trade_no,
      transactionId: row.transaction_id,
      outRefundNo: null,
      refundId: null,
      fen: row.amount_fen,
      at: row.success_time!,
    })),
    refunds: refunds.slice(0, RECONCILIATION_MAX_ROWS).map((row) => ({
      kind: "refund",
      outTradeNo: row.supplement_trade_no ?? row.out_trade_no,
      transactionId: row.supplement_trade_no ? row.supplement_transaction_id : row.transaction_id,
      outRefundNo: row.out_refund_no,
      refundId: row.refund_id,
      fen: row.amount_fen,
      at: row.succeeded_at!,
      refundKind: row.kind,
      reason: row.reason,
    })),
  };
}

/** The orders paid that day and where each one's money is now (the ledger's lines). */
async function reconciledOrders(day: string): Promise<{ orders: ReconciledOrder[]; truncated: boolean }> {
  const from = shanghaiInstant(day).toISOString();
  const to = shanghaiInstant(addDays(day, 1)).toISOString();
  const rows = await db()
    .selectFrom("orders")
    .select(["id", "order_number", "campus_name", "status", "payment_status", "refund_state", "amount_fen", "paid_at", "deleted_at"])
    .where("paid_at", ">=", from)
    .where("paid_at", "<", to)
    .orderBy("paid_at")
    .limit(RECONCILIATION_MAX_ROWS + 1)
    .execute();
  const kept = rows.slice(0, RECONCILIATION_MAX_ROWS);
  const ids = kept.map((row) => row.id);
  const [refunds, supplements] = await Promise.all([refundsOf(ids), paidSupplementsOf(ids)]);
  return {
    truncated: rows.length > RECONCILIATION_MAX_ROWS,
    orders: kept.map((row) => {
      const split = splitMoney(ledgerOrderOf(row, supplements.get(row.id) ?? 0), refunds.get(row.id) ?? []);
      return { orderNumber: row.order_number, campusName: row.campus_name, status: row.status, ...split };
    }),
  };
}

/** The day's reconciliation; `provider` for tests (the process's provider by default). */
export async function reconcileDay(day: string, provider: PaymentProvider | null = paymentProvider()): Promise<Reconciliation> {
  const [ledger, recorded, orders] = await Promise.all([dailyLedger(day), recordedBillEntries(day), reconciledOrders(day)]);
  let bill: Reconciliation["bill"];
  if (!provider) bill = { ok: false, reason: "no_provider" };
  else {
    try {
      const entries = await provider.tradeBill(day);
      const total = (kind: BillEntry["kind"]) => entries.filter((entry) => entry.kind === kind).reduce((sum, entry) => sum + entry.fen, 0);
      bill = { ok: true, entries, paidFen: total("payment"), refundFen: total("refund") };
    } catch (error) {
      log("warn", "reconciliation-bill", { day, error: error instanceof Error ? error.message : String(error) });
      bill = { ok: false, reason: "provider" };
    }
  }
  const truncated = recorded.truncated || orders.truncated;
  return {
    day,
    ledger,
    payments: recorded.payments,
    refunds: recorded.refunds,
    orders: orders.orders,
    bill,
    // A cut list cannot be matched line by line: its missing lines would all show as differences.
    differences: bill.ok && !truncated ? matchTradeBill([...recorded.payments, ...recorded.refunds], bill.entries) : [],
    truncated,
  };
}
