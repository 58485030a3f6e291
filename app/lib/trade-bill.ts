// The pay provider's trade bill (交易账单) and the day's reconciliation, the pure part.
//
// The bill's file, as the pay API v3 delivers it (bill_type=ALL): a header row of Chinese column
// names, one detail row per payment or refund with every field after a backtick (so spreadsheets
// keep long numbers), then a summary header and one summary row. Amounts are yuan with two
// decimals, times Beijing wall clock "2026-11-28 20:00:01". A refund row carries the trade's
// numbers, 交易状态 REFUND, its refund numbers and 退款金额, and the refund's time.
// `formatTradeBill` writes it (the fake provider and the simulated one), `parseTradeBill` reads it.
//
// `matchTradeBill` compares what we recorded for a day with the bill: a payment or refund on one
// side only, or with another amount, is a difference. Both sides are keyed by our numbers
// (out_trade_no, out_refund_no).
import { formatYuan, parseYuan } from "./money";

export type BillEntry = {
  kind: "payment" | "refund";
  /** Our order number (out_trade_no). */
  outTradeNo: string;
  transactionId: string | null;
  /** Refunds: our refund number (out_refund_no) and the provider's refund id. */
  outRefundNo: string | null;
  refundId: string | null;
  fen: number;
  /** ISO instant of the payment's or the refund's success. */
  at: string;
};

export const BILL_COLUMNS = [
  "交易时间", "公众账号ID", "商户号", "特约商户号", "设备号", "微信订单号", "商户订单号", "用户标识", "交易类型", "交易状态", "付款银行", "货币种类",
  "应结订单金额", "代金券金额", "微信退款单号", "商户退款单号", "退款金额", "充值券退款金额", "退款类型", "退款状态", "商品名称", "商户数据包",
  "手续费", "费率", "订单金额", "申请退款金额", "费率备注",
] as const;
export const BILL_SUMMARY_COLUMNS = ["总交易单数", "应结订单总金额", "退款总金额", "充值券退款总金额", "手续费总金额", "订单总金额", "申请退款总金额"] as const;

const col = (name: (typeof BILL_COLUMNS)[number]) => BILL_COLUMNS.indexOf(name);

/** Beijing wall clock "2026-11-28 20:00:01" of an ISO instant. */
function beijingClock(iso: string) {
  return new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

function instantOfClock(text: string) {
  const parsed = Date.parse(`${text.trim().replace(" ", "T")}+08:00`);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}

/** The bill's file for these entries (the provider's side). */
export function formatTradeBill(entries: readonly BillEntry[], merchant: { appId: string; mchid: string }): string {
  const lines = [BILL_COLUMNS.join(",")];
  let paidFen = 0;
  let refundFen = 0;
  for (const entry of entries) {
    const cells: string[] = BILL_COLUMNS.map(() => "");
    const refund = entry.kind === "refund";
    cells[col("交易时间")] = beijingClock(entry.at);
    cells[col("公众账号ID")] = merchant.appId;
    cells[col("商户号")] = merchant.mchid;
    cells[col("特约商户号")] = "0";
    cells[col("微信订单号")] = entry.transactionId ?? "";
    cells[col("商户订单号")] = entry.outTradeNo;
    cells[col("交易类型")] = "JSAPI";
    cells[col("交易状态")] = refund ? "REFUND" : "SUCCESS";
    cells[col("货币种类")] = "CNY";
    cells[col("应结订单金额")] = formatYuan(refund ? 0 : entry.fen, { style: "amount" });
    cells[col("代金券金额")] = "0.00";
    cells[col("微信退款单号")] = entry.refundId ?? "0";
    cells[col("商户退款单号")] = entry.outRefundNo ?? "0";
    cells[col("退款金额")] = formatYuan(refund ? entry.fen : 0, { style: "amount" });
    cells[col("充值券退款金额")] = "0.00";
    cells[col("退款类型")] = refund ? "ORIGINAL" : "";
    cells[col("退款状态")] = refund ? "SUCCESS" : "";
    cells[col("手续费")] = "0.00";
    cells[col("费率")] = "0.60%";
    cells[col("订单金额")] = formatYuan(refund ? 0 : entry.fen, { style: "amount" });
    cells[col("申请退款金额")] = formatYuan(refund ? entry.fen : 0, { style: "amount" });
    lines.push(cells.map((cell) => `\`${cell}`).join(","));
    if (refund) refundFen += entry.fen;
    else paidFen += entry.fen;
  }
  lines.push(BILL_SUMMARY_COLUMNS.join(","));
  const yuan = (fen: number) => `\`${formatYuan(fen, { style: "amount" })}`;
  lines.push([`\`${entries.length}`, yuan(paidFen), yuan(refundFen), yuan(0), yuan(0), yuan(paidFen), yuan(refundFen)].join(","));
  return `${lines.join("\r\n")}\r\n`;
}

export type ParsedTradeBill = { entries: BillEntry[]; totals: { count: number; paidFen: number; refundFen: number } };

/**
 * Reads the bill's file: its detail rows (SUCCESS payments, REFUND rows with a SUCCESS refund)
 * and its summary. Null when the file is not a trade bill or its summary disagrees with its
 * rows (a truncated download).
 */
export function parseTradeBill(text: string): ParsedTradeBill | null {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = lines[0]?.split(",").map((cell) => cell.trim());
  if (!header || header[0] !== BILL_COLUMNS[0]) return null;
  const at = (name: (typeof BILL_COLUMNS)[number]) => header.indexOf(name);
  const need = ["交易时间", "微信订单号", "商户订单号", "交易状态", "应结订单金额", "微信退款单号", "商户退款单号", "退款金额", "退款状态"] as const;
  if (need.some((name) => at(name) < 0)) return null;
  const summaryAt = lines.findIndex((line) => line.startsWith(BILL_SUMMARY_COLUMNS[0]));
  if (summaryAt < 1 || !lines[summaryAt + 1]) return null;
  const entries: BillEntry[] = [];
  for (const line of lines.slice(1, summaryAt)) {
    const cells = line.split(",").map((cell) => cell.replace(/^`/, "").trim());
    const when = instantOfClock(cells[at("交易时间")] ?? "");
    if (!when) return null;
    const state = cells[at("交易状态")];
    const base = { outTradeNo: cells[at("商户订单号")] ?? "", transactionId: cells[at("微信订单号")] || null, at: when };
    if (state === "REFUND") {
      if (cells[at("退款状态")] !== "SUCCESS") continue;
      entries.push({ ...base, kind: "refund", outRefundNo: cells[at("商户退款单号")] || null, refundId: cells[at("微信退款单号")] || null, fen: parseYuan(cells[at("退款金额")] ?? "0") });
    } else if (state === "SUCCESS") {
      entries.push({ ...base, kind: "payment", outRefundNo: null, refundId: null, fen: parseYuan(cells[at("应结订单金额")] ?? "0") });
    }
  }
  const summary = lines[summaryAt + 1]!.split(",").map((cell) => cell.replace(/^`/, "").trim());
  const totals = { count: Number(summary[0]), paidFen: parseYuan(summary[1] ?? "0"), refundFen: parseYuan(summary[2] ?? "0") };
  const sum = (kind: BillEntry["kind"]) => entries.filter((entry) => entry.kind === kind).reduce((total, entry) => total + entry.fen, 0);
  if (totals.paidFen !== sum("payment") || totals.refundFen !== sum("refund")) return null;
  return { entries, totals };
}

export type BillDifference = {
  kind: BillEntry["kind"];
  /** out_trade_no for a payment, out_refund_no for a refund. */
  key: string;
  outTradeNo: string;
  /** Only in our records, only in the bill, or in both with other amounts. */
  problem: "missing_in_bill" | "missing_here" | "amount";
  oursFen: number | null;
  billFen: number | null;
};

const keyOf = (entry: Pick<BillEntry, "kind" | "outTradeNo" | "outRefundNo">) => (entry.kind === "refund" ? `R:${entry.outRefundNo ?? ""}` : `P:${entry.outTradeNo}`);

/** The differences between our day and the provider's bill of it; empty: the day matches. */
export function matchTradeBill(ours: readonly BillEntry[], bill: readonly BillEntry[]): BillDifference[] {
  const theirs = new Map(bill.map((entry) => [keyOf(entry), entry]));
  const mine = new Map(ours.map((entry) => [keyOf(entry), entry]));
  const differences: BillDifference[] = [];
  const describe = (entry: BillEntry) => ({ kind: entry.kind, key: entry.kind === "refund" ? (entry.outRefundNo ?? "") : entry.outTradeNo, outTradeNo: entry.outTradeNo });
  for (const [key, entry] of mine) {
    const other = theirs.get(key);
    if (!other) differences.push({ ...describe(entry), problem: "missing_in_bill", oursFen: entry.fen, billFen: null });
    else if (other.fen !== entry.fen) differences.push({ ...describe(entry), problem: "amount", oursFen: entry.fen, billFen: other.fen });
  }
  for (const [key, entry] of theirs) if (!mine.has(key)) differences.push({ ...describe(entry), problem: "missing_here", oursFen: null, billFen: entry.fen });
  return differences.sort((a, b) => a.kind.localeCompare(b.kind) || a.key.localeCompare(b.key));
}
