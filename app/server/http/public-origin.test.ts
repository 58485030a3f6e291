import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../config.server";
import { ownOrigins, publicOrigin } from "./public-origin";

function withPublicUrl(value: string | undefined) {
  if (value === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = value;
  resetConfig();
}

afterEach(() => withPublicUrl(undefined));

describe("publicOrigin", () => {
  it.each([
    // The configured origin wins whatever Host the request names (its path and query never count).
    ["https://campus.example.cn/app/?x=1", "http://evil.example:3000/market", "https://campus.example.cn"],
    ["https://campus.example.cn", "http://127.0.0.1:3000/schedule", "https://campus.example.cn"],
    [undefined, "http://127.0.0.1:3000/schedule?week=2", "http://127.0.0.1:3000"],
  ])("PUBLIC_URL %s, request %s → %s", (publicUrl, url, expected) => {
    withPublicUrl(publicUrl);
    expect(publicOrigin(new Request(url))).toBe(expected);
    expect(publicOrigin(url)).toBe(expected);
    expect(publicOrigin(new URL(url))).toBe(expected);
  });
});

describe("ownOrigins", () => {
  it.each([
    ["https://campus.example.cn", "http://127.0.0.1:3000/x", ["http://127.0.0.1:3000", "https://campus.example.cn"]],
    ["https://campus.example.cn", "https://campus.example.cn/x", ["https://campus.example.cn"]],
    [undefined, "http://127.0.0.1:3000/x", ["http://127.0.0.1:3000"]],
  ])("PUBLIC_URL %s, request %s → %j", (publicUrl, url, expected) => {
    withPublicUrl(publicUrl);
    expect(ownOrigins(new Request(url))).toEqual(expected);
  });
});
