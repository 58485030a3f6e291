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
