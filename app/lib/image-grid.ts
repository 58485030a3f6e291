// The post detail's image grid: its layout follows the number of images (docs/product-rules.md, "Screens"):
// 1 single, 2 double, 3 triple, 4 quad, 5–6 six-cell, 7–9 nine-cell.

export type GridLayout = "none" | "single" | "double" | "triple" | "quad" | "six" | "nine";

export type Grid = {
  layout: GridLayout;
  /** Columns of the grid. */
  columns: number;
  /** Cells of the grid (the images fill the first ones). */
  cells: number;
};

export function imageGrid(count: number): Grid {
  if (count <= 0) return { layout: "none", columns: 0, cells: 0 };
  if (count === 1) return { layout: "single", columns: 1, cells: 1 };
  if (count === 2) return { layout: "double", columns: 2, cells: 2 };
  if (count === 3) return { layout: "triple", columns: 3, cells: 3 };
  if (count === 4) return { layout: "quad", columns: 2, cells: 4 };
  if (count <= 6) return { layout: "six", columns: 3, cells: 6 };
  return { layout: "nine", columns: 3, cells: 9 };
}

/**
 * How dark the "+N" veil over the last card thumbnail is (0–1). Over the brightest picture
 * (white) the veil leaves rgb(255·(1−a)); white text on it reaches AA (4.5:1) from a ≈ 0.55.
 */
export const MORE_IMAGES_VEIL = 0.6;
