import { describe, expect, it } from "vitest";
import { formatTradeBill, matchTradeBill, parseTradeBill, type BillEntry } from "./trade-bill";

const merchant = { appId: "wx123", mchid: "1900000001" };
const pay = (no: string, fen: number, at = "2026-11-28T04:00:01.000Z"): BillEntry => ({ kind: "payment", outTradeNo: no, transactionId: `4200${no}`, outRefundNo: null, refundId: null, fen, at });
const refund = (no: string, r: string, fen: number, at = "2026-11-28T09:30:00.000Z"): BillEntry => ({ kind: "refund", outTradeNo: no, transactionId: `4200${no}`, outRefundNo: r, refundId: `5030${r}`, fen, at });

describe("the trade bill's file", () => {
  it("reads back what it wrote: rows after backticks, yuan, Beijing time, the summary", () => {
    const entries = [pay("E1", 350), pay("E2", 1200), refund("E1", "E1R1", 350), refund("E2", "E2R1", 200)];
    const text = formatTradeBill(entries, merchant);
    expect(text.split("\r\n")[1]).toMatch(/^`2026-11-28 12:00:01,`wx123,`1900000001,/);
    expect(text).toContain("总交易单数,应结订单总金额,退款总金额");
    expect(text).toContain("`4,`15.50,`5.50,");
    expect(parseTradeBill(text)).toEqual({ entries, totals: { count: 4, paidFen: 1550, refundFen: 550 } });
  });

  it("an empty day has a header and a zero summary", () => {
    expect(parseTradeBill(formatTradeBill([], merchant))).toEqual({ entries: [], totals: { count: 0, paidFen: 0, refundFen: 0 } });
  });

  it.each([
    ["not a bill", "<html>502</html>"],
    ["no summary (cut short)", formatTradeBill([pay("E1", 100)], merchant).split("\r\n").slice(0, 2).join("\r\n")],
    ["a summary that disagrees", formatTradeBill([pay("E1", 100)], merchant).replace("`1,`1.00,", "`1,`9.00,")],
  ])("refuses %s", (_, text) => {
    expect(parseTradeBill(text)).toBeNull();
  });
});

describe("matching our day with the bill", () => {
  it.each<[string, BillEntry[], BillEntry[], ReturnType<typeof matchTradeBill>]>([
    ["the same", [pay("E1", 100), refund("E1", "E1R1", 40)], [refund("E1", "E1R1", 40), pay("E1", 100)], []],
    ["a payment we never recorded", [], [pay("E9", 100)], [{ kind: "payment", key: "E9", outTradeNo: "E9", problem: "missing_here", oursFen: null, billFen: 100 }]],
    ["a refund the bill lacks", [refund("E1", "E1R2", 50)], [], [{ kind: "refund", key: "E1R2", outTradeNo: "E1", problem: "missing_in_bill", oursFen: 50, billFen: null }]],
    ["another amount", [pay("E1", 100)], [pay("E1", 90)], [{ kind: "payment", key: "E1", outTradeNo: "E1", problem: "amount", oursFen: 100, billFen: 90 }]],
    ["a payment and its refund are two keys", [pay("E1", 100)], [pay("E1", 100), refund("E1", "E1R1", 100)], [{ kind: "refund", key: "E1R1", outTradeNo: "E1", problem: "missing_here", oursFen: null, billFen: 100 }]],
  ])("%s", (_, ours, bill, expected) => {
    expect(matchTradeBill(ours, bill)).toEqual(expected);
  });
});
