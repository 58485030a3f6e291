// The simulated payment provider: development only, when no merchant is configured (docs/architecture.md
// "Paid only when verified", the product rules' "outside the messenger payment succeeds after 1.5 s"). It refuses to exist
// in production. Prepay ids are fake; a payment reports SUCCESS from 1.5 s after its pay params were
// issued; refunds succeed at once. It receives no notifications: the order layer learns of the
// payment through query(), the same path as the real provider's fallback.
// State lives in this process (on globalThis, so a development reload keeps it).
import crypto from "node:crypto";
import { config } from "../config.server";
import { NotificationError, PayError } from "./errors.server";
import { checkCreateInput, checkOutRefundNo, checkOutTradeNo, checkRefundInput } from "./input.server";
import type { CreateJsapiInput, PaymentProvider, RefundResult, TradeQueryResult } from "./provider.server";
import { randomNonce, unixSeconds } from "./wechatpay-sign.server";
import { parseTradeBill, formatTradeBill, type BillEntry } from "~/lib/trade-bill";
import { addDays, shanghaiInstant } from "~/lib/time";

export const SIMULATED_PAY_APP_ID = "wx_simulated_pay";
/** The product rules' delay between the pay call and success outside the messenger. */
export const SIMULATED_PAY_DELAY_MS = 1500;
/** What paySign holds: no real signature exists without a merchant key. */
export const SIMULATED_PAY_SIGN = "SIMULATED";

type SimulatedTrade = {
  outTradeNo: string;
  prepayId: string;
  amountFen: number;
  openid: string;
  description: string;
  /** When the pay params were first issued (the simulated payer "pays" 1.5 s later). */
  payParamsAt?: number;
  closed: boolean;
  transactionId?: string;
  successTime?: string;
  refundedFen: number;
};

type SimulatedRefund = RefundResult & { outTradeNo: string; refundFen: number; totalFen: number };

export type SimulatedStore = {
  trades: Map<string, SimulatedTrade>;
  byPrepayId: Map<string, string>;
  refunds: Map<string, SimulatedRefund>;
};

export function newSimulatedStore(): SimulatedStore {
  return { trades: new Map(), byPrepayId: new Map(), refunds: new Map() };
}

const GLOBAL_KEY = Symbol.for("campus-app.simulated-pay");

/** The store of this process, kept across development reloads of the module. */
export function sharedSimulatedStore(): SimulatedStore {
  const holder = globalThis as unknown as Record<symbol, SimulatedStore | undefined>;
  holder[GLOBAL_KEY] ??= newSimulatedStore();
  return holder[GLOBAL_KEY]!;
}

export type TradeBill = { payments: { count: number; fen: number }; refunds: { count: number; fen: number } };

/**
 * The simulated provider's records of one span (a Shanghai day: [from, to)), as a merchant's
 * trade bill lists them: the payments that succeeded in it and the refunds that succeeded in it,
 * each by the provider's own success time.
 */
export function simulatedBillEntries(store: SimulatedStore, span: { from: string; to: string }): BillEntry[] {
  const within = (time: string | undefined) => {
    const at = time ? Date.parse(time) : Number.NaN;
    return !Number.isNaN(at) && at >= Date.parse(span.from) && at < Date.parse(span.to);
  };
  const entries: BillEntry[] = [];
  for (const trade of store.trades.values()) {
    if (!trade.transactionId || !within(trade.successTime)) continue;
    entries.push({ kind: "payment", outTradeNo: trade.outTradeNo, transactionId: trade.transactionId, outRefundNo: null, refundId: null, fen: trade.amountFen, at: new Date(trade.successTime!).toISOString() });
  }
  for (const refund of store.refunds.values()) {
    if (refund.status !== "SUCCESS" || !within(refund.successTime)) continue;
    const transactionId = store.trades.get(refund.outTradeNo)?.transactionId ?? null;
    entries.push({ kind: "refund", outTradeNo: refund.outTradeNo, transactionId, outRefundNo: refund.outRefundNo, refundId: refund.refundId ?? null, fen: refund.refundFen, at: new Date(refund.successTime!).toISOString() });
  }
  return entries;
}

/** The totals of the simulated provider's bill of a span. The daily ledger must equal it. */
export function simulatedTradeBill(store: SimulatedStore, span: { from: string; to: string }): TradeBill {
  const bill: TradeBill = { payments: { count: 0, fen: 0 }, refunds: { count: 0, fen: 0 } };
  for (const entry of simulatedBillEntries(store, span)) {
    const side = entry.kind === "payment" ? bill.payments : bill.refunds;
    side.count += 1;
    side.fen += entry.fen;
  }
  return bill;
}

export function createSimulatedProvider(options: { store?: SimulatedStore; now?: () => number; delayMs?: number } = {}): PaymentProvider {
  if (config().isProduction) throw new PayError("NOT_CONFIGURED", "the simulated payment provider is refused in production");
  const store = options.store ?? newSimulatedStore();
  const now = options.now ?? Date.now;
  const delayMs = options.delayMs ?? SIMULATED_PAY_DELAY_MS;

  /** Pays the trade once its 1.5 s are up (the transaction id and time fixed on first sight). */
  function settle(trade: SimulatedTrade) {
    if (trade.transactionId || trade.closed || trade.payParamsAt === undefined) return;
    const paidAt = trade.payParamsAt + delayMs;
    if (now() < paidAt) return;
    trade.transactionId = `SIM${unixSeconds(paidAt)}${crypto.randomInt(10 ** 9).toString().padStart(9, "0")}`;
    trade.successTime = new Date(paidAt).toISOString().replace(/\.\d{3}Z$/, "+00:00");
  }

  function trade(outTradeNo: string) {
    const found = store.trades.get(outTradeNo);
    if (!found) throw new PayError("NOT_FOUND", "simulated: no such trade", { providerCode: "ORDER_NOT_EXIST", status: 404 });
    settle(found);
    return found;
  }

  return {
    kind: "simulated",

    async createJsapi(input: CreateJsapiInput) {
      checkCreateInput(input);
      const existing = store.trades.get(input.outTradeNo);
      if (existing) {
        settle(existing);
        if (existing.transactionId) throw new PayError("ORDER_PAID", "simulated", { providerCode: "ORDERPAID", status: 400 });
        if (existing.closed) throw new PayError("ORDER_CLOSED", "simulated", { providerCode: "ORDER_CLOSED", status: 400 });
        if (existing.amountFen !== input.amountFen || existing.openid !== input.openid || existing.description !== input.description) {
          throw new PayError("DUPLICATE", "simulated", { providerCode: "OUT_TRADE_NO_USED", status: 403 });
        }
        return { prepayId: existing.prepayId };
      }
      const prepayId = `wx_sim_${crypto.randomBytes(12).toString("hex")}`;
      store.trades.set(input.outTradeNo, {
        outTradeNo: input.outTradeNo,
        prepayId,
        amountFen: input.amountFen,
        openid: input.openid,
        description: input.description,
        closed: false,
        refundedFen: 0,
      });
      store.byPrepayId.set(prepayId, input.outTradeNo);
      return { prepayId };
    },

    payParams(prepayId: string) {
      const outTradeNo = store.byPrepayId.get(prepayId);
      const found = outTradeNo ? store.trades.get(outTradeNo) : undefined;
      if (!found) throw new PayError("NOT_FOUND", "simulated: no such prepay id");
      found.payParamsAt ??= now();
      return {
        appId: SIMULATED_PAY_APP_ID,
        timeStamp: unixSeconds(now()),
        nonceStr: randomNonce(),
        package: `prepay_id=${prepayId}`,
        signType: "RSA",
        paySign: SIMULATED_PAY_SIGN,
      };
    },

    async query(outTradeNo: string): Promise<TradeQueryResult> {
      checkOutTradeNo(outTradeNo);
      const found = trade(outTradeNo);
      if (found.transactionId) {
        return {
          state: found.refundedFen > 0 ? "REFUND" : "SUCCESS",
          transactionId: found.transactionId,
          amountFen: found.amountFen,
          payerOpenid: found.openid,
          successTime: found.successTime,
        };
      }
      return { state: found.closed ? "CLOSED" : "NOTPAY" };
    },

    async close(outTradeNo: string) {
      checkOutTradeNo(outTradeNo);
      const found = trade(outTradeNo);
      if (found.transactionId) throw new PayError("ORDER_PAID", "simulated", { providerCode: "ORDERPAID", status: 400 });
      found.closed = true;
    },

    async refund(input) {
      checkRefundInput(input);
      const existing = store.refunds.get(input.outRefundNo);
      if (existing) {
        if (existing.outTradeNo !== input.outTradeNo || existing.refundFen !== input.refundFen) {
          throw new PayError("REJECTED", "simulated: out_refund_no used for another refund", { providerCode: "INVALID_REQUEST", status: 400 });
        }
        return { ...existing };
      }
      const found = trade(input.outTradeNo);
      if (!found.transactionId) throw new PayError("REJECTED", "simulated: the trade is not paid", { providerCode: "INVALID_REQUEST", status: 400 });
      if (input.totalFen !== found.amountFen) throw new PayError("REJECTED", "simulated: total differs", { providerCode: "PARAM_ERROR", status: 400 });
      if (found.refundedFen + input.refundFen > found.amountFen) {
        throw new PayError("REJECTED", "simulated: more than was paid", { providerCode: "INVALID_REQUEST", status: 400 });
      }
      found.refundedFen += input.refundFen;
      const result: SimulatedRefund = {
        status: "SUCCESS",
        refundId: `SIMR${unixSeconds(now())}${crypto.randomInt(10 ** 9).toString().padStart(9, "0")}`,
        outRefundNo: input.outRefundNo,
        outTradeNo: input.outTradeNo,
        refundFen: input.refundFen,
        totalFen: input.totalFen,
        successTime: new Date(now()).toISOString().replace(/\.\d{3}Z$/, "+00:00"),
      };
      store.refunds.set(input.outRefundNo, result);
      return { ...result };
    },

    async queryRefund(outRefundNo: string) {
      checkOutRefundNo(outRefundNo);
      const found = store.refunds.get(outRefundNo);
      if (!found) throw new PayError("NOT_FOUND", "simulated: no such refund", { providerCode: "RESOURCE_NOT_EXISTS", status: 404 });
      return { ...found };
    },

    async tradeBill(day: string) {
      // Through the bill's file, as the real provider delivers it, so both read the same way.
      const span = { from: shanghaiInstant(day).toISOString(), to: shanghaiInstant(addDays(day, 1)).toISOString() };
      const parsed = parseTradeBill(formatTradeBill(simulatedBillEntries(store, span), { appId: SIMULATED_PAY_APP_ID, mchid: "simulated" }));
      if (!parsed) throw new PayError("BAD_RESPONSE", "simulated: unreadable bill");
      return parsed.entries;
    },

    async parseNotification() {
      // Nothing can be verified without a merchant: the simulated provider accepts no notification.
      throw new NotificationError("BAD_SIGNATURE", "the simulated provider receives no notifications");
    },
  };
}
