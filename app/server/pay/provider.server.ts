// The payment provider interface of orders and the choice between its two providers:
//   real       the messenger's pay API v3 JSAPI (wechatpay.server.ts), when a merchant is configured
//   simulated  development only, no merchant (simulated.server.ts): pays 1.5 s after the pay params
//   none       production without a merchant: paymentProvider() is null, nothing can be paid
// This layer holds no orders and touches no database: the order layer keeps its own records,
// checks amount and ownership, and makes an order paid only on a verified notification or query.
import type { PayParams } from "~/lib/pay-params";
import type { BillEntry } from "~/lib/trade-bill";
import { config, type Config } from "../config.server";
import { createSimulatedProvider, sharedSimulatedStore } from "./simulated.server";
import { createWechatPayProvider } from "./wechatpay.server";
import type { HeadersLike } from "./wechatpay-sign.server";

export { NotificationError, PayError } from "./errors.server";
export type { NotificationErrorCode, PayErrorCode } from "./errors.server";
export { createSimulatedProvider } from "./simulated.server";
export { createWechatPayProvider } from "./wechatpay.server";
export { checkCreateInput, checkRefundInput, rfc3339Shanghai } from "./input.server";
export type { PayParams } from "~/lib/pay-params";

export type TradeState = "SUCCESS" | "NOTPAY" | "CLOSED" | "REFUND" | "USERPAYING" | "PAYERROR" | "REVOKED";
export const TRADE_STATES = ["SUCCESS", "NOTPAY", "CLOSED", "REFUND", "USERPAYING", "PAYERROR", "REVOKED"] as const satisfies readonly TradeState[];

export type RefundStatus = "PROCESSING" | "SUCCESS" | "ABNORMAL" | "CLOSED";
export const REFUND_STATUSES = ["PROCESSING", "SUCCESS", "ABNORMAL", "CLOSED"] as const satisfies readonly RefundStatus[];

export type CreateJsapiInput = {
  /** Our order number: 6–32 of [A-Za-z0-9_-|*], unique per merchant. */
  outTradeNo: string;
  /** What the payer sees; at most 127 bytes of UTF-8 (42 Chinese characters: the API's string(127), read strictly). */
  description: string;
  /** A positive integer number of fen. */
  amountFen: number;
  /** The payer's openid for our app (WECHAT_APP_ID). */
  openid: string;
  /** time_expire: after this the payment cannot be made. */
  expiresAt?: Date;
};

export type TradeQueryResult = {
  state: TradeState;
  transactionId?: string;
  /** amount.total; absent while unpaid on the real API. */
  amountFen?: number;
  payerOpenid?: string;
  /** RFC 3339, when paid. */
  successTime?: string;
};

export type RefundInput = {
  outTradeNo: string;
  /** Unique per refund: the same number repeats the same refund, never a second one. */
  outRefundNo: string;
  refundFen: number;
  /** The order's paid total (the provider checks it). */
  totalFen: number;
  /** Shown to the payer; cut to the API's 80 bytes of UTF-8 (26 Chinese characters). */
  reason?: string;
};

export type RefundResult = {
  status: RefundStatus;
  refundId?: string;
  outRefundNo: string;
  outTradeNo?: string;
  refundFen?: number;
  successTime?: string;
};

/** A payment notification that verified, decrypted and names our merchant and app. */
export type TransactionNotification = {
  eventType: "TRANSACTION.SUCCESS";
  /** The notification's id (repeats across deliveries of the same event). */
  id: string;
  outTradeNo: string;
  transactionId: string;
  /** amount.total in fen: compare with the order before marking it paid. */
  amountFen: number;
  payerTotalFen?: number;
  mchid: string;
  appid: string;
  payerOpenid: string;
  successTime: string;
};

/** A refund notification that verified, decrypted and names our merchant. */
export type RefundNotification = {
  eventType: "REFUND.SUCCESS" | "REFUND.ABNORMAL" | "REFUND.CLOSED";
  id: string;
  mchid: string;
  outTradeNo: string;
  transactionId?: string;
  outRefundNo: string;
  refundId: string;
  refundStatus: "SUCCESS" | "ABNORMAL" | "CLOSED";
  /** amount.refund in fen. */
  refundFen: number;
  /** amount.total in fen (the order's). */
  totalFen: number;
  successTime?: string;
};

export type VerifiedNotification = TransactionNotification | RefundNotification;

export interface PaymentProvider {
  readonly kind: "wechatpay" | "simulated";
  /** A prepay id (valid 2 h). Repeating it with the same input answers the same prepay id. */
  createJsapi(input: CreateJsapiInput): Promise<{ prepayId: string }>;
  /** The six strings of the in-browser pay call, freshly signed. */
  payParams(prepayId: string): PayParams;
  query(outTradeNo: string): Promise<TradeQueryResult>;
  /** Closes an unpaid payment (PayError ORDER_PAID when it was paid meanwhile). */
  close(outTradeNo: string): Promise<void>;
  refund(input: RefundInput): Promise<RefundResult>;
  queryRefund(outRefundNo: string): Promise<RefundResult>;
  /**
   * The trade bill of a Beijing day ("2026-11-28"): the payments and refunds that succeeded in
   * it, as the provider records them (an empty list when it has none that day).
   */
  tradeBill(day: string): Promise<BillEntry[]>;
  /** Throws NotificationError (bad signature, SIGNTEST probe, stale, undecryptable, wrong merchant…). */
  parseNotification(headers: HeadersLike, rawBody: string): Promise<VerifiedNotification>;
}

// ---------------------------------------------------------------------------------------------
// The provider of this process

let chosen: { for: Config; provider: PaymentProvider | null } | undefined;

/** The provider config().pay.mode names: real, simulated, or null (production without a merchant). */
export function paymentProvider(): PaymentProvider | null {
  const current = config();
  if (chosen?.for === current) return chosen.provider;
  const pay = current.pay;
  const provider =
    pay.mode === "real" ? createWechatPayProvider(pay.merchant!) : pay.mode === "simulated" ? createSimulatedProvider({ store: sharedSimulatedStore() }) : null;
  chosen = { for: current, provider };
  return provider;
}

export function isSimulatedPayment() {
  return config().pay.mode === "simulated";
}
