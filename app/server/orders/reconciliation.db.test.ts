// The day's reconciliation on both dialects: the page and its CSV itemise the day's payments,
// refunds and orders; the totals equal the daily ledger and the simulated provider's trade bill;
// a payment or refund on one side only, or with another amount, is listed as a difference; a
// provider that cannot give its bill leaves our side shown and says so.
import { describe, expect, it } from "vitest";
import { adminReconciliation as m } from "~/lib/messages/adminReconciliation";
import { fillTemplate } from "~/lib/template";
import { shanghaiToday } from "~/lib/time";
import { loader as pageLoader } from "~/routes/admin.reconciliation";
import { loader as csvLoader } from "~/routes/admin.reconciliation[.csv]";
import { db } from "~/server/db/db.server";
import { PayError, type PaymentProvider } from "~/server/pay/provider.server";
import { sharedSimulatedStore } from "~/server/pay/simulated.server";
import { call, request } from "../../../tests/setup/helpers";
import { paidTestOrder, testAdmin } from "../../../tests/setup/orders";
import { advanceOrder, cancelOrderByOperator, failDelivery } from "./cancel.server";
import { dailyLedger } from "./invariants.server";
import { reconcileDay } from "./reconciliation.server";

type PageData = Awaited<ReturnType<typeof pageLoader>>;

describe("the day's reconciliation", () => {
  it("itemises payments, refunds and orders, and matches the provider's trade bill", async () => {
    const admin = await testAdmin();
    const kept = await paidTestOrder();
    const cancelled = await paidTestOrder();
    const partly = await paidTestOrder(2);
    expect(await cancelOrderByOperator(cancelled.order_number, admin.id, "驿站已关门")).toMatchObject({ ok: true });
    expect(await advanceOrder(partly.order_number, "delivering", admin.id)).toMatchObject({ ok: true });
    const counts = JSON.parse(partly.package_counts) as Record<string, number>;
    const [size] = Object.entries(counts).find(([, count]) => count > 0)!;
    expect(await failDelivery(partly.order_number, { id: admin.id }, { reason: "包裹少了一件", missing: { [size]: 1 } })).toMatchObject({ ok: true });

    const day = shanghaiToday();
    const data = (await (await call(pageLoader as never, request(`/admin/reconciliation?day=${day}`, { cookie: admin.cookie }))).json()) as PageData;
    const ledger = await dailyLedger(day);
    expect(data.status).toEqual({ tone: "good", text: fillTemplate(m.matched, { payments: 3, refunds: 2 }) });
    expect(data.differences).toEqual([]);
    expect(data.payments.map((row) => row.number).sort()).toEqual([kept, cancelled, partly].map((order) => order.order_number).sort());
    expect(data.refunds.map((row) => row.number).sort()).toEqual([cancelled.order_number, partly.order_number].sort());
    expect(data.orders).toHaveLength(3);
    // The totals are the ledger's: received = refunded + earned + held.
    expect(ledger.payments.fen).toBe(kept.amount_fen + cancelled.amount_fen + partly.amount_fen);
    expect(ledger.receivedFen).toBe(ledger.refundedFen + ledger.earnedFen + ledger.heldFen);
    expect(ledger.heldFen).toBe(kept.amount_fen);

    const books = await reconcileDay(day);
    expect(books.bill).toMatchObject({ ok: true, paidFen: ledger.payments.fen, refundFen: ledger.refunds.fen });
    const refundLine = books.refunds.find((row) => row.outTradeNo === partly.order_number)!;
    expect(refundLine).toMatchObject({ refundKind: "delivery_failed", reason: "包裹少了一件" });

    const csv = await call(csvLoader as never, request(`/admin/reconciliation.csv?day=${day}`, { cookie: admin.cookie }));
    expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="reconciliation-${day}.csv"`);
    const text = (await csv.text()).replace(/^\uFEFF/, "");
    expect(text.split("\r\n")[0]).toBe("类别,订单号,退款单号,支付平台单号,时间,金额(元),说明");
    expect(text).toContain(`${m.refunds},${partly.order_number},${refundLine.outRefundNo},`);
    expect(text).toContain(`${m.ordersList},订单号,校区,收款(元),已退(元),已完成(元),在途(元)\r\n`);
    const audit = await db().selectFrom("admin_audit").select(["action", "detail"]).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(audit).toEqual({ action: "export", detail: fillTemplate(m.csv.fileDetail, { day }) });
  });

  it("lists a payment the provider has and we do not, and an amount that differs", async () => {
    const admin = await testAdmin();
    const order = await paidTestOrder();
    const store = sharedSimulatedStore();
    store.trades.set("E20991231000001", { ...store.trades.get(order.order_number)!, outTradeNo: "E20991231000001", transactionId: "SIMX1" });
    await db().updateTable("payments").set({ amount_fen: order.amount_fen + 1 }).where("order_id", "=", order.id).execute();
    const data = (await (await call(pageLoader as never, request("/admin/reconciliation", { cookie: admin.cookie }))).json()) as PageData;
    expect(data.status.tone).toBe("bad");
    expect(data.differences.map((row) => [row.number, row.problem])).toEqual(
      expect.arrayContaining([
        ["E20991231000001", m.problems.missing_here],
        [order.order_number, m.problems.amount],
      ]),
    );
    store.trades.delete("E20991231000001");
  });

  it("without the provider's bill, shows our side and says why", async () => {
    const failing = { tradeBill: () => Promise.reject(new PayError("PROVIDER_UNAVAILABLE", "down")) } as unknown as PaymentProvider;
    const books = await reconcileDay(shanghaiToday(), failing);
    expect(books.bill).toEqual({ ok: false, reason: "provider" });
    expect(books.differences).toEqual([]);
    expect((await reconcileDay(shanghaiToday(), null)).bill).toEqual({ ok: false, reason: "no_provider" });
  });

  it("refuses students and anonymous visitors", async () => {
    const page = await call(pageLoader as never, request("/admin/reconciliation"));
    expect(page.status).toBe(302);
    const csv = await call(csvLoader as never, request("/admin/reconciliation.csv"));
    expect(csv.status).toBe(302);
  });
});
