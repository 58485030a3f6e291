import { describe, expect, it } from "vitest";
import { jsapiSignature } from "./jssdk.server";

// tests/fixtures/wechatpay/VECTORS.md, "JS-SDK signature": the official documentation's example.
const TICKET = "sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg";
const NONCE = "Wm3WZYTPz0wzccnW";
const TIMESTAMP = 1414587457;

describe("JS-SDK signature", () => {
  it.each([
    ["http://mp.weixin.qq.com?params=value", "0f9de62fce790f9a083d5c99e95740ceb90c27ed"], // current official doc
    ["http://mp.weixin.qq.com", "f4d90daf4b3bca3078ab155816175ba34c443a7b"], // older doc copies
  ])("signs %s as the published vector", (url, signature) => {
    expect(jsapiSignature({ ticket: TICKET, nonceStr: NONCE, timestamp: TIMESTAMP, url })).toBe(signature);
  });

  it("signs the url without its #fragment, and the timestamp as a string or a number alike", () => {
    const expected = "0f9de62fce790f9a083d5c99e95740ceb90c27ed";
    expect(jsapiSignature({ ticket: TICKET, nonceStr: NONCE, timestamp: TIMESTAMP, url: "http://mp.weixin.qq.com?params=value#/share" })).toBe(expected);
    expect(jsapiSignature({ ticket: TICKET, nonceStr: NONCE, timestamp: String(TIMESTAMP), url: "http://mp.weixin.qq.com?params=value" })).toBe(expected);
  });

  it("uses raw values: an encoded url is another signature", () => {
    expect(jsapiSignature({ ticket: TICKET, nonceStr: NONCE, timestamp: TIMESTAMP, url: encodeURIComponent("http://mp.weixin.qq.com?params=value") })).not.toBe(
      "0f9de62fce790f9a083d5c99e95740ceb90c27ed",
    );
  });
});
