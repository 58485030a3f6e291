import { describe, expect, it } from "vitest";
import { MORE_IMAGES_VEIL, imageGrid } from "./image-grid";

describe("image grid layout follows the count (1 single, 2 double, 3 triple, 4 quad, 5–6 six, 7–9 nine)", () => {
  it.each([
    [0, "none", 0, 0],
    [1, "single", 1, 1],
    [2, "double", 2, 2],
    [3, "triple", 3, 3],
    [4, "quad", 2, 4],
    [5, "six", 3, 6],
    [6, "six", 3, 6],
    [7, "nine", 3, 9],
    [8, "nine", 3, 9],
    [9, "nine", 3, 9],
  ])("%i images: %s, %i columns, %i cells", (count, layout, columns, cells) => {
    expect(imageGrid(count)).toEqual({ layout, columns, cells });
  });
});

describe("the +N veil over the last thumbnail", () => {
  const luminance = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  it.each([255, 200, 128])("white text over a picture of grey %s behind the veil reaches 4.5:1", (grey) => {
    const behind = grey * (1 - MORE_IMAGES_VEIL);
    expect(1.05 / (luminance(behind) + 0.05)).toBeGreaterThanOrEqual(4.5);
  });
});
