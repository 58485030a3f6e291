// The real payment provider: the messenger's pay API v3, JSAPI, direct merchant
// (docs/protocols/messenger.md, "Pay API v3"). Every request is signed with the merchant key;
// every answer's platform signature is verified before it is read; notifications are verified,
// decrypted and checked against our merchant and app. The base URL is configuration, so tests
// run this code unchanged against tests/fakes/wechatpay-server.ts.
// Logged: operation, HTTP status, the provider's error code. Never keys, signatures, openids or bodies.
import crypto from "node:crypto";
import * as z from "zod";
import { parseTradeBill } from "~/lib/trade-bill";
import type { WechatPaySettings } from "../config.server";
import { log } from "../log.server";
import { NotificationError, PayError, payErrorFor } from "./errors.server";
import { REFUND_REASON_MAX_BYTES, checkCreateInput, checkOutRefundNo, checkOutTradeNo, checkRefundInput, rfc3339Shanghai, truncateUtf8 } from "./input.server";
import type {
  CreateJsapiInput,
  PaymentProvider,
  RefundInput,
  RefundResult,
  TradeQueryResult,
  VerifiedNotification,
} from "./provider.server";
import {
  buildAuthorization,
  buildPayParams,
  decryptResource,
  readWechatpayHeaders,
  verifyWechatpaySignature,
  type HeadersLike,
} from "./wechatpay-sign.server";

const USER_AGENT = "campus-app (wechatpay-apiv3; node)";

const TradeStateSchema = z.enum(["SUCCESS", "NOTPAY", "CLOSED", "REFUND", "USERPAYING", "PAYERROR", "REVOKED"]);
const RefundStatusSchema = z.enum(["PROCESSING", "SUCCESS", "ABNORMAL", "CLOSED"]);

const PrepayAnswer = z.object({ prepay_id: z.string().min(1) });

const BillAnswer = z.object({ hash_type: z.literal("SHA1"), hash_value: z.string().regex(/^[0-9a-f]{40}$/i), download_url: z.string().url() });

const TradeAnswer = z.object({
  mchid: z.string(),
  out_trade_no: z.string(),
  trade_state: TradeStateSchema,
  transaction_id: z.string().min(1).optional(),
  success_time: z.string().optional(),
  payer: z.object({ openid: z.string().optional() }).optional(),
  amount: z.object({ total: z.number().int().optional() }).optional(),
});

const RefundAnswer = z.object({
  refund_id: z.string().min(1),
  out_refund_no: z.string(),
  out_trade_no: z.string().optional(),
  status: RefundStatusSchema,
  success_time: z.string().optional(),
  amount: z.object({ refund: z.number().int(), total: z.number().int().optional() }).optional(),
});

const NotificationBody = z.object({
  id: z.string(),
  event_type: z.string(),
  resource_type: z.string().optional(),
  resource: z.object({
    algorithm: z.string(),
    ciphertext: z.string(),
    nonce: z.string(),
    associated_data: z.string().optional(),
    original_type: z.string().optional(),
  }),
});

const TransactionResource = z.object({
  appid: z.string(),
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().min(1),
  trade_state: z.literal("SUCCESS"),
  success_time: z.string(),
  payer: z.object({ openid: z.string().min(1) }),
  amount: z.object({ total: z.number().int(), payer_total: z.number().int().optional() }),
});

const RefundResource = z.object({
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  out_refund_no: z.string(),
  refund_id: z.string().min(1),
  refund_status: z.enum(["SUCCESS", "ABNORMAL", "CLOSED"]),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int(), refund: z.number().int() }),
});

const REFUND_EVENTS = ["REFUND.SUCCESS", "REFUND.ABNORMAL", "REFUND.CLOSED"] as const;

/**
 * Verifies, decrypts and reads one notification of the pay API for this merchant. Throws a
 * NotificationError saying why it cannot be trusted or used. `now` is for tests.
 */
export function parseWechatpayNotification(
  settings: Pick<WechatPaySettings, "appId" | "mchid" | "apiV3Key" | "platformPublicKey" | "platformPublicKeyId">,
  headers: HeadersLike,
  rawBody: string,
  now: number = Date.now(),
): VerifiedNotification {
  verifyWechatpaySignature({ headers, body: rawBody, publicKey: settings.platformPublicKey, publicKeyId: settings.platformPublicKeyId, now });
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new NotificationError("MALFORMED", "not JSON");
  }
  const body = NotificationBody.safeParse(json);
  if (!body.success) throw new NotificationError("MALFORMED", "not a notification");
  const eventType = body.data.event_type;
  const isRefund = (REFUND_EVENTS as readonly string[]).includes(eventType);
  if (eventType !== "TRANSACTION.SUCCESS" && !isRefund) throw new NotificationError("UNSUPPORTED_EVENT", eventType, { eventType });
  if (body.data.resource_type !== undefined && body.data.resource_type !== "encrypt-resource") {
    throw new NotificationError("MALFORMED", "not an encrypted resource");
  }
  const plaintext = decryptResource(body.data.resource, settings.apiV3Key);
  let resource: unknown;
  try {
    resource = JSON.parse(plaintext);
  } catch {
    throw new NotificationError("MALFORMED", "resource is not JSON");
  }

  if (!isRefund) {
    const parsed = TransactionResource.safeParse(resource);
    if (!parsed.success) throw new NotificationError("MALFORMED", "not a successful transaction");
    const data = parsed.data;
    if (data.mchid !== settings.mchid) throw new NotificationError("WRONG_MERCHANT");
    if (data.appid !== settings.appId) throw new NotificationError("WRONG_APP");
    return {
      eventType: "TRANSACTION.SUCCESS",
      id: body.data.id,
      outTradeNo: data.out_trade_no,
      transactionId: data.transaction_id,
      amountFen: data.amount.total,
      payerTotalFen: data.amount.payer_total,
      mchid: data.mchid,
      appid: data.appid,
      payerOpenid: data.payer.openid,
      successTime: data.success_time,
    };
  }
  const parsed = RefundResource.safeParse(resource);
  if (!parsed.success) throw new NotificationError("MALFORMED", "not a refund");
  const data = parsed.data;
  if (data.mchid !== settings.mchid) throw new NotificationError("WRONG_MERCHANT");
  if (`REFUND.${data.refund_status}` !== eventType) throw new NotificationError("MALFORMED", "refund_status does not match event_type");
  return {
    eventType: eventType as (typeof REFUND_EVENTS)[number],
    id: body.data.id,
    mchid: data.mchid,
    outTradeNo: data.out_trade_no,
    transactionId: data.transaction_id,
    outRefundNo: data.out_refund_no,
    refundId: data.refund_id,
    refundStatus: data.refund_status,
    refundFen: data.amount.refund,
    totalFen: data.amount.total,
    successTime: data.success_time,
  };
}

/** fetch failed because the connection was closed or reset under it (not a refusal, not a timeout). */
function isClosedConnection(error: unknown) {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === "string" && ["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"].includes(cause.code);
}

export function createWechatPayProvider(settings: WechatPaySettings): PaymentProvider {
  const baseUrl = settings.baseUrl.replace(/\/+$/, "");

  /** One signed call; the answer's signature verified; error answers as PayError. */
  async function call(op: string, method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    const url = `${baseUrl}${path}`;
    const bodyText = body === undefined ? "" : JSON.stringify(body);
    const target = new URL(url);
    let status = 0;
    let text = "";
    let answerHeaders = new Headers();
    for (let attempt = 1; ; attempt += 1) {
      const authorization = buildAuthorization({
        mchid: settings.mchid,
        serialNo: settings.serialNo,
        privateKey: settings.privateKey,
        method,
        pathWithQuery: `${target.pathname}${target.search}`,
        body: bodyText,
      });
      const headers: Record<string, string> = { Authorization: authorization, Accept: "application/json", "User-Agent": USER_AGENT };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      try {
        const response = await fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : bodyText,
          redirect: "error",
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        status = response.status;
        answerHeaders = response.headers;
        text = await response.text();
        break;
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
        // A pooled keep-alive connection the other side had already closed (its idle timeout
        // met ours) fails at once with "other side closed": send again, once, on a new one.
        // Every call is keyed by its out_trade_no / out_refund_no, so a repeat is harmless.
        if (!timedOut && attempt === 1 && isClosedConnection(error)) {
          log("info", "wechatpay-retry-closed-connection", { op });
          continue;
        }
        log("warn", "wechatpay-unreachable", { op, timedOut, error: timedOut ? undefined : errorName(error) });
        throw new PayError(timedOut ? "TIMEOUT" : "NETWORK", op);
      }
    }

    const ok = status >= 200 && status < 300;
    // Success answers must carry a valid platform signature. Error answers are read even unsigned
    // (a gateway's 5xx has none); one that claims a signature must still verify.
    if (ok || readWechatpayHeaders(answerHeaders)) {
      try {
        verifyWechatpaySignature({
          headers: answerHeaders,
          body: text,
          publicKey: settings.platformPublicKey,
          publicKeyId: settings.platformPublicKeyId,
        });
      } catch (error) {
        const reason = error instanceof NotificationError ? error.code : "UNKNOWN";
        log("warn", "wechatpay-answer-unverified", { op, status, reason });
        throw new PayError("BAD_RESPONSE_SIGNATURE", `${op}: ${reason}`, { status });
      }
    }

    let json: unknown = null;
    if (text.trim()) {
      try {
        json = JSON.parse(text);
      } catch {
        if (ok) {
          log("warn", "wechatpay-answer-unparsable", { op, status, length: text.length });
          throw new PayError("BAD_RESPONSE", `${op}: not JSON`, { status });
        }
      }
    }
    if (!ok) {
      const providerCode =
        json && typeof json === "object" && typeof (json as { code?: unknown }).code === "string" ? (json as { code: string }).code : undefined;
      const error = payErrorFor(status, providerCode);
      log("warn", "wechatpay-api-error", { op, status, code: providerCode, mapped: error.code });
      throw error;
    }
    return json;
  }

  function read<T>(op: string, schema: z.ZodType<T>, answer: unknown): T {
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      log("warn", "wechatpay-answer-invalid", { op, fields: answer && typeof answer === "object" ? Object.keys(answer).sort() : typeof answer });
      throw new PayError("BAD_RESPONSE", `${op}: unexpected answer`);
    }
    return parsed.data;
  }

  function refundResult(op: string, answer: unknown, outRefundNo: string): RefundResult {
    const data = read(op, RefundAnswer, answer);
    if (data.out_refund_no !== outRefundNo) throw new PayError("BAD_RESPONSE", `${op}: another refund`);
    return {
      status: data.status,
      refundId: data.refund_id,
      outRefundNo: data.out_refund_no,
      outTradeNo: data.out_trade_no,
      refundFen: data.amount?.refund,
      successTime: data.success_time,
    };
  }

  /**
   * The bill's file from its download address: signed like any call, but its answer carries no
   * platform signature (the API documents it so); the SHA-1 the signed answer gave vouches for
   * it instead. Only an address on the API's own host is fetched.
   */
  async function download(op: string, address: string, sha1: string): Promise<string> {
    const target = new URL(address);
    if (target.origin !== new URL(baseUrl).origin) throw new PayError("BAD_RESPONSE", `${op}: download elsewhere`);
    const authorization = buildAuthorization({
      mchid: settings.mchid,
      serialNo: settings.serialNo,
      privateKey: settings.privateKey,
      method: "GET",
      pathWithQuery: `${target.pathname}${target.search}`,
      body: "",
    });
    let response: Response;
    try {
      response = await fetch(target, { headers: { Authorization: authorization, Accept: "*/*", "User-Agent": USER_AGENT }, redirect: "error", signal: AbortSignal.timeout(settings.timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      log("warn", "wechatpay-unreachable", { op, timedOut });
      throw new PayError(timedOut ? "TIMEOUT" : "NETWORK", op);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    if (!response.ok) throw payErrorFor(response.status, undefined);
    if (crypto.createHash("sha1").update(bytes).digest("hex") !== sha1.toLowerCase()) {
      log("warn", "wechatpay-bill-hash-mismatch", { op, length: bytes.length });
      throw new PayError("BAD_RESPONSE", `${op}: hash differs`);
    }
    return bytes.toString("utf8");
  }

  const tradePath = (outTradeNo: string) => `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}`;

  return {
    kind: "wechatpay",

    async createJsapi(input: CreateJsapiInput) {
      checkCreateInput(input);
      const answer = await call("jsapi", "POST", "/v3/pay/transactions/jsapi", {
        appid: settings.appId,
        mchid: settings.mchid,
        description: input.description,
        out_trade_no: input.outTradeNo,
        ...(input.expiresAt ? { time_expire: rfc3339Shanghai(input.expiresAt) } : {}),
        notify_url: settings.notifyUrl,
        amount: { total: input.amountFen, currency: "CNY" },
        payer: { openid: input.openid },
      });
      return { prepayId: read("jsapi", PrepayAnswer, answer).prepay_id };
    },

    payParams(prepayId: string) {
      if (!prepayId) throw new PayError("INVALID_INPUT", "prepayId is required");
      return buildPayParams({ appId: settings.appId, prepayId, privateKey: settings.privateKey });
    },

    async query(outTradeNo: string): Promise<TradeQueryResult> {
      checkOutTradeNo(outTradeNo);
      const answer = await call("query", "GET", `${tradePath(outTradeNo)}?mchid=${encodeURIComponent(settings.mchid)}`);
      const data = read("query", TradeAnswer, answer);
      if (data.out_trade_no !== outTradeNo || data.mchid !== settings.mchid) throw new PayError("BAD_RESPONSE", "query: another order");
      return {
        state: data.trade_state,
        transactionId: data.transaction_id,
        amountFen: data.amount?.total,
        payerOpenid: data.payer?.openid,
        successTime: data.success_time,
      };
    },

    async close(outTradeNo: string) {
      checkOutTradeNo(outTradeNo);
      await call("close", "POST", `${tradePath(outTradeNo)}/close`, { mchid: settings.mchid });
    },

    async refund(input: RefundInput) {
      checkRefundInput(input);
      const answer = await call("refund", "POST", "/v3/refund/domestic/refunds", {
        out_trade_no: input.outTradeNo,
        out_refund_no: input.outRefundNo,
        ...(input.reason?.trim() ? { reason: truncateUtf8(input.reason.trim(), REFUND_REASON_MAX_BYTES) } : {}),
        notify_url: settings.notifyUrl,
        amount: { refund: input.refundFen, total: input.totalFen, currency: "CNY" },
      });
      return refundResult("refund", answer, input.outRefundNo);
    },

    async tradeBill(day: string) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new PayError("INVALID_INPUT", "bill_date");
      let answer: unknown;
      try {
        answer = await call("tradebill", "GET", `/v3/bill/tradebill?bill_date=${day}&bill_type=ALL`);
      } catch (error) {
        // No trade that day: the API answers NO_STATEMENT_EXIST rather than an empty file.
        if (error instanceof PayError && error.providerCode === "NO_STATEMENT_EXIST") return [];
        throw error;
      }
      const bill = read("tradebill", BillAnswer, answer);
      const parsed = parseTradeBill(await download("tradebill", bill.download_url, bill.hash_value));
      if (!parsed) throw new PayError("BAD_RESPONSE", "tradebill: unreadable file");
      return parsed.entries;
    },

    async queryRefund(outRefundNo: string) {
      checkOutRefundNo(outRefundNo);
      const answer = await call("refund-query", "GET", `/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`);
      return refundResult("refund-query", answer, outRefundNo);
    },

    async parseNotification(headers: HeadersLike, rawBody: string) {
      try {
        return parseWechatpayNotification(settings, headers, rawBody);
      } catch (error) {
        if (error instanceof NotificationError) log("warn", "wechatpay-notification-refused", { reason: error.code, eventType: error.eventType });
        throw error;
      }
    },
  };
}

function errorName(error: unknown) {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: { code?: string } }).cause;
  return cause?.code ? `${error.name} (${cause.code})` : error.name;
}
