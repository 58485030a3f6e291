import { describe, expect, it } from "vitest";
import { imageGrid } from "./image-grid";

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
