import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES, POST_MAX_IMAGES } from "./forum";
import { BodyScanner, DEFAULT_REQUEST_LIMITS, bodyRule, checkUrl, declaredTooLarge } from "./request-limits";

const MULTIPART = "multipart/form-data; boundary=XyZ";

describe("bodyRule: the limit by route class", () => {
  it.each([
    ["/crLogin", undefined, "form", 64 * 1024, "page"],
    ["/post/1/comment", "application/x-www-form-urlencoded", "form", 64 * 1024, "page"],
    ["/api/feature-request", "application/json", "form", 64 * 1024, "json"],
    ["/errands/pickup-code/recognize-text", "application/json", "form", 64 * 1024, "json"],
    ["/api/pay/wechat/notify", "application/json", "pay-notify", 8 * 1024, "pay"],
    ["/api/pay/wechat/notify/", "application/json", "pay-notify", 8 * 1024, "pay"],
    ["/api/upload/image", MULTIPART, "upload-image", IMAGE_MAX_BYTES + 64 * 1024, "json"],
    ["/publish-post", MULTIPART, "publish-post", POST_MAX_IMAGES * IMAGE_MAX_BYTES + 64 * 1024, "page"],
    ["/publish-post", "application/x-www-form-urlencoded", "form", 64 * 1024, "page"],
    ["/errands/pickup-code/recognize-image", "application/json", "recognize-image", Math.ceil((8 * 1024 * 1024 * 4) / 3) + 4096, "json"],
    ["/backpack/profile", MULTIPART, "avatar", IMAGE_MAX_BYTES + 64 * 1024, "page"],
    ["/backpack/profile", "application/x-www-form-urlencoded", "form", 64 * 1024, "page"],
    ["/market", MULTIPART, "market-screenshots", 3 * 8 * 1024 * 1024 + 64 * 1024, "page"],
    ["/market/parcel/3", MULTIPART, "market-screenshots", 3 * 8 * 1024 * 1024 + 64 * 1024, "page"],
    ["/market/checkout", "application/x-www-form-urlencoded", "form", 64 * 1024, "page"],
    ["/admin/run", MULTIPART, "delivery-photo", IMAGE_MAX_BYTES + 64 * 1024, "page"],
    ["/admin/run", "application/x-www-form-urlencoded", "form", 64 * 1024, "page"],
    ["/schedule/import", MULTIPART, "timetable-import", 1024 * 1024 + 64 * 1024, "page"],
    ["/schedule/import", "application/x-www-form-urlencoded", "form", 64 * 1024, "page"],
    ["/marketplace", MULTIPART, "form", 64 * 1024, "page"],
  ])("%s (%s) → %s, %d bytes, %s", (path, type, name, maxBytes, answer) => {
    expect(bodyRule(path, type)).toEqual({ name, maxBytes, answer });
  });

  it("follows the configured limits", () => {
    const limits = { ...DEFAULT_REQUEST_LIMITS, formBytes: 16 * 1024, payNotifyBytes: 2048 };
    expect(bodyRule("/crLogin", undefined, limits).maxBytes).toBe(16 * 1024);
    expect(bodyRule("/api/pay/wechat/notify", undefined, limits).maxBytes).toBe(2048);
  });
});

describe("declaredTooLarge", () => {
  const rule = bodyRule("/crLogin");
  it.each([
    [undefined, false],
    ["0", false],
    [String(64 * 1024), false],
    [String(64 * 1024 + 1), true],
    ["62914560", true],
    ["-1", true],
    ["abc", true],
    ["1e9", true],
  ])("Content-Length %s → %s", (value, expected) => {
    expect(declaredTooLarge(value, rule)).toBe(expected);
  });
});

describe("checkUrl", () => {
  it.each([
    ["/", null],
    ["/post/1?x=%ff", null],
    ["/%E5%9C%88", null],
    ["/%ff", { status: 400, reason: "bad_url" }],
    ["/%", { status: 400, reason: "bad_url" }],
    ["/a%E4%ff", { status: 400, reason: "bad_url" }],
    [`/?q=${"a".repeat(9000)}`, { status: 414, reason: "url_too_long" }],
  ])("%s → %j", (url, expected) => {
    expect(checkUrl(url)).toEqual(expected);
  });
});

describe("BodyScanner", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it("refuses at the first byte over the limit, across chunks", () => {
    const scanner = new BodyScanner(bodyRule("/api/pay/wechat/notify"), "application/octet-stream");
    expect(scanner.push(new Uint8Array(8 * 1024))).toBeNull();
    expect(scanner.push(new Uint8Array(1))).toEqual({ status: 413, reason: "too_large" });
  });

  it("counts multipart parts, even with a boundary split across chunks", () => {
    const limits = { ...DEFAULT_REQUEST_LIMITS, multipartParts: 3 };
    const part = (i: number) => `--XyZ\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`;
    const three = new BodyScanner(bodyRule("/crLogin"), MULTIPART, limits);
    const body = `${part(1)}${part(2)}${part(3)}--XyZ--\r\n`;
    expect(three.push(bytes(body.slice(0, 50)))).toBeNull();
    expect(three.push(bytes(body.slice(50, 52)))).toBeNull();
    expect(three.push(bytes(body.slice(52)))).toBeNull();
    const four = new BodyScanner(bodyRule("/crLogin"), MULTIPART, limits);
    const more = `${part(1)}${part(2)}${part(3)}${part(4)}--XyZ--\r\n`;
    const refusals = [...more].map((char) => four.push(bytes(char))).filter(Boolean);
    expect(refusals[0]).toEqual({ status: 413, reason: "too_many_parts" });
  });

  it.each([
    ['{"a":[1,2,{"b":3}]}', 3, null],
    ['{"a":[[[1]]]}', 3, { status: 400, reason: "too_deep" }],
    ['{"a":"[[[[[[[[[["}', 2, null],
    ['{"a":"\\"[[[["}', 2, null],
    ["[]".repeat(100), 1, null],
  ])("JSON %s at depth limit %d → %j", (body, jsonDepth, expected) => {
    const scanner = new BodyScanner(bodyRule("/api/feature-request"), "application/json", { ...DEFAULT_REQUEST_LIMITS, jsonDepth });
    let result = null;
    for (const char of body) result ??= scanner.push(bytes(char));
    expect(result).toEqual(expected);
  });

  it("does not look into a form body for brackets", () => {
    const scanner = new BodyScanner(bodyRule("/crLogin"), "application/x-www-form-urlencoded", { ...DEFAULT_REQUEST_LIMITS, jsonDepth: 1 });
    expect(scanner.push(bytes("a=[[[[[["))).toBeNull();
  });
});
