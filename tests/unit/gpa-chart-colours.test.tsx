// The GPA chart's colours in both appearances, computed from the Tailwind variables its classes
// read: values and axis labels reach AA on the card, and the grid stays a faint line at night.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GpaChart } from "../../app/components/grades/GpaChart";
import { appearanceVariables } from "../../tailwind.config";
import { contrast } from "../setup/contrast";

const chart = {
  width: 320,
  height: 140,
  left: 34,
  right: 310,
  gridlines: [0, 1, 2, 3, 4].map((gpa) => ({ gpa, y: 112 - gpa * 24 })),
  points: [
    { term: "2024-2025-1", x: 50, y: 40, label: "24-25-1", value: "3.10" },
    { term: "2024-2025-2", x: 294, y: 30, label: "24-25-2", value: "3.42" },
  ],
};
const html = renderToStaticMarkup(<GpaChart chart={chart} />);

/** The palette colour a `fill-slate-900` / `stroke-slate-200` class stands for. */
function colourOf(element: RegExp, property: "fill" | "stroke") {
  const tag = element.exec(html)?.[0] ?? "";
  const match = new RegExp(`\\b${property}-([a-z]+-\\d+)\\b`).exec(tag);
  if (!match) throw new Error(`no ${property} class on ${tag}`);
  return match[1]!;
}

describe("the GPA chart's colours", () => {
  it("uses palette classes, never fixed colours that ignore the dark appearance", () => {
    expect(html).not.toMatch(/(fill|stroke)="#/);
  });

  describe.each([
    ["light", false],
    ["dark", true],
  ] as const)("in the %s appearance", (_name, night) => {
    const vars = appearanceVariables(night);
    const surface = vars["--surface"]!;
    it("the values over the points reach 4.5:1 on the card", () => {
      const value = colourOf(/<text[^>]*font-weight="600"[^>]*>/, "fill");
      expect(contrast(vars[`--c-${value}`]!, surface)).toBeGreaterThanOrEqual(4.5);
    });
    it("the axis labels reach 4.5:1", () => {
      const label = colourOf(/<text[^>]*text-anchor="end"[^>]*>/, "fill");
      expect(contrast(vars[`--c-${label}`]!, surface)).toBeGreaterThanOrEqual(4.5);
    });
    it("the grid is a faint line (under 2:1), not a glare", () => {
      const grid = colourOf(/<line[^>]*>/, "stroke");
      const ratio = contrast(vars[`--c-${grid}`]!, surface);
      expect(ratio).toBeLessThan(2);
      expect(ratio).toBeGreaterThan(1.1);
    });
  });
});
