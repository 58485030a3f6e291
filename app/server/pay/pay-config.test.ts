// config().pay: the mode, the merchant's keys read from text or files, and the refusals.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config.server";

const merchant = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const platform = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const merchantPem = merchant.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const platformPem = platform.publicKey.export({ type: "spki", format: "pem" }).toString();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pay-config-"));
const merchantFile = path.join(dir, "apiclient_key.pem");
const platformFile = path.join(dir, "pub_key.pem");
fs.writeFileSync(merchantFile, merchantPem);
fs.writeFileSync(platformFile, platformPem);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const PRODUCTION = { NODE_ENV: "production", SESSION_SECRET: "production-session-secret-0123", APP_ENCRYPTION_KEY: "cd".repeat(32) };
const MERCHANT = {
  WECHAT_APP_ID: "wx0123456789abcdef",
  WECHAT_APP_SECRET: "app-secret",
  WECHAT_PAY_MCHID: "1900007291",
  WECHAT_PAY_SERIAL_NO: "408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB",
  WECHAT_PAY_PRIVATE_KEY_PATH: merchantFile,
  WECHAT_PAY_API_V3_KEY: "0123456789abcdef0123456789abcdef",
  WECHAT_PAY_PLATFORM_PUBLIC_KEY_PATH: platformFile,
  WECHAT_PAY_PLATFORM_PUBLIC_KEY_ID: "PUB_KEY_ID_0114232134912410000000000000",
  PUBLIC_URL: "https://campus.example.cn",
};

function failure(env: Record<string, string | undefined>) {
  try {
    parseConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  return "parsed";
}

describe("config().pay", () => {
  it.each([
    ["development without a merchant", { NODE_ENV: "development" }, "simulated"],
    ["test without a merchant", { NODE_ENV: "test" }, "simulated"],
    ["production without a merchant", PRODUCTION, "off"],
    ["production with a merchant", { ...PRODUCTION, ...MERCHANT }, "real"],
    ["development with a merchant", { NODE_ENV: "development", ...MERCHANT }, "real"],
  ])("%s → %s", (_name, env, mode) => {
    expect(parseConfig(env).pay.mode).toBe(mode);
  });

  it("reads the merchant from files, with the defaults", () => {
    const pay = parseConfig({ ...PRODUCTION, ...MERCHANT }).pay;
    expect(pay.baseUrl).toBe("https://api.mch.weixin.qq.com");
    expect(pay.notifyUrl).toBe("https://campus.example.cn/api/pay/wechat/notify");
    expect(pay.merchant).toMatchObject({
      appId: "wx0123456789abcdef",
      mchid: "1900007291",
      serialNo: "408B07E79B8269FEC3D5D3E6AB8ED163A6A380DB",
      platformPublicKeyId: "PUB_KEY_ID_0114232134912410000000000000",
      notifyUrl: "https://campus.example.cn/api/pay/wechat/notify",
      baseUrl: "https://api.mch.weixin.qq.com",
      timeoutMs: 10_000,
    });
    expect(pay.merchant!.apiV3Key).toEqual(Buffer.from("0123456789abcdef0123456789abcdef"));
    expect(pay.merchant!.privateKey.type).toBe("private");
    expect(pay.merchant!.platformPublicKey.export({ type: "spki", format: "pem" })).toBe(platformPem);
  });

  it("reads PEM text, also with \\n written out as env files do", () => {
    const env = {
      ...PRODUCTION,
      ...MERCHANT,
      WECHAT_PAY_PRIVATE_KEY_PATH: undefined,
      WECHAT_PAY_PRIVATE_KEY: merchantPem.replace(/\n/g, "\\n"),
      WECHAT_PAY_PLATFORM_PUBLIC_KEY_PATH: undefined,
      WECHAT_PAY_PLATFORM_PUBLIC_KEY: platformPem,
      WECHAT_PAY_NOTIFY_URL: "https://pay.example.cn/api/pay/wechat/notify",
      WECHAT_PAY_BASE_URL: "https://api2.mch.weixin.qq.com/",
    };
    const pay = parseConfig(env).pay;
    expect(pay.mode).toBe("real");
    expect(pay.notifyUrl).toBe("https://pay.example.cn/api/pay/wechat/notify");
    expect(pay.baseUrl).toBe("https://api2.mch.weixin.qq.com");
  });

  it.each([
    ["a partial merchant in production", { ...PRODUCTION, WECHAT_PAY_MCHID: "1900007291" }, /partly configured: missing WECHAT_PAY_SERIAL_NO, WECHAT_PAY_PRIVATE_KEY, WECHAT_PAY_API_V3_KEY/],
    ["a partial merchant in development", { NODE_ENV: "development", WECHAT_PAY_API_V3_KEY: "0123456789abcdef0123456789abcdef" }, /partly configured/],
    ["no app id", { ...PRODUCTION, ...MERCHANT, WECHAT_APP_ID: undefined, WECHAT_APP_SECRET: undefined }, /WECHAT_APP_ID is required with a pay merchant/],
    ["no notify URL", { ...PRODUCTION, ...MERCHANT, PUBLIC_URL: undefined }, /WECHAT_PAY_NOTIFY_URL \(or PUBLIC_URL\) is required/],
    ["an http PUBLIC_URL", { ...PRODUCTION, ...MERCHANT, PUBLIC_URL: "http://campus.example.cn" }, /notify URL must be https/],
    ["an http notify URL", { NODE_ENV: "development", WECHAT_PAY_NOTIFY_URL: "http://x.cn/n" }, /must be an https URL/],
    ["a notify URL with a query", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_NOTIFY_URL: "https://x.cn/n?a=1" }, /must not have a query/],
    ["an API v3 key of 31 bytes", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_API_V3_KEY: "0123456789abcdef0123456789abcde" }, /must be 32 bytes/],
    ["an http base URL in production", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_BASE_URL: "http://127.0.0.1:9" }, /must be https in production/],
    ["both text and path", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_PRIVATE_KEY: merchantPem }, /set WECHAT_PAY_PRIVATE_KEY or WECHAT_PAY_PRIVATE_KEY_PATH, not both/],
    ["a missing key file", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_PRIVATE_KEY_PATH: path.join(dir, "nope.pem") }, /WECHAT_PAY_PRIVATE_KEY_PATH: cannot read the file/],
    ["a path in the text variable", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_PRIVATE_KEY_PATH: undefined, WECHAT_PAY_PRIVATE_KEY: merchantFile }, /must be a PEM private key .*for a file use WECHAT_PAY_PRIVATE_KEY_PATH/],
    ["the merchant's private key as the platform key", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_PLATFORM_PUBLIC_KEY_PATH: merchantFile }, /WECHAT_PAY_PLATFORM_PUBLIC_KEY_PATH must be a PEM public key/],
    ["a broken PEM", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_PRIVATE_KEY_PATH: undefined, WECHAT_PAY_PRIVATE_KEY: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----" }, /is not a readable PEM private key/],
    ["a bad merchant number", { ...PRODUCTION, ...MERCHANT, WECHAT_PAY_MCHID: "19-00" }, /WECHAT_PAY_MCHID must be the merchant number/],
  ])("stops on %s", (_name, env, message) => {
    expect(failure(env)).toMatch(message);
  });

  it("never quotes key text in its messages", () => {
    const broken = merchantPem.replace("MII", "XXX");
    const message = failure({ ...PRODUCTION, ...MERCHANT, WECHAT_PAY_PRIVATE_KEY_PATH: undefined, WECHAT_PAY_PRIVATE_KEY: broken });
    expect(message).toMatch(/WECHAT_PAY_PRIVATE_KEY/);
    expect(message).not.toContain(merchantPem.split("\n")[2]);
    expect(message).not.toContain("0123456789abcdef0123456789abcdef");
  });
});
