import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { seal, unseal } from "./crypto.server";

const key = crypto.randomBytes(32);

describe("sealing secrets (AES-256-GCM)", () => {
  it.each(["demo1234", "", "密码@Abc", "x".repeat(500)])("round-trips %j", (secret) => {
    const sealed = seal(secret, key);
    expect(sealed.startsWith("v1.")).toBe(true);
    if (secret) expect(sealed).not.toContain(secret);
    expect(unseal(sealed, key)).toBe(secret);
  });

  it("uses a fresh IV each time", () => {
    expect(seal("same", key)).not.toBe(seal("same", key));
  });

  it("refuses a tampered value or another key", () => {
    const sealed = seal("demo1234", key);
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => unseal(parts.join("."), key)).toThrow();
    expect(() => unseal(sealed, crypto.randomBytes(32))).toThrow();
    expect(() => unseal("v0.a.b.c", key)).toThrow();
  });
});
