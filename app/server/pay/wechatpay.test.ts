// The real provider against the fake pay API on loopback (tests/fakes/wechatpay-server.ts), with
// keys made here: signed requests, verified answers, pay params, query/close/refund, notifications
// and the mapping of failures to PayError.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkPayParams } from "~/lib/pay-params";
import {
  fakeMerchant,
  fakePayEnv,
  fakePayMerchantOption,
  generateRsaKeyPair,
  providerSettings,
  startFakeWechatPay,
  type FakeMerchant,
  type FakeWechatPay,
  type NotificationOptions,
} from "../../../tests/fakes/wechatpay-server";
import { parseConfig } from "../config.server";
import { NotificationError, PayError, payErrorFor } from "./errors.server";
import { notificationFailureAnswer } from "../http/pay-notify-answer";
import type { PaymentProvider, VerifiedNotification } from "./provider.server";
import { createWechatPayProvider, parseWechatpayNotification } from "./wechatpay.server";
import { paySignMessage, signAsPlatform, verifyMessage } from "./wechatpay-sign.server";
import { payError } from "../../../tests/setup/pay";

let merchant: FakeMerchant;
let fake: FakeWechatPay;
let provider: PaymentProvider;
let counter = 0;

function orderNo() {
  counter += 1;
  return `E20250101${String(counter).padStart(6, "0")}`;
}

function order(overrides: Partial<Parameters<PaymentProvider["createJsapi"]>[0]> = {}) {
  return {
    outTradeNo: orderNo(),
    description: "校园帮-快递代取",
    amountFen: 350,
    openid: "oFakePayer000000000000000001",
    expiresAt: new Date(Date.now() + 2 * 3600_000),
    ...overrides,
  };
}

beforeAll(async () => {
  merchant = fakeMerchant();
  fake = await startFakeWechatPay({ merchant: fakePayMerchantOption(merchant) });
  provider = createWechatPayProvider(providerSettings(fake, merchant));
});

afterAll(async () => {
  await fake.close();
});

describe("paying", () => {
  it("runs from the configuration the app would read (PEM text in the environment)", async () => {
    const pay = parseConfig({ NODE_ENV: "test", ...fakePayEnv(fake, merchant) }).pay;
    expect(pay.mode).toBe("real");
    const configured = createWechatPayProvider(pay.merchant!);
    const input = order();
    const { prepayId } = await configured.createJsapi(input);
    const params = configured.payParams(prepayId);
    expect(verifyMessage(paySignMessage(params), params.paySign, merchant.keys.publicKey)).toBe(true);
    fake.markPaid(input.outTradeNo);
    const notification = fake.transactionNotification(input.outTradeNo);
    expect(await configured.parseNotification(new Headers(notification.headers), notification.body)).toMatchObject({ outTradeNo: input.outTradeNo, amountFen: 350 });
  });

  it("creates a prepay id with a signed request the fake accepts; the same input gives the same id", async () => {
    const input = order();
    const { prepayId } = await provider.createJsapi(input);
    expect(prepayId).toMatch(/^wx\d{14}[0-9a-f]{22}$/);
    const trade = fake.trades.get(input.outTradeNo)!;
    expect(trade).toMatchObject({
      appid: merchant.appId,
      mchid: merchant.mchid,
      amountFen: 350,
      openid: input.openid,
      description: "校园帮-快递代取",
      notifyUrl: "https://campus.example.cn/api/pay/wechat/notify",
      state: "NOTPAY",
    });
    expect(trade.timeExpire).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
    expect(await provider.createJsapi(input)).toEqual({ prepayId });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: "/v3/pay/transactions/jsapi", status: 200 });
  });

  it("gives the six pay params, paySign verifying with the merchant's public key", async () => {
    const { prepayId } = await provider.createJsapi(order());
    const params = provider.payParams(prepayId);
    const checked = checkPayParams(params);
    expect(checked.ok).toBe(true);
    expect(params).toMatchObject({ appId: merchant.appId, package: `prepay_id=${prepayId}`, signType: "RSA" });
    expect(params.timeStamp).toMatch(/^\d{10}$/);
    expect(verifyMessage(paySignMessage(params), params.paySign, merchant.keys.publicKey)).toBe(true);
    expect(verifyMessage(paySignMessage({ ...params, package: "prepay_id=other" }), params.paySign, merchant.keys.publicKey)).toBe(false);
  });

  it("queries NOTPAY, then SUCCESS with the transaction once the payer paid", async () => {
    const input = order({ amountFen: 1200 });
    await provider.createJsapi(input);
    expect(await provider.query(input.outTradeNo)).toEqual({ state: "NOTPAY" });
    const trade = fake.markPaid(input.outTradeNo);
    expect(await provider.query(input.outTradeNo)).toEqual({
      state: "SUCCESS",
      transactionId: trade.transactionId,
      amountFen: 1200,
      payerOpenid: input.openid,
      successTime: trade.successTime,
    });
    expect(fake.requests.at(-1)?.path).toBe(`/v3/pay/transactions/out-trade-no/${input.outTradeNo}?mchid=${merchant.mchid}`);
  });

  it.each(["USERPAYING", "PAYERROR", "REVOKED"] as const)("reports %s as it is", async (state) => {
    const input = order();
    await provider.createJsapi(input);
    fake.setTradeState(input.outTradeNo, state);
    expect((await provider.query(input.outTradeNo)).state).toBe(state);
  });

  it("closes an unpaid payment; a paid one is ORDER_PAID; a closed one cannot be created again", async () => {
    const unpaid = order();
    await provider.createJsapi(unpaid);
    await provider.close(unpaid.outTradeNo);
    expect(fake.trades.get(unpaid.outTradeNo)?.state).toBe("CLOSED");
    expect((await provider.query(unpaid.outTradeNo)).state).toBe("CLOSED");
    expect((await payError(provider.createJsapi(unpaid))).code).toBe("ORDER_CLOSED");

    const paid = order();
    await provider.createJsapi(paid);
    fake.markPaid(paid.outTradeNo);
    const error = await payError(provider.close(paid.outTradeNo));
    expect(error).toMatchObject({ code: "ORDER_PAID", providerCode: "ORDERPAID", status: 400, retryable: false });
    expect((await payError(provider.createJsapi(paid))).code).toBe("ORDER_PAID");
  });

  it("answers NOT_FOUND for an order the provider does not know", async () => {
    expect(await payError(provider.query("E20990101000001"))).toMatchObject({ code: "NOT_FOUND", providerCode: "ORDER_NOT_EXIST", status: 404 });
  });

  it("refuses bad input before sending anything", async () => {
    const before = fake.requests.length;
    for (const input of [
      order({ outTradeNo: "E1" }),
      order({ outTradeNo: "E2025?0101" }),
      order({ amountFen: 0 }),
      order({ amountFen: 1.5 }),
      order({ description: "" }),
      order({ description: "长".repeat(43) }),
      order({ openid: "" }),
    ]) {
      expect((await payError(provider.createJsapi(input))).code).toBe("INVALID_INPUT");
    }
    expect((await payError(provider.refund({ outTradeNo: "E20250101999999", outRefundNo: "R1", refundFen: 2, totalFen: 1 }))).code).toBe(
      "INVALID_INPUT",
    );
    expect(fake.requests.length).toBe(before);
  });
});

describe("refunds", () => {
  async function paidOrder(amountFen = 500) {
    const input = order({ amountFen });
    await provider.createJsapi(input);
    fake.markPaid(input.outTradeNo);
    return input;
  }

  it("starts a refund (PROCESSING), repeats it idempotently, and sees it succeed by query", async () => {
    const paid = await paidOrder();
    const outRefundNo = `R${paid.outTradeNo}`;
    const started = await provider.refund({ outTradeNo: paid.outTradeNo, outRefundNo, refundFen: 500, totalFen: 500, reason: "不需要了" });
    expect(started).toMatchObject({ status: "PROCESSING", outRefundNo, outTradeNo: paid.outTradeNo, refundFen: 500 });
    expect(started.refundId).toBeTruthy();
    expect(fake.refunds.get(outRefundNo)).toMatchObject({ reason: "不需要了", notifyUrl: "https://campus.example.cn/api/pay/wechat/notify" });
    const again = await provider.refund({ outTradeNo: paid.outTradeNo, outRefundNo, refundFen: 500, totalFen: 500, reason: "不需要了" });
    expect(again.refundId).toBe(started.refundId);
    expect(fake.refunds.size).toBeGreaterThan(0);
    expect((await provider.queryRefund(outRefundNo)).status).toBe("PROCESSING");
    fake.completeRefund(outRefundNo);
    expect(await provider.queryRefund(outRefundNo)).toMatchObject({ status: "SUCCESS", refundId: started.refundId, refundFen: 500 });
    expect((await provider.query(paid.outTradeNo)).state).toBe("REFUND");
  });

  it("cuts a long reason to the API's 80 bytes at a character boundary", async () => {
    const paid = await paidOrder(100);
    const outRefundNo = `R${paid.outTradeNo}`;
    await provider.refund({ outTradeNo: paid.outTradeNo, outRefundNo, refundFen: 100, totalFen: 100, reason: `a${"退".repeat(40)}` });
    const reason = fake.refunds.get(outRefundNo)!.reason!;
    expect(reason).toBe(`a${"退".repeat(26)}`);
    expect(Buffer.byteLength(reason)).toBe(79);
  });

  it("refuses a refund above what was paid and an unknown refund number", async () => {
    const paid = await paidOrder(300);
    await provider.refund({ outTradeNo: paid.outTradeNo, outRefundNo: `R${paid.outTradeNo}a`, refundFen: 200, totalFen: 300 });
    const error = await payError(provider.refund({ outTradeNo: paid.outTradeNo, outRefundNo: `R${paid.outTradeNo}b`, refundFen: 200, totalFen: 300 }));
    expect(error).toMatchObject({ code: "REJECTED", providerCode: "INVALID_REQUEST" });
    expect((await payError(provider.queryRefund("R-none"))).code).toBe("NOT_FOUND");
  });

  it("reads a refund the provider answers SUCCESS at once", async () => {
    const quick = await startFakeWechatPay({ merchant: fakePayMerchantOption(merchant), refundStatus: "SUCCESS" });
    try {
      const quickProvider = createWechatPayProvider(providerSettings(quick, merchant));
      const input = order({ amountFen: 100 });
      await quickProvider.createJsapi(input);
      quick.markPaid(input.outTradeNo);
      const result = await quickProvider.refund({ outTradeNo: input.outTradeNo, outRefundNo: `R${input.outTradeNo}`, refundFen: 100, totalFen: 100 });
      expect(result.status).toBe("SUCCESS");
      expect(result.successTime).toMatch(/\+08:00$/);
    } finally {
      await quick.close();
    }
  });
});

describe("the trade bill", () => {
  it("downloads a day's bill: payments and successful refunds by success day, read back from the file", async () => {
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const a = order({ amountFen: 350 });
    const b = order({ amountFen: 1200 });
    await provider.createJsapi(a);
    await provider.createJsapi(b);
    fake.markPaid(a.outTradeNo);
    fake.markPaid(b.outTradeNo);
    await provider.refund({ outTradeNo: b.outTradeNo, outRefundNo: `R${b.outTradeNo}`, refundFen: 200, totalFen: 1200 });
    fake.completeRefund(`R${b.outTradeNo}`);
    // A refund still processing is not in the bill.
    await provider.refund({ outTradeNo: a.outTradeNo, outRefundNo: `R${a.outTradeNo}`, refundFen: 100, totalFen: 350 });
    const entries = await provider.tradeBill(day);
    const mine = entries.filter((entry) => [a.outTradeNo, b.outTradeNo].includes(entry.outTradeNo));
    expect(mine.map((entry) => [entry.kind, entry.outTradeNo, entry.outRefundNo, entry.fen])).toEqual([
      ["payment", a.outTradeNo, null, 350],
      ["payment", b.outTradeNo, null, 1200],
      ["refund", b.outTradeNo, `R${b.outTradeNo}`, 200],
    ]);
    expect(mine.every((entry) => entry.transactionId === fake.trades.get(entry.outTradeNo)!.transactionId)).toBe(true);
    // Two signed requests: the bill's address, then its file.
    expect(fake.requests.slice(-2).map((request) => request.path.split("?")[0])).toEqual(["/v3/bill/tradebill", "/v3/billdownload/file"]);
  });

  it("is empty on a day without trades (NO_STATEMENT_EXIST), and refuses a file whose SHA-1 differs", async () => {
    expect(await provider.tradeBill("2020-01-01")).toEqual([]);
    const input = order({ amountFen: 100 });
    await provider.createJsapi(input);
    fake.markPaid(input.outTradeNo);
    fake.failNext("billDownload", { kind: "garbage" });
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect((await payError(provider.tradeBill(day))).code).toBe("BAD_RESPONSE");
    fake.failNext("tradebill", { kind: "badSignature" });
    expect((await payError(provider.tradeBill(day))).code).toBe("BAD_RESPONSE_SIGNATURE");
  });
});

describe("notifications", () => {
  // A notify endpoint as the order layer will build it: parse, acknowledge 204, or answer the failure.
  let receiver: http.Server;
  let notifyUrl: string;
  let received: VerifiedNotification[] = [];
  let refused: string[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        provider
          .parseNotification(req.headers, Buffer.concat(chunks).toString("utf8"))
          .then((notification) => {
            received.push(notification);
            res.writeHead(204).end();
          })
          .catch((error: unknown) => {
            if (!(error instanceof NotificationError)) {
              res.writeHead(500).end();
              return;
            }
            refused.push(error.code);
            const answer = notificationFailureAnswer(error);
            if (answer.body) res.writeHead(answer.status, { "Content-Type": "application/json" }).end(JSON.stringify(answer.body));
            else res.writeHead(answer.status).end();
          });
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/pay/wechat/notify`;
  });

  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
  });

  beforeEach(() => {
    received = [];
    refused = [];
  });

  async function paid(amountFen = 880) {
    const input = order({ amountFen });
    await provider.createJsapi(input);
    const trade = fake.markPaid(input.outTradeNo);
    return { input, trade };
  }

  it("reads a payment notification", async () => {
    const { input, trade } = await paid();
    const answers = await fake.notifyPayment(notifyUrl, input.outTradeNo);
    expect(answers).toEqual([{ status: 204, body: "" }]);
    expect(received).toEqual([
      {
        eventType: "TRANSACTION.SUCCESS",
        id: expect.any(String),
        outTradeNo: input.outTradeNo,
        transactionId: trade.transactionId,
        amountFen: 880,
        payerTotalFen: 880,
        mchid: merchant.mchid,
        appid: merchant.appId,
        payerOpenid: input.openid,
        successTime: trade.successTime,
      },
    ]);
  });

  it("reads the same notification delivered five times as five equal events (the order layer keeps it once)", async () => {
    const { input } = await paid();
    const answers = await fake.notifyPayment(notifyUrl, input.outTradeNo, { times: 5 });
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204, 204]);
    expect(received).toHaveLength(5);
    expect(new Set(received.map((event) => event.id)).size).toBe(1);
    expect(received.every((event) => JSON.stringify(event) === JSON.stringify(received[0]))).toBe(true);
  });

  it("reports the notified amount as it is, for the order layer to compare", async () => {
    const { input } = await paid(880);
    await fake.notifyPayment(notifyUrl, input.outTradeNo, { amountFen: 1 });
    expect(received[0]).toMatchObject({ outTradeNo: input.outTradeNo, amountFen: 1 });
  });

  it.each<[string, NotificationOptions, string, number]>([
    ["a bad signature", { signature: "bad" }, "BAD_SIGNATURE", 401],
    ["the SIGNTEST probe", { signature: "signtest" }, "SIGNTEST_PROBE", 401],
    ["a timestamp 10 minutes old", { timestampOffsetSeconds: -600 }, "STALE_TIMESTAMP", 401],
    ["a timestamp 10 minutes ahead", { timestampOffsetSeconds: 600 }, "STALE_TIMESTAMP", 401],
    ["another platform key id", { serial: "PUB_KEY_ID_someone_else" }, "UNKNOWN_SERIAL", 401],
    ["another merchant", { mchid: "1900000999" }, "WRONG_MERCHANT", 400],
    ["another app", { appid: "wxotherapp0000000" }, "WRONG_APP", 400],
    ["a tampered ciphertext", { tamperCiphertext: true }, "UNDECRYPTABLE", 400],
    ["another API v3 key", { apiV3Key: "ffffffffffffffffffffffffffffffff" }, "UNDECRYPTABLE", 400],
  ])("refuses %s", async (_name, options, code, status) => {
    const { input } = await paid();
    const answers = await fake.notifyPayment(notifyUrl, input.outTradeNo, options);
    expect(answers).toEqual([{ status, body: JSON.stringify({ code: "FAIL", message: code }) }]);
    expect(refused).toEqual([code]);
    expect(received).toEqual([]);
  });

  it("refuses a notification without the signature headers", async () => {
    const { input } = await paid();
    const notification = fake.transactionNotification(input.outTradeNo);
    const answers = await fake.deliver(notifyUrl, { ...notification, headers: { "Content-Type": "application/json" } });
    expect(answers[0].status).toBe(401);
    expect(refused).toEqual(["MISSING_HEADERS"]);
  });

  it("acknowledges a verified event it does not handle, and refuses a verified body that is not a notification", async () => {
    const settings = providerSettings(fake, merchant);
    const sign = (body: string) => signAsPlatform({ body, privateKey: fake.platform.privateKey, publicKeyId: fake.platformPublicKeyId });
    const other = JSON.stringify({ id: "EV-1", event_type: "TRANSACTION.CLOSED", resource_type: "encrypt-resource", resource: { algorithm: "AEAD_AES_256_GCM", ciphertext: "", nonce: "" } });
    let error = catchNotification(() => parseWechatpayNotification(settings, sign(other), other));
    expect(error).toMatchObject({ code: "UNSUPPORTED_EVENT", eventType: "TRANSACTION.CLOSED" });
    expect(notificationFailureAnswer(error)).toEqual({ status: 204, body: null });
    for (const body of ["not json", JSON.stringify({ id: "x" })]) {
      error = catchNotification(() => parseWechatpayNotification(settings, sign(body), body));
      expect(error.code).toBe("MALFORMED");
    }
  });

  it("reads refund notifications: success, abnormal, closed", async () => {
    for (const status of ["SUCCESS", "ABNORMAL", "CLOSED"] as const) {
      const { input, trade } = await paid(600);
      const outRefundNo = `R${input.outTradeNo}`;
      const started = await provider.refund({ outTradeNo: input.outTradeNo, outRefundNo, refundFen: 600, totalFen: 600, reason: "取消订单" });
      fake.completeRefund(outRefundNo, status);
      received = [];
      expect((await fake.notifyRefund(notifyUrl, outRefundNo))[0].status).toBe(204);
      expect(received).toEqual([
        {
          eventType: `REFUND.${status}`,
          id: expect.any(String),
          mchid: merchant.mchid,
          outTradeNo: input.outTradeNo,
          transactionId: trade.transactionId,
          outRefundNo,
          refundId: started.refundId,
          refundStatus: status,
          refundFen: 600,
          totalFen: 600,
          successTime: status === "SUCCESS" ? expect.stringMatching(/\+08:00$/) : undefined,
        },
      ]);
    }
  });

  it("refuses a refund notification for another merchant or with a bad signature", async () => {
    const { input } = await paid(200);
    const outRefundNo = `R${input.outTradeNo}`;
    await provider.refund({ outTradeNo: input.outTradeNo, outRefundNo, refundFen: 200, totalFen: 200 });
    fake.completeRefund(outRefundNo);
    await fake.notifyRefund(notifyUrl, outRefundNo, { mchid: "1900000999" });
    await fake.notifyRefund(notifyUrl, outRefundNo, { signature: "bad" });
    expect(refused).toEqual(["WRONG_MERCHANT", "BAD_SIGNATURE"]);
  });
});

function catchNotification(run: () => unknown): NotificationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(NotificationError);
    return error as NotificationError;
  }
  throw new Error("expected a NotificationError");
}

describe("PayError mapping", () => {
  it.each([
    [500, "SYSTEM_ERROR", "PROVIDER_UNAVAILABLE", true],
    [502, undefined, "PROVIDER_UNAVAILABLE", true],
    [429, "FREQUENCY_LIMITED", "RATE_LIMITED", true],
    [429, undefined, "RATE_LIMITED", true],
    [403, "NOAUTH", "NO_AUTH", false],
    [400, "APPID_MCHID_NOT_MATCH", "NO_AUTH", false],
    [403, "NOT_ENOUGH", "INSUFFICIENT_BALANCE", false],
    [403, "OUT_TRADE_NO_USED", "DUPLICATE", false],
    [400, "ORDERPAID", "ORDER_PAID", false],
    [400, "ORDER_CLOSED", "ORDER_CLOSED", false],
    [202, "USERPAYING", "USER_PAYING", true],
    [404, "ORDER_NOT_EXIST", "NOT_FOUND", false],
    [404, "RESOURCE_NOT_EXISTS", "NOT_FOUND", false],
    [404, undefined, "NOT_FOUND", false],
    [401, "SIGN_ERROR", "SIGN_ERROR", false],
    [401, undefined, "SIGN_ERROR", false],
    [400, "PARAM_ERROR", "REJECTED", false],
    [400, "INVALID_REQUEST", "REJECTED", false],
    [418, "SOMETHING_NEW", "REJECTED", false],
  ])("HTTP %i %s → %s", (status, providerCode, code, retryable) => {
    expect(payErrorFor(status, providerCode)).toMatchObject({ code, retryable, status, providerCode });
  });

  it("maps the fake's error answers", async () => {
    fake.failNext("jsapi", { kind: "error", status: 500, code: "SYSTEM_ERROR", message: "系统错误" });
    expect(await payError(provider.createJsapi(order()))).toMatchObject({ code: "PROVIDER_UNAVAILABLE", providerCode: "SYSTEM_ERROR", status: 500, retryable: true });
    fake.failNext("refund", { kind: "error", status: 403, code: "NOT_ENOUGH", message: "余额不足" });
    const error = await payError(provider.refund({ outTradeNo: orderNo(), outRefundNo: "R-x", refundFen: 1, totalFen: 1 }));
    expect(error.code).toBe("INSUFFICIENT_BALANCE");
    expect(error.message).not.toContain("余额不足");
  });

  it("maps the same order number with another amount to DUPLICATE", async () => {
    const input = order();
    await provider.createJsapi(input);
    expect((await payError(provider.createJsapi({ ...input, amountFen: input.amountFen + 1 }))).code).toBe("DUPLICATE");
  });

  it("is SIGN_ERROR when the merchant key does not match the configured serial's", async () => {
    const wrong = createWechatPayProvider(providerSettings(fake, merchant, { privateKey: generateRsaKeyPair().privateKey }));
    expect(await payError(wrong.createJsapi(order()))).toMatchObject({ code: "SIGN_ERROR", providerCode: "SIGN_ERROR", status: 401 });
    const otherSerial = createWechatPayProvider(providerSettings(fake, merchant, { serialNo: "0".repeat(40) }));
    expect((await payError(otherSerial.query("E20250101000001"))).code).toBe("SIGN_ERROR");
  });

  it.each([
    ["a bad signature", { kind: "badSignature" }, "BAD_RESPONSE_SIGNATURE"],
    ["no signature", { kind: "unsigned" }, "BAD_RESPONSE_SIGNATURE"],
    ["a signature 10 minutes old", { kind: "staleSignature" }, "BAD_RESPONSE_SIGNATURE"],
    ["a signed body that is not JSON", { kind: "garbage" }, "BAD_RESPONSE"],
  ] as const)("refuses an answer with %s", async (_name, failure, code) => {
    fake.failNext("jsapi", failure);
    expect((await payError(provider.createJsapi(order()))).code).toBe(code);
  });

  it("refuses answers signed by another platform key", async () => {
    const other = createWechatPayProvider(providerSettings(fake, merchant, { platformPublicKey: generateRsaKeyPair().publicKey }));
    expect((await payError(other.createJsapi(order()))).code).toBe("BAD_RESPONSE_SIGNATURE");
    const otherId = createWechatPayProvider(providerSettings(fake, merchant, { platformPublicKeyId: "PUB_KEY_ID_other" }));
    expect((await payError(otherId.createJsapi(order()))).code).toBe("BAD_RESPONSE_SIGNATURE");
  });

  it("sends again, once, when the connection is closed under the request (a stale keep-alive connection)", async () => {
    // A front that drops the first `drops` requests' connections without an answer and passes
    // the others to the fake, as a pay API whose idle timeout closed a pooled connection would.
    async function dropping(drops: number) {
      let seen = 0;
      const front = http.createServer((req, res) => {
        seen += 1;
        if (seen <= drops) {
          req.socket.destroy();
          return;
        }
        const upstream = http.request(`${fake.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        req.pipe(upstream);
      });
      await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      return { url, seen: () => seen, close: () => new Promise((resolve) => front.close(resolve)) };
    }
    const once = await dropping(1);
    try {
      const result = await createWechatPayProvider(providerSettings(fake, merchant, { baseUrl: once.url })).createJsapi(order());
      expect(result.prepayId).toMatch(/^wx/);
      expect(once.seen()).toBe(2);
    } finally {
      await once.close();
    }
    const always = await dropping(Number.POSITIVE_INFINITY);
    try {
      expect(await payError(createWechatPayProvider(providerSettings(fake, merchant, { baseUrl: always.url })).query("E20250101000001"))).toMatchObject({
        code: "NETWORK",
        retryable: true,
      });
      expect(always.seen()).toBe(2);
    } finally {
      await always.close();
    }
  });

  it("times out on a slow answer and reports an unreachable host", async () => {
    const impatient = createWechatPayProvider(providerSettings(fake, merchant, { timeoutMs: 150 }));
    fake.failNext("query", { kind: "slow", ms: 1000 });
    expect(await payError(impatient.query("E20250101000001"))).toMatchObject({ code: "TIMEOUT", retryable: true });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = createWechatPayProvider(providerSettings(fake, merchant, { baseUrl: `http://127.0.0.1:${port}` }));
    expect(await payError(nowhere.query("E20250101000001"))).toMatchObject({ code: "NETWORK", retryable: true });
  });
});
