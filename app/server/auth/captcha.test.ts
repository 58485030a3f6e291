import { describe, expect, it } from "vitest";
import { CAPTCHA_ALPHABET, isWellFormedCaptcha, normaliseCaptcha } from "~/lib/captcha";
import { drawCaptcha } from "./captcha-image.server";

describe("captcha rules", () => {
  it("uses letters without I, L, O, Z and the digits 2–8", () => {
    for (const ambiguous of ["I", "L", "O", "Z", "0", "1", "9"]) expect(CAPTCHA_ALPHABET).not.toContain(ambiguous);
    for (const digit of "2345678") expect(CAPTCHA_ALPHABET).toContain(digit);
  });

  it("can draw every character of the alphabet", () => {
    for (const char of CAPTCHA_ALPHABET) expect(drawCaptcha(char.repeat(4)).startsWith("<svg")).toBe(true);
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
  const pathsOf = (svg: string) => svg.match(/<path [^>]*\/>/g) ?? [];

  it("is an SVG that never contains the answer as text", () => {
    const svg = drawCaptcha("QK7B");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).not.toMatch(/<text/);
    expect(svg).not.toContain("QK7B");
  });

  it("has no structure that tells the characters apart: no rects, no groups, only filled paths alike", () => {
    const svg = drawCaptcha("A2B3");
    expect(svg).not.toMatch(/<rect|<g[ >]|<text|<use|transform=/);
    const paths = pathsOf(svg);
    // 4 glyph outlines and the noise ribbons, all drawn with the same attributes.
    expect(paths.length).toBeGreaterThan(4);
    for (const path of paths) expect(path).toMatch(/^<path fill="#[0-9a-f]{6}" fill-opacity="0\.\d" d="M[^"]+Z"\/>$/);
  });

  it("distorts the glyphs and shuffles the paths: the same answer never draws the same way", () => {
    const first = pathsOf(drawCaptcha("MWQ8"));
    const second = pathsOf(drawCaptcha("MWQ8"));
    expect(first).not.toEqual(second);
    // The order of paths is random: the shortest path (a noise ribbon or a glyph) moves around.
    const orders = new Set(Array.from({ length: 12 }, () => pathsOf(drawCaptcha("MWQ8")).map((p) => (p.match(/[MLQCZ]/g) ?? []).length > 40 ? "r" : "g").join("")));
    expect(orders.size).toBeGreaterThan(1);
  });

  it("refuses a character outside the font", () => {
    expect(() => drawCaptcha("AO1\u4e00")).toThrow();
  });
});
