import { describe, expect, it } from "vitest";
import { freshNonce } from "./nonce";

describe("freshNonce", () => {
  it("is 128 bits of base64, different every time, across refills of its pool", () => {
    const nonces = Array.from({ length: 1000 }, () => freshNonce());
    expect(new Set(nonces).size).toBe(1000);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
