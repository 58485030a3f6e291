import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfig } from "../config.server";
import { appCookie } from "./cookies.server";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

describe("appCookie", () => {
  it("is httpOnly, SameSite=Lax and signed unless told otherwise, with its own path and lifetime", async () => {
    const header = await appCookie("__t", { path: "/admin", maxAge: 600 }).serialize("v");
    expect(header).toMatch(/^__t=/);
    expect(header).toContain("Path=/admin");
    expect(header).toContain("Max-Age=600");
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    expect(header).not.toContain("Secure");
    // Signed: the value carries a signature, and a forged one is not read back.
    expect(await appCookie("__t", { maxAge: 600 }).parse(header)).toBe("v");
    expect(await appCookie("__t", { maxAge: 600 }).parse(`__t=${Buffer.from(JSON.stringify("x")).toString("base64")}`)).toBeNull();
  });

  it("unsigned on request, and Secure in production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("SESSION_SECRET", "s".repeat(40));
    resetConfig();
    const cookie = appCookie("device_id", { maxAge: 60, signed: false });
    const header = await cookie.serialize("abc");
    expect(header).toContain("Path=/");
    expect(header).toContain("Secure");
    expect(await cookie.parse(`device_id=${Buffer.from(JSON.stringify("forged")).toString("base64")}`)).toBe("forged");
  });
});
