import { describe, expect, it } from "vitest";
import * as msg from "./messages";
import {
  MESSENGER_ERROR_CODES,
  decodeUserInfoPayload,
  isMessengerErrorCode,
  messengerAuthPath,
  messengerAuthPathFor,
  messengerErrorMessage,
  messengerErrorPath,
  needsReauthorization,
} from "./wechat-auth";

const payload = { openid: "oAbc123", nickname: "小明同学", headimgurl: "https://thirdwx.qlogo.cn/x/132" };
const json = JSON.stringify(payload);
const standard = Buffer.from(json, "utf8").toString("base64");
const urlSafe = Buffer.from(json, "utf8").toString("base64url");
const ofUriJson = Buffer.from(encodeURIComponent(json), "utf8").toString("base64");

describe("decodeUserInfoPayload: base64 JSON with fallbacks", () => {
  it.each([
    ["standard base64", standard],
    ["without padding", standard.replace(/=+$/, "")],
    ["base64url", urlSafe],
    ["'+' turned into spaces by URL decoding", standard.replace(/\+/g, " ")],
    ["percent-encoded base64", encodeURIComponent(standard)],
    ["base64 of percent-encoded JSON", ofUriJson],
    ["surrounding whitespace", ` ${standard}\n`],
  ])("%s", (_label, input) => {
    expect(decodeUserInfoPayload(input)).toEqual(payload);
  });

  it("the test vectors exercise the characters that differ", () => {
    // The nickname is multi-byte: the standard form has padding or '+' or '/' somewhere.
    expect(standard).not.toBe(urlSafe);
  });

  it.each([
    ["empty", ""],
    ["null", null],
    ["not base64", "%%%not-base64"],
    ["base64 of plain text", Buffer.from("hello").toString("base64")],
    ["base64 of a JSON array", Buffer.from("[1,2]").toString("base64")],
    ["base64 of a JSON string", Buffer.from('"x"').toString("base64")],
    ["invalid UTF-8", Buffer.from([0xff, 0xfe, 0x7b]).toString("base64")],
    ["impossible length", "abcde"],
  ])("%s → null", (_label, input) => {
    expect(decodeUserInfoPayload(input)).toBeNull();
  });
});

describe("needsReauthorization: valid 7 days", () => {
  const at = new Date("2026-03-10T12:00:00.000Z");
  it.each([
    ["just now", "2026-03-10T12:00:00.000Z", false],
    ["6 days 23 h ago", "2026-03-03T13:00:00.000Z", false],
    ["exactly 7 days ago", "2026-03-03T12:00:00.000Z", true],
    ["8 days ago", "2026-03-02T12:00:00.000Z", true],
    ["never", null, true],
    ["unreadable", "yesterday", true],
  ])("%s → %s", (_label, authorizedAt, expected) => {
    expect(needsReauthorization({ openid: "o1", wechat_authorized_at: authorizedAt }, at)).toBe(expected);
  });

  it("no openid always needs the authorization", () => {
    expect(needsReauthorization({ openid: null, wechat_authorized_at: at.toISOString() }, at)).toBe(true);
  });
});

describe("error codes and messages", () => {
  it("every code has a Chinese message in the catalogue", () => {
    for (const code of MESSENGER_ERROR_CODES) {
      expect(messengerErrorMessage(code)).toBe(msg.wechat.errors[code]);
      expect(messengerErrorMessage(code)).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it("uses the product rules' messages verbatim", () => {
    expect(messengerErrorMessage("PARSE_ERROR")).toBe("用户信息解析失败，请重新授权");
    expect(messengerErrorMessage("AUTH_FAILED")).toBe("微信授权失败，请刷新页面重试");
  });

  it.each([["NOPE"], [""], [null], [undefined]])("unknown code %j gets the generic message", (code) => {
    expect(isMessengerErrorCode(code)).toBe(false);
    expect(messengerErrorMessage(code)).toBe("微信授权失败，请刷新页面重试");
  });

  it.each([
    ["AUTH_DENIED", undefined, `/wx/callback?error=AUTH_DENIED&message=${encodeURIComponent(msg.wechat.errors.AUTH_DENIED).replace(/%20/g, "+")}`],
    ["PARSE_ERROR", "/market", `/wx/callback?error=PARSE_ERROR&message=${encodeURIComponent("用户信息解析失败，请重新授权")}`],
    ["NO_USER_INFO", "/orders", `/wx/callback?error=NO_USER_INFO&message=${encodeURIComponent(msg.wechat.errors.NO_USER_INFO)}&redirect_url=%2Forders`],
  ] as const)("messengerErrorPath(%s, %s)", (code, returnPath, expected) => {
    expect(messengerErrorPath(code, returnPath)).toBe(expected);
  });

  it("messengerAuthPath encodes the return path", () => {
    expect(messengerAuthPath("/market")).toBe("/api/wechat/auth?redirect_url=%2Fmarket");
    expect(messengerAuthPath("/x?a=1&b=2")).toBe("/api/wechat/auth?redirect_url=%2Fx%3Fa%3D1%26b%3D2");
  });

  it.each([
    ["http://localhost/market?tab=express", "/api/wechat/auth?redirect_url=%2Fmarket%3Ftab%3Dexpress"],
    // A fetcher's revalidation: its `_routes` and `index` are not the page's (the market's guard kept `_routes`).
    ["http://localhost/market?index&_routes=root%2Croutes%2Fmarket._shell&tab=express", "/api/wechat/auth?redirect_url=%2Fmarket%3Ftab%3Dexpress"],
    ["http://localhost/market/address/9.data?_routes=root", "/api/wechat/auth?redirect_url=%2Fmarket%2Faddress%2F9"],
    ["http://localhost//evil.example/market", "/api/wechat/auth?redirect_url=%2Fmarket"],
  ])("messengerAuthPathFor(%s) comes back to the page", (url, expected) => {
    expect(messengerAuthPathFor(url)).toBe(expected);
  });
});
