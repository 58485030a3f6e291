import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ICON_NAMES, isIconName } from "./icons";

const sprite = fs.readFileSync(new URL("./icon-sprite.svg", import.meta.url), "utf8");
const symbolIds = [...sprite.matchAll(/<symbol id="([^"]+)" viewBox="0 0 24 24">/g)].map((match) => match[1]);

describe("the icon sprite", () => {
  it("draws exactly the names the Icon type allows, each once", () => {
    expect([...symbolIds].sort()).toEqual([...ICON_NAMES].sort());
    expect(new Set(symbolIds).size).toBe(symbolIds.length);
  });

  // The page's <svg> carries only a size class (Icon), so each symbol must draw its own strokes.
  it("gives every symbol its stroke attributes", () => {
    const bodies = [...sprite.matchAll(/<symbol id="[^"]+" viewBox="0 0 24 24">(.*?)<\/symbol>/gs)].map((match) => match[1]);
    expect(bodies).toHaveLength(ICON_NAMES.length);
    for (const body of bodies) {
      expect(body).toMatch(/^<g fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">.*<\/g>$/s);
    }
  });

  it.each([
    ["calendar", true],
    ["note", true],
    ["toString", false],
    ["", false],
  ])("isIconName(%j) is %s", (name, expected) => {
    expect(isIconName(name)).toBe(expected);
  });
});
