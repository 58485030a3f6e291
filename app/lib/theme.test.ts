import { describe, expect, it } from "vitest";
import { DEFAULT_THEME, THEME_NAMES, appearanceOrDefault, colorSchemeOf, readAppearanceCookie, readThemeCookie, themeCookieHeader, themeOrDefault, themeStyle } from "./theme";

describe("themes", () => {
  it("has the six themes of the product rules, blue first and default", () => {
    expect(THEME_NAMES).toEqual(["blue", "green", "purple", "orange", "red", "cyan"]);
    expect(DEFAULT_THEME).toBe("blue");
  });

  it.each([
    ["theme=green", "green"],
    ["a=1; theme=cyan; b=2", "cyan"],
    ["theme=pink", undefined],
    ["mytheme=red", undefined],
    ["", undefined],
  ])("reads the cookie %j as %s", (header, expected) => {
    expect(readThemeCookie(header)).toBe(expected);
  });

  it.each(THEME_NAMES)("round-trips %s through the cookie", (name) => {
    const header = themeCookieHeader(name, false);
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    expect(header).not.toContain("Secure");
    expect(readThemeCookie(header.split(";")[0])).toBe(name);
  });

  it("marks the cookie Secure in production", () => {
    expect(themeCookieHeader("red", true)).toContain("; Secure");
  });

  it.each([
    [undefined, "blue"],
    ["purple", "purple"],
    ["__proto__", "blue"],
    ["toString", "blue"],
  ])("themeOrDefault(%j) = %s", (value, expected) => {
    expect(themeOrDefault(value)).toBe(expected);
  });

  it("renders CSS variables as RGB triples", () => {
    expect(themeStyle("green")["--brand"]).toMatch(/^\d+ \d+ \d+$/);
  });
});

describe("the appearance (light, dark or following the phone)", () => {
  it.each([
    ["system", "light dark"],
    ["light", "light"],
    ["dark", "dark"],
  ] as const)("%s → color-scheme %s", (appearance, scheme) => {
    expect(colorSchemeOf(appearance)).toBe(scheme);
  });

  it.each([
    ["appearance=dark", "dark"],
    ["theme=green; appearance=system", "system"],
    ["appearance=purple", undefined],
    ["", undefined],
  ])("reads %j from the cookie header as %s", (header, appearance) => {
    expect(readAppearanceCookie(header)).toBe(appearance);
  });

  it("defaults to following the phone (跟随系统) and refuses unknown values", () => {
    expect(appearanceOrDefault(undefined)).toBe("system");
    expect(appearanceOrDefault("night")).toBe("system");
    expect(colorSchemeOf(appearanceOrDefault(undefined))).toBe("light dark");
    expect(appearanceOrDefault("dark")).toBe("dark");
  });

  it("gives every theme a day tint, a night tint and a lighter text colour for dark pages", () => {
    for (const name of THEME_NAMES) {
      const style = themeStyle(name);
      expect(Object.keys(style).sort()).toEqual(["--brand", "--brand-dark", "--brand-soft-day", "--brand-soft-night", "--brand-text-night"]);
    }
  });
});
