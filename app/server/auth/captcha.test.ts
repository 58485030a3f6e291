import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { CAPTCHA_ALPHABET, isWellFormedCaptcha, normaliseCaptcha } from "~/lib/captcha";
import { drawCaptcha } from "./captcha-image.server";

describe("captcha rules", () => {
  it("uses letters without I, L, O, Z and the digits 2–8", () => {
    for (const ambiguous of ["I", "L", "O", "Z", "0", "1", "9"]) expect(CAPTCHA_ALPHABET).not.toContain(ambiguous);
    for (const digit of "2345678") expect(CAPTCHA_ALPHABET).toContain(digit);
  });

  it("can draw every character of the alphabet", async () => {
    for (const char of CAPTCHA_ALPHABET) expect((await drawCaptcha(char.repeat(4))).length).toBeGreaterThan(500);
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
  it("is a WebP raster of 240×88 pixels (120×44 CSS px at twice the density), never SVG or text", async () => {
    const image = await drawCaptcha("QK7B");
    expect(image.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(image.subarray(8, 12).toString("latin1")).toBe("WEBP");
    expect(image.toString("latin1")).not.toMatch(/<svg|<path|QK7B/);
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height]).toEqual([240, 88]);
  });

  it("draws the same answer differently each time (its own distortion and noise)", async () => {
    const pixels = async () => (await sharp(await drawCaptcha("MWQ8")).greyscale().raw().toBuffer()).toString("base64");
    expect(await pixels()).not.toBe(await pixels());
  });

  it("has ink in every quarter of the picture's width (the characters are spread across it)", async () => {
    const { data, info } = await sharp(await drawCaptcha("HM8W")).greyscale().raw().toBuffer({ resolveWithObject: true });
    const quarters = [0, 0, 0, 0];
    for (let i = 0; i < data.length; i++) if (data[i]! < 150) quarters[Math.min(3, Math.floor(((i % info.width) / info.width) * 4))]!++;
    for (const ink of quarters) expect(ink).toBeGreaterThan(150);
  });

  it("refuses a character outside the font", async () => {
    await expect(drawCaptcha("AO1\u4e00")).rejects.toThrow();
  });
});
