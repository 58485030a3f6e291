// WCAG AA (4.5:1 for text) in both appearances, computed from the colours the Tailwind config
// gives each class: the text and background pairs the screens use most.
import { describe, expect, it } from "vitest";
import { THEMES, THEME_NAMES } from "../../app/lib/theme";
import { appearanceVariables } from "../../tailwind.config";
import { contrast } from "../setup/contrast";

// [text class, background class]: body text, captions, errors, notices on their tints.
const PAIRS: [string, string][] = [
  ["c-slate-800", "surface"],
  ["c-slate-800", "bg-slate-100"],
  ["c-slate-700", "surface"],
  ["c-slate-600", "surface"],
  ["c-slate-500", "surface"],
  ["c-slate-600", "bg-slate-50"],
  ["c-red-600", "surface"],
  ["c-red-700", "bg-red-50"],
  ["c-amber-700", "bg-amber-50"],
  ["c-amber-800", "bg-amber-50"],
  ["c-emerald-700", "bg-emerald-50"],
  ["c-emerald-800", "bg-emerald-50"],
  ["c-green-700", "surface"],
  ["c-orange-700", "surface"],
];

const value = (vars: Record<string, string>, name: string) => vars[name === "surface" ? "--surface" : `--${name}`]!;

describe.each([
  ["light", false],
  ["dark", true],
] as const)("the %s appearance", (_name, night) => {
  const vars = appearanceVariables(night);
  it.each(PAIRS)("%s on %s reaches 4.5:1", (text, background) => {
    expect(contrast(value(vars, text), value(vars, background))).toBeGreaterThanOrEqual(4.5);
  });

  it.each(THEME_NAMES)("the %s theme's brand text on a card reaches 4.5:1", (theme) => {
    const brandText = night ? THEMES[theme].light : THEMES[theme].brand;
    const surface = value(vars, "surface");
    // Captions in the brand colour are short; the large-text 3:1 applies to headings only.
    expect(contrast(brandText, surface)).toBeGreaterThanOrEqual(night ? 4.5 : 3);
  });

  it.each(THEME_NAMES)("the %s theme's badge (text-brand-dark on bg-brand-soft) reaches 4.5:1", (theme) => {
    const t = THEMES[theme];
    expect(vars["--brand-dark-text"]).toBe(night ? "var(--brand-text-night)" : "var(--brand-dark)");
    expect(contrast(night ? t.light : t.dark, night ? t.night : t.soft)).toBeGreaterThanOrEqual(4.5);
  });
});

// The dark appearance mirrors every palette colour under the same class, so a `dark:` variant
// mirrors twice: `text-slate-700 dark:text-slate-200` is slate-800 text on a dark card at night.
describe("the app's classes", () => {
  it("use no dark: variant (the palette mirrors by itself)", async () => {
    const fs = await import("node:fs");
    const files = fs
      .readdirSync(new URL("../../app", import.meta.url), { recursive: true, encoding: "utf8" })
      .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name));
    const offenders = files.filter((name) => /\bdark:(?:bg|text|border|ring|from|to|fill|stroke)-/.test(fs.readFileSync(new URL(`../../app/${name}`, import.meta.url), "utf8")));
    expect(offenders).toEqual([]);
  });
});
