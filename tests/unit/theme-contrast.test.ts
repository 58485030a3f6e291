// Every colour theme reaches WCAG AA (4.5:1) for the three uses of its brand colour, computed
// from the theme's own values: white text on a brand button or badge (and on its pressed,
// darker shade), brand text on a card by day and its light shade on the dark card at night,
// and a soft badge (text-brand-dark on bg-brand-soft) in both appearances.
import { describe, expect, it } from "vitest";
import { THEMES, THEME_NAMES } from "../../app/lib/theme";
import { appearanceVariables } from "../../tailwind.config";
import { contrast } from "../setup/contrast";

const WHITE = "255 255 255";
const daySurface = appearanceVariables(false)["--surface"]!;
const nightSurface = appearanceVariables(true)["--surface"]!;

describe.each(THEME_NAMES)("the %s theme", (name) => {
  const t = THEMES[name];
  it.each<[string, string, string]>([
    ["white text on a brand button or badge", WHITE, t.brand],
    ["white text on the pressed (darker) button", WHITE, t.dark],
    ["brand text on a card by day", t.brand, daySurface],
    ["brand text on the card at night", t.light, nightSurface],
    ["a soft badge by day", t.dark, t.soft],
    ["a soft badge at night", t.light, t.night],
  ])("%s reaches 4.5:1", (_use, text, background) => {
    expect(contrast(text, background)).toBeGreaterThanOrEqual(4.5);
  });
});
