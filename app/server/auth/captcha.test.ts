import { describe, expect, it } from "vitest";
import { CAPTCHA_ALPHABET, isWellFormedCaptcha, normaliseCaptcha } from "~/lib/captcha";
import { CAPTCHA_GLYPHS, drawCaptcha } from "./captcha-image.server";

describe("captcha rules", () => {
  it("uses letters without I, L, O, Z and the digits 2–8", () => {
    for (const ambiguous of ["I", "L", "O", "Z", "0", "1", "9"]) expect(CAPTCHA_ALPHABET).not.toContain(ambiguous);
    for (const digit of "2345678") expect(CAPTCHA_ALPHABET).toContain(digit);
  });

  it("has a glyph for every character it can draw", () => {
    expect([...CAPTCHA_ALPHABET].sort()).toEqual([...CAPTCHA_GLYPHS].sort());
  });

  it.each([
    ["ab23", true],
    [" AB23 ", true],
    ["AB2", false],
    ["AB231", false],
    ["AB2O", false],
    ["AB21", false],
  ])("%j is well formed: %s", (input, expected) => {
    expect(isWellFormedCaptcha(input)).toBe(expected);
  });

  it("compares without regard to case or surrounding spaces", () => {
    expect(normaliseCaptcha(" xy7k ")).toBe("XY7K");
  });
});

describe("the captcha picture", () => {
  it("is an SVG that never contains the answer as text", () => {
    const svg = drawCaptcha("QK7B");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).not.toMatch(/<text/);
    expect(svg).not.toContain("QK7B");
  });

  it("draws each character as its own group of blocks", () => {
    const svg = drawCaptcha("A2B3");
    expect(svg.match(/<g transform=/g)).toHaveLength(4);
  });

  it("refuses a character outside the font", () => {
    expect(() => drawCaptcha("AO12")).toThrow();
  });
});
