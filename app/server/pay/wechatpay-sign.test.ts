// The published vectors of tests/fixtures/wechatpay/VECTORS.md (with the documentation's test key
// beside it, official-doc-test-key.pem) and round trips with keys made here.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NotificationError } from "./errors.server";
import {
  buildAuthorization,
  buildPayParams,
  decryptResource,
  encryptResource,
  parseAuthorization,
  paySignMessage,
  requestSignatureMessage,
  signAsPlatform,
  signMessage,
  verifyMessage,
  verifyWechatpaySignature,
} from "./wechatpay-sign.server";

const DOC_KEY = crypto.createPrivateKey(fs.readFileSync(path.resolve(__dirname, "../../../tests/fixtures/wechatpay/official-doc-test-key.pem")));
const DOC_PUBLIC = crypto.createPublicKey(DOC_KEY);

const DOC_BODY =
  '{"appid":"wxd678efh567hg6787","mchid":"1900007291","description":"Image形象店-深圳腾大-QQ公仔","out_trade_no":"1217752501201407033233368018","notify_url":"https://www.weixin.qq.com/wxpay/pay.php","amount":{"total":100,"currency":"CNY"},"payer":{"openid":"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"}}';
const DOC_SIGNATURE =
  "jnks4dlrPw3ZX+ozVvSK39oa0t7OMBsg83BHAwd8BRdUFiVaQNTLTvci+wURgP1OQBbKYhFGvt7iqYpDSTQkp7Uq1sltaQKyncCyrA1g88m5bsKERQfPyT0ahSwKTYJ1CAn9QiJuSJRq1QsQs07eehbU/k9BCS51jTyc1Jpsi2H77HF9f/BnjXAOP3/sPObg6V5Ee4EzwLox684hhuMuIwHo7D8KFk3LIHOKDcNI4It1aCXydFWNpNK+SG86VUDe5kwoDpw4Ulqfu9z8OFDGbDs9TCxEv8iqQzbpxOlEVoOe2kalSYM5kApQb3nZcxdUtoE0liJGW3RGUNE0t4v01A==";
const DOC_PAY_SIGN =
  "mI35pfNEQV6777ke/1T+LJLQDNTm7yeoUJH+j/adPGhmCCi0PbgkvYQTRcXH0uibcLVtvFLdGLpmoYO9FV6lBBsTAjuhh5YOvQi0e2g3e0yytitiNET9FEuqM0pjnKfRW4K6LIZDdbWJv9KhZUx3DrJa5TL7OJ7VdADVivxVySIlPVKjGwuCXzuXSJes0UcILgWQUMyha5/3nYofuHtS7r+KYyMuxD+oJ9VM1Qdxk4UIG59CP5Y3wtYIFybyF3bdu1caHTRRX+DLyMXyYA/IrTmiW01c4RPjpHBX5Dk1sZyY1zVsWNsvMHr2e1NTWtBxKJ+qk5N61J7caYoepHFaxw==";

describe("request signature (the documentation's vector)", () => {
  const message = requestSignatureMessage({
    method: "post",
    pathWithQuery: "/v3/pay/transactions/jsapi",
    timestamp: "1554208460",
    nonce: "593BEC0C930BF1AFEB40B4A08C8FB242",
    body: DOC_BODY,
  });

  it("builds METHOD\\nPATH\\nTIMESTAMP\\nNONCE\\nBODY\\n", () => {
    expect(message).toBe(`POST\n/v3/pay/transactions/jsapi\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n${DOC_BODY}\n`);
  });

  it("signs it to the published signature", () => {
    expect(signMessage(message, DOC_KEY)).toBe(DOC_SIGNATURE);
    expect(verifyMessage(message, DOC_SIGNATURE, DOC_PUBLIC)).toBe(true);
  });

  it("puts it in the Authorization header, which parses back", () => {
    const header = buildAuthorization({
      mchid: "1900007291",
      serialNo: "408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB",
      privateKey: DOC_KEY,
      method: "POST",
      pathWithQuery: "/v3/pay/transactions/jsapi",
      body: DOC_BODY,
      timestamp: "1554208460",
      nonce: "593BEC0C930BF1AFEB40B4A08C8FB242",
    });
    expect(header).toBe(
      `WECHATPAY2-SHA256-RSA2048 mchid="1900007291",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",timestamp="1554208460",serial_no="408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB",signature="${DOC_SIGNATURE}"`,
    );
    expect(parseAuthorization(header)).toEqual({
      mchid: "1900007291",
      nonce_str: "593BEC0C930BF1AFEB40B4A08C8FB242",
      timestamp: "1554208460",
      serial_no: "408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB",
      signature: DOC_SIGNATURE,
    });
  });

  it("signs a GET with an empty body line", () => {
    expect(requestSignatureMessage({ method: "GET", pathWithQuery: "/v3/x?mchid=1", timestamp: "1", nonce: "N", body: "" })).toBe(
      "GET\n/v3/x?mchid=1\n1\nN\n\n",
    );
  });

  it.each([[undefined], [""], ["Bearer x"], ['WECHATPAY2-SHA256-RSA2048 mchid="1",nonce_str="n"']])("refuses %j as an Authorization header", (header) => {
    expect(parseAuthorization(header)).toBeNull();
  });

  it("does not verify another message, a bad base64, or another key", () => {
    const other = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    expect(verifyMessage(`${message} `, DOC_SIGNATURE, DOC_PUBLIC)).toBe(false);
    expect(verifyMessage(message, "not base64!", DOC_PUBLIC)).toBe(false);
    expect(verifyMessage(message, DOC_SIGNATURE, other)).toBe(false);
  });
});

describe("paySign (the published vector)", () => {
  it("signs appId\\ntimeStamp\\nnonceStr\\npackage\\n", () => {
    const input = {
      appId: "wx2421b1c4370ec43b",
      timeStamp: "1554208460",
      nonceStr: "593BEC0C930BF1AFEB40B4A08C8FB242",
      package: "prepay_id=wx201410272009395522657a690389285100",
    };
    expect(paySignMessage(input)).toBe(
      "wx2421b1c4370ec43b\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\nprepay_id=wx201410272009395522657a690389285100\n",
    );
    const params = buildPayParams({
      appId: input.appId,
      prepayId: "wx201410272009395522657a690389285100",
      privateKey: DOC_KEY,
      timeStamp: input.timeStamp,
      nonceStr: input.nonceStr,
    });
    expect(params).toEqual({ ...input, signType: "RSA", paySign: DOC_PAY_SIGN });
  });

  it("fills timeStamp (seconds) and a 32-character nonce itself", () => {
    const before = Math.floor(Date.now() / 1000);
    const params = buildPayParams({ appId: "wx1", prepayId: "wx2", privateKey: DOC_KEY });
    expect(Number(params.timeStamp)).toBeGreaterThanOrEqual(before);
    expect(params.timeStamp).toMatch(/^\d{10}$/);
    expect(params.nonceStr).toMatch(/^[0-9A-Z]{32}$/);
    expect(verifyMessage(paySignMessage(params), params.paySign, DOC_PUBLIC)).toBe(true);
  });
});

describe("AEAD_AES_256_GCM (published and self-computed vectors)", () => {
  const key = "0123456789abcdef0123456789abcdef";

  it.each([
    ["hello", "world", "0123456789abcdef", "APoZlYpivU3HjbAiB4CvW1rAFr8J"],
    ["", "", "0123456789abcdef", "GvpmmdtYwexXIPhySs9Tlg=="],
    ['{"out_trade_no":"T1","trade_state":"SUCCESS"}', "transaction", "0123456789ab", "4ouITzeV7GmUYUbi3WteHWDS5e076h4ZReuqRrqM+N1PXV1boadmhiW9LEO2a7PGvKtw1AMKIESyCxKlSw=="],
  ])("%j with aad %j and nonce %j", (plaintext, aad, nonce, ciphertext) => {
    expect(encryptResource(plaintext, key, { nonce, associatedData: aad }).ciphertext).toBe(ciphertext);
    expect(decryptResource({ algorithm: "AEAD_AES_256_GCM", ciphertext, nonce, associated_data: aad }, key)).toBe(plaintext);
  });

  it("round-trips with a random nonce and a Buffer key", () => {
    const bytes = Buffer.from(key);
    const resource = encryptResource("支付成功 ✓", bytes, { associatedData: "transaction", originalType: "transaction" });
    expect(resource).toMatchObject({ algorithm: "AEAD_AES_256_GCM", associated_data: "transaction", original_type: "transaction" });
    expect(resource.nonce).toHaveLength(12);
    expect(decryptResource(resource, bytes)).toBe("支付成功 ✓");
  });

  const good = encryptResource('{"a":1}', key, { associatedData: "transaction" });
  const flipped = Buffer.from(good.ciphertext, "base64");
  flipped[0] ^= 1;
  it.each([
    ["a tampered ciphertext", { ...good, ciphertext: flipped.toString("base64") }, key],
    ["another aad", { ...good, associated_data: "refund" }, key],
    ["another nonce", { ...good, nonce: "AAAAAAAAAAAA" }, key],
    ["another key", good, "fedcba9876543210fedcba9876543210"],
    ["a short ciphertext", { ...good, ciphertext: "AAAA" }, key],
    ["another algorithm", { ...good, algorithm: "AES_128_CBC" }, key],
    ["a 16-byte key", good, "0123456789abcdef"],
  ])("refuses %s as UNDECRYPTABLE", (_name, resource, withKey) => {
    expect(() => decryptResource(resource, withKey)).toThrowError(expect.objectContaining({ code: "UNDECRYPTABLE" }));
  });
});

describe("platform signature verification", () => {
  const platform = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyId = "PUB_KEY_ID_0114232134912410000000000000";
  const body = '{"id":"EV-1","event_type":"TRANSACTION.SUCCESS"}';
  const now = Date.UTC(2025, 0, 1) ;
  const timestamp = String(now / 1000);

  function verify(headers: Record<string, string>, withBody = body) {
    return verifyWechatpaySignature({ headers, body: withBody, publicKey: platform.publicKey, publicKeyId: keyId, now });
  }
  function code(run: () => unknown) {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(NotificationError);
      return (error as NotificationError).code;
    }
    return "verified";
  }

  const signed = signAsPlatform({ body, privateKey: platform.privateKey, publicKeyId: keyId, timestamp });

  it("accepts the platform's signature, in any header case and as Headers", () => {
    expect(code(() => verify(signed))).toBe("verified");
    const lower = Object.fromEntries(Object.entries(signed).map(([name, value]) => [name.toLowerCase(), value]));
    expect(code(() => verify(lower))).toBe("verified");
    expect(code(() => verifyWechatpaySignature({ headers: new Headers(signed), body, publicKey: platform.publicKey, publicKeyId: keyId, now }))).toBe(
      "verified",
    );
  });

  it("accepts up to 5 minutes of skew either way", () => {
    for (const offset of [-300, 300]) {
      const headers = signAsPlatform({ body, privateKey: platform.privateKey, publicKeyId: keyId, timestamp: String(now / 1000 + offset) });
      expect(code(() => verify(headers))).toBe("verified");
    }
  });

  it.each([
    ["a missing header", () => verify({ ...signed, "Wechatpay-Nonce": "" }), "MISSING_HEADERS"],
    ["the SIGNTEST probe", () => verify({ ...signed, "Wechatpay-Signature": `WECHATPAY/SIGNTEST/${signed["Wechatpay-Signature"]}` }), "SIGNTEST_PROBE"],
    ["another serial", () => verify({ ...signed, "Wechatpay-Serial": "PUB_KEY_ID_other" }), "UNKNOWN_SERIAL"],
    [
      "a timestamp 301 s old",
      () => verify(signAsPlatform({ body, privateKey: platform.privateKey, publicKeyId: keyId, timestamp: String(now / 1000 - 301) })),
      "STALE_TIMESTAMP",
    ],
    [
      "a timestamp 301 s ahead",
      () => verify(signAsPlatform({ body, privateKey: platform.privateKey, publicKeyId: keyId, timestamp: String(now / 1000 + 301) })),
      "STALE_TIMESTAMP",
    ],
    ["a timestamp in milliseconds", () => verify({ ...signed, "Wechatpay-Timestamp": String(now) }), "STALE_TIMESTAMP"],
    ["a changed body", () => verify(signed, body.replace("EV-1", "EV-2")), "BAD_SIGNATURE"],
    ["a changed nonce", () => verify({ ...signed, "Wechatpay-Nonce": "X" }), "BAD_SIGNATURE"],
    ["a changed timestamp", () => verify({ ...signed, "Wechatpay-Timestamp": String(now / 1000 + 1) }), "BAD_SIGNATURE"],
    ["garbage", () => verify({ ...signed, "Wechatpay-Signature": "%%%" }), "BAD_SIGNATURE"],
    [
      "another key's signature",
      () => verify(signAsPlatform({ body, privateKey: DOC_KEY, publicKeyId: keyId, timestamp })),
      "BAD_SIGNATURE",
    ],
  ])("refuses %s", (_name, run, expected) => {
    expect(code(run)).toBe(expected);
  });
});
