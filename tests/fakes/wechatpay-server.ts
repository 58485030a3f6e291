// A fake of the messenger's pay API v3 (JSAPI, direct merchant) on loopback (node:http), speaking
// the real protocol of docs/protocols/messenger.md ("Pay API v3"):
//   POST /v3/pay/transactions/jsapi                         → {prepay_id} (same input: same prepay id)
//   GET  /v3/pay/transactions/out-trade-no/{no}?mchid=      → the trade (trade_state …)
//   POST /v3/pay/transactions/out-trade-no/{no}/close       → 204
//   POST /v3/refund/domestic/refunds                        → the refund (PROCESSING by default)
//   GET  /v3/refund/domestic/refunds/{out_refund_no}        → the refund
//   GET  /v3/bill/tradebill?bill_date=&bill_type=ALL         → {hash_type, hash_value, download_url}
//                                                              (400 NO_STATEMENT_EXIST: no trade that day)
//   GET  /v3/billdownload/file?token=                        → the bill's file (unsigned; its SHA-1 above)
// Every request's Authorization is verified with the merchant's PUBLIC key (401 SIGN_ERROR
// otherwise); every answer, errors included, is signed with the fake platform's key (the
// "wechatpay public key" mode: Wechatpay-Serial is its PUB_KEY_ID_…). Trades and refunds live in
// memory. Notifications (TRANSACTION.SUCCESS, REFUND.*) are built signed and AES-GCM encrypted
// with the merchant's API v3 key and POSTed to a URL the test gives — as often as asked, or with a
// bad signature, a SIGNTEST probe, a stale timestamp, another amount or merchant, a tampered
// ciphertext. Tests make all keys themselves (generateRsaKeyPair, fakeMerchant).
import crypto, { type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { WechatPaySettings } from "~/server/config.server";
import { formatTradeBill, type BillEntry } from "~/lib/trade-bill";
import {
  encryptResource,
  parseAuthorization,
  requestSignatureMessage,
  signAsPlatform,
  unixSeconds,
  verifyMessage,
} from "~/server/pay/wechatpay-sign.server";

// ---------------------------------------------------------------------------------------------
// Keys and merchants for tests

export type RsaKeyPair = { privateKey: KeyObject; publicKey: KeyObject; privateKeyPem: string; publicKeyPem: string };

/** A fresh RSA-2048 pair, as the merchant platform and the pay platform use. */
export function generateRsaKeyPair(): RsaKeyPair {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey,
    publicKey,
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

/** 40 upper-case hex digits, like a merchant certificate's serial number. */
export function randomSerialNo() {
  return crypto.randomBytes(20).toString("hex").toUpperCase();
}

/** 32 ASCII characters, like the API v3 key a merchant sets. */
export function randomApiV3Key() {
  return crypto.randomBytes(24).toString("base64").replace(/[+/=]/g, "x").slice(0, 32);
}

export type FakeMerchant = { appId: string; mchid: string; serialNo: string; keys: RsaKeyPair; apiV3Key: string };

export function fakeMerchant(overrides: Partial<FakeMerchant> = {}): FakeMerchant {
  return {
    appId: "wxfakepay01234567",
    mchid: "1900000109",
    serialNo: randomSerialNo(),
    keys: overrides.keys ?? generateRsaKeyPair(),
    apiV3Key: randomApiV3Key(),
    ...overrides,
  };
}

/** The settings createWechatPayProvider needs to talk to this fake as `merchant`. */
export function providerSettings(
  fake: FakeWechatPay,
  merchant: FakeMerchant,
  overrides: Partial<WechatPaySettings> = {},
): WechatPaySettings {
  return {
    appId: merchant.appId,
    mchid: merchant.mchid,
    serialNo: merchant.serialNo,
    privateKey: merchant.keys.privateKey,
    apiV3Key: Buffer.from(merchant.apiV3Key, "utf8"),
    platformPublicKey: fake.platform.publicKey,
    platformPublicKeyId: fake.platformPublicKeyId,
    baseUrl: fake.url,
    notifyUrl: "https://campus.example.cn/api/pay/wechat/notify",
    timeoutMs: 2000,
    ...overrides,
  };
}

/**
 * The environment that points the app at this fake as `merchant` (keys as PEM text). Note that
 * WECHAT_APP_ID also switches the messenger OAuth and messages to "real": point
 * WECHAT_API_BASE_URL / WECHAT_OAUTH_AUTHORIZE_URL at tests/fakes/messenger-oauth.ts as well.
 */
export function fakePayEnv(fake: FakeWechatPay, merchant: FakeMerchant, notifyUrl = "https://campus.example.cn/api/pay/wechat/notify"): Record<string, string> {
  return {
    WECHAT_APP_ID: merchant.appId,
    WECHAT_PAY_MCHID: merchant.mchid,
    WECHAT_PAY_SERIAL_NO: merchant.serialNo,
    WECHAT_PAY_PRIVATE_KEY: merchant.keys.privateKeyPem,
    WECHAT_PAY_API_V3_KEY: merchant.apiV3Key,
    WECHAT_PAY_PLATFORM_PUBLIC_KEY: fake.platform.publicKeyPem,
    WECHAT_PAY_PLATFORM_PUBLIC_KEY_ID: fake.platformPublicKeyId,
    WECHAT_PAY_BASE_URL: fake.url,
    WECHAT_PAY_NOTIFY_URL: notifyUrl,
  };
}

/** startFakeWechatPay's `merchant` option for a FakeMerchant. */
export function fakePayMerchantOption(merchant: FakeMerchant): FakeWechatPayOptions["merchant"] {
  return { appId: merchant.appId, mchid: merchant.mchid, serialNo: merchant.serialNo, publicKey: merchant.keys.publicKey, apiV3Key: merchant.apiV3Key };
}

// ---------------------------------------------------------------------------------------------
// The fake

export type FakeTradeState = "SUCCESS" | "NOTPAY" | "CLOSED" | "REFUND" | "USERPAYING" | "PAYERROR" | "REVOKED";

export type FakeTrade = {
  appid: string;
  mchid: string;
  outTradeNo: string;
  description: string;
  notifyUrl: string;
  amountFen: number;
  openid: string;
  prepayId: string;
  timeExpire?: string;
  state: FakeTradeState;
  transactionId?: string;
  successTime?: string;
  payerTotalFen?: number;
  refundedFen: number;
};

export type FakeRefund = {
  outRefundNo: string;
  refundId: string;
  outTradeNo: string;
  transactionId: string;
  refundFen: number;
  totalFen: number;
  reason?: string;
  notifyUrl?: string;
  status: "PROCESSING" | "SUCCESS" | "ABNORMAL" | "CLOSED";
  createTime: string;
  successTime?: string;
};

export type FakePayEndpoint = "jsapi" | "query" | "close" | "refund" | "refundQuery" | "tradebill" | "billDownload";

/** What the next call of an endpoint answers instead of the real thing (after the signature check). */
export type FakePayFailure =
  | { kind: "error"; status: number; code: string; message?: string }
  | { kind: "slow"; ms: number }
  // Held until `until` settles, after telling `arrived`: a race the test orders itself, whatever the machine's load.
  | { kind: "held"; arrived: () => void; until: Promise<void> }
  | { kind: "badSignature" } // a normal answer whose signature does not verify
  | { kind: "unsigned" } // a normal answer without the Wechatpay-* headers
  | { kind: "staleSignature" } // a normal answer signed 10 minutes ago
  | { kind: "garbage" }; // a signed 200 whose body is not JSON

export type NotificationOptions = {
  /** Deliveries of the same notification (same id and body). Default 1. */
  times?: number;
  signature?: "valid" | "bad" | "signtest";
  /** Added to the Wechatpay-Timestamp: -600 makes a stale one. */
  timestampOffsetSeconds?: number;
  /** Replaces amount.total (payments) or amount.refund (refunds) in the plaintext. */
  amountFen?: number;
  mchid?: string;
  appid?: string;
  /** Flips a byte of the ciphertext after encryption (the signature is made over the tampered body). */
  tamperCiphertext?: boolean;
  /** Encrypts with another API v3 key. */
  apiV3Key?: string;
  serial?: string;
};

export type SignedNotification = { id: string; headers: Record<string, string>; body: string };
export type Delivery = { status: number; body: string };

export type FakeWechatPayOptions = {
  merchant: { appId: string; mchid: string; serialNo: string; publicKey: KeyObject | string; apiV3Key: string };
  platform?: RsaKeyPair;
  platformPublicKeyId?: string;
  /** The status a new refund answers with: PROCESSING (default, as usual) or SUCCESS. */
  refundStatus?: "PROCESSING" | "SUCCESS";
};

export type FakeWechatPay = {
  url: string;
  platform: RsaKeyPair;
  platformPublicKeyId: string;
  trades: Map<string, FakeTrade>;
  refunds: Map<string, FakeRefund>;
  /** Every request: method, path (with query), answer status and error code. Never bodies. */
  requests: { method: string; path: string; status: number; code?: string }[];
  /** The payer paid: SUCCESS with a transaction id. */
  markPaid(outTradeNo: string, options?: { payerOpenid?: string; payerTotalFen?: number }): FakeTrade;
  setTradeState(outTradeNo: string, state: FakeTradeState): FakeTrade;
  /** A PROCESSING refund reaches its end. */
  completeRefund(outRefundNo: string, status?: "SUCCESS" | "ABNORMAL" | "CLOSED"): FakeRefund;
  failNext(endpoint: FakePayEndpoint, failure: FakePayFailure): void;
  transactionNotification(outTradeNo: string, options?: NotificationOptions): SignedNotification;
  refundNotification(outRefundNo: string, options?: NotificationOptions): SignedNotification;
  /** POSTs the notification `times` times, one after another; the answers in order. */
  deliver(url: string, notification: SignedNotification, times?: number): Promise<Delivery[]>;
  notifyPayment(url: string, outTradeNo: string, options?: NotificationOptions): Promise<Delivery[]>;
  notifyRefund(url: string, outRefundNo: string, options?: NotificationOptions): Promise<Delivery[]>;
  close(): Promise<void>;
};

const OUT_TRADE_NO = /^[A-Za-z0-9_\-|*]{6,32}$/;
const OUT_REFUND_NO = /^[A-Za-z0-9_\-|*@]{1,64}$/;
const SKEW_SECONDS = 300;

class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

const fail = (status: number, code: string, message: string) => new Answer(status, { code, message });

/** RFC 3339 in Beijing time, as the API writes times. */
function beijingTime(at = Date.now()) {
  return `${new Date(at + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}

function isHttpsWithoutQuery(value: unknown) {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && !url.search && !url.hash && !value.includes("?");
  } catch {
    return false;
  }
}

export async function startFakeWechatPay(options: FakeWechatPayOptions): Promise<FakeWechatPay> {
  const merchant = options.merchant;
  const merchantPublicKey = typeof merchant.publicKey === "string" ? crypto.createPublicKey(merchant.publicKey) : merchant.publicKey;
  const platform = options.platform ?? generateRsaKeyPair();
  const platformPublicKeyId = options.platformPublicKeyId ?? `PUB_KEY_ID_01${crypto.randomInt(10 ** 9).toString().padStart(9, "0")}0000000000000000`;
  const trades = new Map<string, FakeTrade>();
  const refunds = new Map<string, FakeRefund>();
  const requests: FakeWechatPay["requests"] = [];
  const failures: Record<FakePayEndpoint, FakePayFailure[]> = { jsapi: [], query: [], close: [], refund: [], refundQuery: [], tradebill: [], billDownload: [] };
  /** Bill files issued, by their download token (valid a few minutes on the real API). */
  const bills = new Map<string, string>();
  let sequence = 0;

  function checkAuthorization(req: http.IncomingMessage, body: string): boolean {
    const parts = parseAuthorization(req.headers.authorization);
    if (!parts) return false;
    if (parts.mchid !== merchant.mchid || parts.serial_no !== merchant.serialNo) return false;
    if (!/^\d+$/.test(parts.timestamp) || Math.abs(Date.now() / 1000 - Number(parts.timestamp)) > SKEW_SECONDS) return false;
    const message = requestSignatureMessage({
      method: req.method ?? "",
      pathWithQuery: req.url ?? "",
      timestamp: parts.timestamp,
      nonce: parts.nonce_str,
      body,
    });
    return verifyMessage(message, parts.signature, merchantPublicKey);
  }

  function send(res: http.ServerResponse, answer: Answer, mode: "valid" | "bad" | "unsigned" | "stale" | "garbage" = "valid") {
    const text = mode === "garbage" ? "<html>502 Bad Gateway</html>" : answer.status === 204 ? "" : JSON.stringify(answer.body);
    const headers: Record<string, string> = { "Request-ID": crypto.randomUUID() };
    if (text) headers["Content-Type"] = "application/json; charset=utf-8";
    if (mode !== "unsigned") {
      const signed = signAsPlatform({
        body: text,
        privateKey: platform.privateKey,
        publicKeyId: platformPublicKeyId,
        timestamp: mode === "stale" ? unixSeconds(Date.now() - 600_000) : undefined,
      });
      if (mode === "bad") signed["Wechatpay-Signature"] = signAsPlatform({ body: `${text}x`, privateKey: platform.privateKey, publicKeyId: platformPublicKeyId })["Wechatpay-Signature"];
      Object.assign(headers, signed);
    }
    res.writeHead(answer.status, headers);
    res.end(text);
  }

  function newTransactionId() {
    sequence += 1;
    return `4200${beijingTime().slice(0, 10).replace(/-/g, "")}${String(sequence).padStart(6, "0")}${crypto.randomInt(10 ** 6).toString().padStart(6, "0")}`.slice(0, 28);
  }

  function tradeAnswer(trade: FakeTrade) {
    const paid = trade.state === "SUCCESS" || trade.state === "REFUND";
    return {
      appid: trade.appid,
      mchid: trade.mchid,
      out_trade_no: trade.outTradeNo,
      ...(paid ? { transaction_id: trade.transactionId } : {}),
      trade_type: "JSAPI",
      trade_state: trade.state,
      trade_state_desc: { SUCCESS: "支付成功", NOTPAY: "订单未支付", CLOSED: "订单已关闭", REFUND: "订单发生过退款", USERPAYING: "用户支付中", PAYERROR: "支付失败", REVOKED: "已撤销" }[trade.state],
      ...(paid
        ? {
            bank_type: "OTHERS",
            attach: "",
            success_time: trade.successTime,
            payer: { openid: trade.openid },
            amount: { total: trade.amountFen, payer_total: trade.payerTotalFen ?? trade.amountFen, currency: "CNY", payer_currency: "CNY" },
          }
        : { amount: { currency: "CNY", payer_currency: "CNY" } }),
      promotion_detail: [],
    };
  }

  function refundAnswer(refund: FakeRefund) {
    return {
      refund_id: refund.refundId,
      out_refund_no: refund.outRefundNo,
      transaction_id: refund.transactionId,
      out_trade_no: refund.outTradeNo,
      channel: "ORIGINAL",
      user_received_account: "支付用户零钱",
      ...(refund.successTime ? { success_time: refund.successTime } : {}),
      create_time: refund.createTime,
      status: refund.status,
      funds_account: "AVAILABLE",
      amount: {
        total: refund.totalFen,
        refund: refund.refundFen,
        payer_total: refund.totalFen,
        payer_refund: refund.refundFen,
        settlement_refund: refund.refundFen,
        settlement_total: refund.totalFen,
        discount_refund: 0,
        currency: "CNY",
        refund_fee: 0,
      },
      promotion_detail: [],
    };
  }

  function parseJson(body: string): Record<string, unknown> | null {
    try {
      const parsed: unknown = JSON.parse(body);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  function jsapi(body: string): Answer {
    const input = parseJson(body);
    if (!input) return fail(400, "PARAM_ERROR", "请求体不是合法的JSON");
    if (input.mchid !== merchant.mchid) return fail(400, "MCH_NOT_EXISTS", "商户号不存在");
    if (input.appid !== merchant.appId) return fail(400, "APPID_MCHID_NOT_MATCH", "appid和mch_id不匹配");
    const amount = input.amount as { total?: unknown; currency?: unknown } | undefined;
    const payer = input.payer as { openid?: unknown } | undefined;
    if (typeof input.description !== "string" || !input.description || Buffer.byteLength(input.description) > 127) return fail(400, "PARAM_ERROR", "description 格式错误");
    if (typeof input.out_trade_no !== "string" || !OUT_TRADE_NO.test(input.out_trade_no)) return fail(400, "PARAM_ERROR", "out_trade_no 格式错误");
    if (!isHttpsWithoutQuery(input.notify_url)) return fail(400, "PARAM_ERROR", "notify_url 格式错误");
    if (!amount || !Number.isSafeInteger(amount.total) || (amount.total as number) < 1) return fail(400, "PARAM_ERROR", "amount.total 格式错误");
    if (amount.currency !== undefined && amount.currency !== "CNY") return fail(400, "PARAM_ERROR", "amount.currency 格式错误");
    if (!payer || typeof payer.openid !== "string" || !payer.openid) return fail(400, "PARAM_ERROR", "payer.openid 格式错误");
    if (input.time_expire !== undefined && (typeof input.time_expire !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/.test(input.time_expire))) {
      return fail(400, "PARAM_ERROR", "time_expire 格式错误");
    }
    const existing = trades.get(input.out_trade_no);
    if (existing) {
      if (existing.state === "SUCCESS" || existing.state === "REFUND") return fail(400, "ORDERPAID", "该订单已支付");
      if (existing.state === "CLOSED") return fail(400, "ORDER_CLOSED", "订单已关闭");
      if (existing.amountFen !== amount.total || existing.openid !== payer.openid || existing.description !== input.description) {
        return fail(403, "OUT_TRADE_NO_USED", "商户订单号重复");
      }
      return new Answer(200, { prepay_id: existing.prepayId });
    }
    const prepayId = `wx${beijingTime().slice(0, 19).replace(/\D/g, "")}${crypto.randomBytes(11).toString("hex")}`;
    trades.set(input.out_trade_no, {
      appid: merchant.appId,
      mchid: merchant.mchid,
      outTradeNo: input.out_trade_no,
      description: input.description,
      notifyUrl: input.notify_url as string,
      amountFen: amount.total as number,
      openid: payer.openid,
      prepayId,
      timeExpire: input.time_expire as string | undefined,
      state: "NOTPAY",
      refundedFen: 0,
    });
    return new Answer(200, { prepay_id: prepayId });
  }

  function query(outTradeNo: string, search: URLSearchParams): Answer {
    if (search.get("mchid") !== merchant.mchid) return fail(400, "PARAM_ERROR", "mchid 与请求不符");
    const trade = trades.get(outTradeNo);
    if (!trade) return fail(404, "ORDER_NOT_EXIST", "订单不存在");
    return new Answer(200, tradeAnswer(trade));
  }

  function closeTrade(outTradeNo: string, body: string): Answer {
    const input = parseJson(body);
    if (!input || input.mchid !== merchant.mchid) return fail(400, "PARAM_ERROR", "mchid 与请求不符");
    const trade = trades.get(outTradeNo);
    if (!trade) return fail(404, "ORDER_NOT_EXIST", "订单不存在");
    if (trade.state === "SUCCESS" || trade.state === "REFUND") return fail(400, "ORDERPAID", "订单已支付");
    trade.state = "CLOSED";
    return new Answer(204, null);
  }

  function refund(body: string): Answer {
    const input = parseJson(body);
    if (!input) return fail(400, "PARAM_ERROR", "请求体不是合法的JSON");
    const amount = input.amount as { refund?: unknown; total?: unknown; currency?: unknown } | undefined;
    if (typeof input.out_refund_no !== "string" || !OUT_REFUND_NO.test(input.out_refund_no)) return fail(400, "PARAM_ERROR", "out_refund_no 格式错误");
    if (typeof input.out_trade_no !== "string") return fail(400, "PARAM_ERROR", "out_trade_no 格式错误");
    if (!amount || !Number.isSafeInteger(amount.refund) || !Number.isSafeInteger(amount.total) || (amount.refund as number) < 1) {
      return fail(400, "PARAM_ERROR", "amount 格式错误");
    }
    if (amount.currency !== "CNY") return fail(400, "PARAM_ERROR", "amount.currency 格式错误");
    if (input.notify_url !== undefined && !isHttpsWithoutQuery(input.notify_url)) return fail(400, "PARAM_ERROR", "notify_url 格式错误");
    if (input.reason !== undefined && (typeof input.reason !== "string" || Buffer.byteLength(input.reason) > 80)) return fail(400, "PARAM_ERROR", "reason 格式错误");
    const existing = refunds.get(input.out_refund_no);
    if (existing) {
      if (existing.outTradeNo !== input.out_trade_no || existing.refundFen !== amount.refund) return fail(400, "INVALID_REQUEST", "商户退款单号重复");
      return new Answer(200, refundAnswer(existing));
    }
    const trade = trades.get(input.out_trade_no);
    if (!trade) return fail(404, "RESOURCE_NOT_EXISTS", "订单不存在");
    if (trade.state !== "SUCCESS" && trade.state !== "REFUND") return fail(400, "INVALID_REQUEST", "订单未支付");
    if (amount.total !== trade.amountFen) return fail(400, "PARAM_ERROR", "订单金额与原订单不符");
    if (trade.refundedFen + (amount.refund as number) > trade.amountFen) return fail(400, "INVALID_REQUEST", "申请退款金额超过订单可退金额");
    trade.refundedFen += amount.refund as number;
    trade.state = "REFUND";
    sequence += 1;
    const status = options.refundStatus ?? "PROCESSING";
    const created: FakeRefund = {
      outRefundNo: input.out_refund_no,
      refundId: `5030${String(sequence).padStart(6, "0")}${crypto.randomInt(10 ** 9).toString().padStart(9, "0")}`,
      outTradeNo: trade.outTradeNo,
      transactionId: trade.transactionId!,
      refundFen: amount.refund as number,
      totalFen: trade.amountFen,
      reason: typeof input.reason === "string" ? input.reason : undefined,
      notifyUrl: input.notify_url as string | undefined,
      status,
      createTime: beijingTime(),
      ...(status === "SUCCESS" ? { successTime: beijingTime() } : {}),
    };
    refunds.set(created.outRefundNo, created);
    return new Answer(200, refundAnswer(created));
  }

  function refundQuery(outRefundNo: string): Answer {
    const found = refunds.get(outRefundNo);
    if (!found) return fail(404, "RESOURCE_NOT_EXISTS", "退款单不存在");
    return new Answer(200, refundAnswer(found));
  }

  /** The payments and refunds that succeeded on a Beijing day, by their success times. */
  function billEntries(day: string): BillEntry[] {
    const onDay = (time: string | undefined) => Boolean(time) && beijingTime(Date.parse(time!)).slice(0, 10) === day;
    const entries: BillEntry[] = [];
    for (const trade of trades.values()) {
      if (!trade.transactionId || !onDay(trade.successTime)) continue;
      entries.push({ kind: "payment", outTradeNo: trade.outTradeNo, transactionId: trade.transactionId, outRefundNo: null, refundId: null, fen: trade.amountFen, at: new Date(Date.parse(trade.successTime!)).toISOString() });
    }
    for (const found of refunds.values()) {
      if (found.status !== "SUCCESS" || !onDay(found.successTime)) continue;
      entries.push({ kind: "refund", outTradeNo: found.outTradeNo, transactionId: found.transactionId, outRefundNo: found.outRefundNo, refundId: found.refundId, fen: found.refundFen, at: new Date(Date.parse(found.successTime!)).toISOString() });
    }
    return entries;
  }

  function tradeBill(search: URLSearchParams): Answer {
    const day = search.get("bill_date") ?? "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return fail(400, "PARAM_ERROR", "账单日期格式不正确");
    const type = search.get("bill_type") ?? "ALL";
    if (!["ALL", "SUCCESS", "REFUND"].includes(type)) return fail(400, "PARAM_ERROR", "账单类型不正确");
    const entries = billEntries(day).filter((entry) => type === "ALL" || (type === "SUCCESS") === (entry.kind === "payment"));
    if (entries.length === 0) return fail(400, "NO_STATEMENT_EXIST", "账单文件不存在");
    const text = formatTradeBill(entries, merchant);
    const token = crypto.randomBytes(24).toString("base64url");
    bills.set(token, text);
    return new Answer(200, {
      hash_type: "SHA1",
      hash_value: crypto.createHash("sha1").update(text, "utf8").digest("hex"),
      download_url: `http://127.0.0.1:${port}/v3/billdownload/file?token=${token}`,
    });
  }

  function route(method: string, pathname: string): { endpoint: FakePayEndpoint; key?: string } | null {
    if (method === "GET" && pathname === "/v3/bill/tradebill") return { endpoint: "tradebill" };
    if (method === "GET" && pathname === "/v3/billdownload/file") return { endpoint: "billDownload" };
    if (method === "POST" && pathname === "/v3/pay/transactions/jsapi") return { endpoint: "jsapi" };
    let match = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(pathname);
    if (method === "GET" && match) return { endpoint: "query", key: decodeURIComponent(match[1]) };
    match = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(pathname);
    if (method === "POST" && match) return { endpoint: "close", key: decodeURIComponent(match[1]) };
    if (method === "POST" && pathname === "/v3/refund/domestic/refunds") return { endpoint: "refund" };
    match = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(pathname);
    if (method === "GET" && match) return { endpoint: "refundQuery", key: decodeURIComponent(match[1]) };
    return null;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const url = new URL(req.url ?? "/", "http://fake");
        const method = req.method ?? "GET";
        const record = (status: number, answer?: Answer) => {
          const code = answer && answer.status >= 400 ? (answer.body as { code?: string }).code : undefined;
          requests.push({ method, path: req.url ?? "", status, code });
        };
        if (!checkAuthorization(req, body)) {
          const answer = fail(401, "SIGN_ERROR", "签名错误");
          record(401, answer);
          return send(res, answer);
        }
        const target = route(method, url.pathname);
        if (!target) {
          const answer = fail(404, "NOT_FOUND", "接口不存在");
          record(404, answer);
          return send(res, answer);
        }
        let mode: Parameters<typeof send>[2] = "valid";
        const failure = failures[target.endpoint].shift();
        if (failure?.kind === "error") {
          const answer = fail(failure.status, failure.code, failure.message ?? failure.code);
          record(failure.status, answer);
          return send(res, answer);
        }
        if (failure?.kind === "slow") await new Promise((resolve) => setTimeout(resolve, failure.ms));
        if (failure?.kind === "held") {
          failure.arrived();
          await failure.until;
        }
        if (failure?.kind === "badSignature") mode = "bad";
        if (failure?.kind === "unsigned") mode = "unsigned";
        if (failure?.kind === "staleSignature") mode = "stale";
        if (failure?.kind === "garbage") mode = "garbage";
        if (target.endpoint === "billDownload") {
          // The file itself: no platform signature (the signed answer's SHA-1 vouches for it).
          const text = bills.get(url.searchParams.get("token") ?? "");
          record(text === undefined ? 404 : 200);
          res.writeHead(text === undefined ? 404 : 200, { "Content-Type": "text/plain; charset=utf-8" });
          return res.end(failure?.kind === "garbage" ? `${text ?? ""}x` : (text ?? ""));
        }
        const answer =
          target.endpoint === "jsapi"
            ? jsapi(body)
            : target.endpoint === "query"
              ? query(target.key!, url.searchParams)
              : target.endpoint === "close"
                ? closeTrade(target.key!, body)
                : target.endpoint === "refund"
                  ? refund(body)
                  : target.endpoint === "tradebill"
                    ? tradeBill(url.searchParams)
                    : refundQuery(target.key!);
        record(answer.status, answer);
        if (!res.destroyed) send(res, answer, mode);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  function tradeOf(outTradeNo: string) {
    const trade = trades.get(outTradeNo);
    if (!trade) throw new Error(`fake pay: no trade ${outTradeNo}`);
    return trade;
  }

  function signNotification(eventType: string, summary: string, originalType: string, plaintext: object, opts: NotificationOptions): SignedNotification {
    const resource = encryptResource(JSON.stringify(plaintext), opts.apiV3Key ?? merchant.apiV3Key, {
      associatedData: originalType,
      originalType,
    });
    if (opts.tamperCiphertext) {
      const bytes = Buffer.from(resource.ciphertext, "base64");
      bytes[0] ^= 0x01;
      resource.ciphertext = bytes.toString("base64");
    }
    const id = crypto.randomUUID();
    const body = JSON.stringify({
      id,
      create_time: beijingTime(),
      resource_type: "encrypt-resource",
      event_type: eventType,
      summary,
      resource: {
        original_type: resource.original_type,
        algorithm: resource.algorithm,
        ciphertext: resource.ciphertext,
        associated_data: resource.associated_data,
        nonce: resource.nonce,
      },
    });
    const timestamp = unixSeconds(Date.now() + (opts.timestampOffsetSeconds ?? 0) * 1000);
    const headers: Record<string, string> = signAsPlatform({ body, privateKey: platform.privateKey, publicKeyId: opts.serial ?? platformPublicKeyId, timestamp });
    if (opts.signature === "bad") {
      headers["Wechatpay-Signature"] = signAsPlatform({ body: `${body} `, privateKey: platform.privateKey, publicKeyId: platformPublicKeyId, timestamp })["Wechatpay-Signature"];
    }
    if (opts.signature === "signtest") headers["Wechatpay-Signature"] = `WECHATPAY/SIGNTEST/${headers["Wechatpay-Signature"]}`;
    headers["Content-Type"] = "application/json";
    return { id, headers, body };
  }

  const fake: FakeWechatPay = {
    url: `http://127.0.0.1:${port}`,
    platform,
    platformPublicKeyId,
    trades,
    refunds,
    requests,

    markPaid(outTradeNo, opts = {}) {
      const trade = tradeOf(outTradeNo);
      if (trade.state === "CLOSED") throw new Error(`fake pay: ${outTradeNo} is closed`);
      if (trade.state !== "SUCCESS" && trade.state !== "REFUND") {
        trade.state = "SUCCESS";
        trade.transactionId = newTransactionId();
        trade.successTime = beijingTime();
        trade.payerTotalFen = opts.payerTotalFen ?? trade.amountFen;
        if (opts.payerOpenid) trade.openid = opts.payerOpenid;
      }
      return trade;
    },

    setTradeState(outTradeNo, state) {
      const trade = tradeOf(outTradeNo);
      trade.state = state;
      if ((state === "SUCCESS" || state === "REFUND") && !trade.transactionId) {
        trade.transactionId = newTransactionId();
        trade.successTime = beijingTime();
      }
      return trade;
    },

    completeRefund(outRefundNo, status = "SUCCESS") {
      const found = refunds.get(outRefundNo);
      if (!found) throw new Error(`fake pay: no refund ${outRefundNo}`);
      found.status = status;
      if (status === "SUCCESS") found.successTime ??= beijingTime();
      return found;
    },

    failNext(endpoint, failure) {
      failures[endpoint].push(failure);
    },

    transactionNotification(outTradeNo, opts = {}) {
      const trade = tradeOf(outTradeNo);
      if (!trade.transactionId) throw new Error(`fake pay: ${outTradeNo} is not paid (markPaid first)`);
      return signNotification("TRANSACTION.SUCCESS", "支付成功", "transaction", {
        mchid: opts.mchid ?? trade.mchid,
        appid: opts.appid ?? trade.appid,
        out_trade_no: trade.outTradeNo,
        transaction_id: trade.transactionId,
        trade_type: "JSAPI",
        trade_state: "SUCCESS",
        trade_state_desc: "支付成功",
        bank_type: "OTHERS",
        attach: "",
        success_time: trade.successTime,
        payer: { openid: trade.openid },
        amount: {
          total: opts.amountFen ?? trade.amountFen,
          payer_total: opts.amountFen ?? trade.payerTotalFen ?? trade.amountFen,
          currency: "CNY",
          payer_currency: "CNY",
        },
      }, opts);
    },

    refundNotification(outRefundNo, opts = {}) {
      const found = refunds.get(outRefundNo);
      if (!found) throw new Error(`fake pay: no refund ${outRefundNo}`);
      if (found.status === "PROCESSING") throw new Error(`fake pay: refund ${outRefundNo} is processing (completeRefund first)`);
      return signNotification(`REFUND.${found.status}`, { SUCCESS: "退款成功", ABNORMAL: "退款异常", CLOSED: "退款关闭" }[found.status], "refund", {
        mchid: opts.mchid ?? merchant.mchid,
        out_trade_no: found.outTradeNo,
        transaction_id: found.transactionId,
        out_refund_no: found.outRefundNo,
        refund_id: found.refundId,
        refund_status: found.status,
        ...(found.successTime ? { success_time: found.successTime } : {}),
        user_received_account: "支付用户零钱",
        amount: { total: found.totalFen, refund: opts.amountFen ?? found.refundFen, payer_total: found.totalFen, payer_refund: opts.amountFen ?? found.refundFen },
      }, opts);
    },

    async deliver(url, notification, times = 1) {
      const answers: Delivery[] = [];
      for (let i = 0; i < times; i += 1) {
        const response = await fetch(url, {
          method: "POST",
          headers: { ...notification.headers, "User-Agent": "Mozilla/4.0" },
          body: notification.body,
          redirect: "manual",
          signal: AbortSignal.timeout(10_000),
        });
        answers.push({ status: response.status, body: await response.text() });
      }
      return answers;
    },

    notifyPayment(url, outTradeNo, opts = {}) {
      return fake.deliver(url, fake.transactionNotification(outTradeNo, opts), opts.times ?? 1);
    },

    notifyRefund(url, outRefundNo, opts = {}) {
      return fake.deliver(url, fake.refundNotification(outRefundNo, opts), opts.times ?? 1);
    },

    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
  return fake;
}
