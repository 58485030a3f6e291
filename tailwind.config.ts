import type { Config } from "tailwindcss";
import colors from "tailwindcss/colors";
import plugin from "tailwindcss/plugin";

// Theme colours are CSS variables set on <html data-theme=…> (see app/tailwind.css), so the
// server renders the chosen theme and no JavaScript is needed to switch it.
//
// The dark appearance (<html data-appearance="dark">, or "system" with a dark phone) is the same
// classes over other values: every palette colour is a CSS variable. Text, borders and rings take
// the mirrored shade (slate-800 text becomes slate-100); backgrounds mirror only their light tints
// (bg-red-50 becomes a deep red), while solid fills (500 and darker, under white text) stay as they
// are. Cards (bg-white) become a dark surface; text-white stays white.
const PALETTES = ["slate", "red", "amber", "emerald", "green", "sky", "rose", "violet", "orange", "teal", "pink", "indigo", "purple", "blue", "yellow", "cyan", "lime"] as const;
const SHADES = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950] as const;
type Shade = (typeof SHADES)[number];

/** Text, borders, rings: the mirrored shade, with 500 lifted to 400 for AA contrast on dark. */
const TEXT_AT_NIGHT: Record<Shade, Shade> = { 50: 950, 100: 900, 200: 800, 300: 600, 400: 500, 500: 400, 600: 300, 700: 200, 800: 100, 900: 50, 950: 50 };
/** Background tints: the page grey goes darkest, cards' insets a step lighter; colours to their deepest. */
const SLATE_TINT_AT_NIGHT: Partial<Record<Shade, Shade>> = { 50: 800, 100: 950, 200: 700, 300: 600, 400: 500 };
const TINT_AT_NIGHT: Partial<Record<Shade, Shade>> = { 50: 950, 100: 900, 200: 800, 300: 700, 400: 600 };

const rgb = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(" ");
const palette = (name: (typeof PALETTES)[number]) => colors[name] as Record<Shade, string>;

export function appearanceVariables(night: boolean) {
  const out: Record<string, string> = {};
  for (const name of PALETTES) {
    const tints = name === "slate" ? SLATE_TINT_AT_NIGHT : TINT_AT_NIGHT;
    for (const shade of SHADES) {
      out[`--c-${name}-${shade}`] = rgb(palette(name)[night ? TEXT_AT_NIGHT[shade] : shade]);
      out[`--bg-${name}-${shade}`] = rgb(palette(name)[night ? (tints[shade] ?? shade) : shade]);
    }
  }
  out["--surface"] = night ? rgb(colors.slate[900]) : "255 255 255";
  out["--brand-soft"] = night ? "var(--brand-soft-night)" : "var(--brand-soft-day)";
  out["--brand-text"] = night ? "var(--brand-text-night)" : "var(--brand)";
  // text-brand-dark (on bg-brand-soft): the theme's dark shade by day, its light one at night.
  out["--brand-dark-text"] = night ? "var(--brand-text-night)" : "var(--brand-dark)";
  return out;
}

const shadesOf = (prefix: string, name: string) => Object.fromEntries(SHADES.map((shade) => [shade, `rgb(var(--${prefix}-${name}-${shade}) / <alpha-value>)`]));

const night = { ...appearanceVariables(true), colorScheme: "dark" };

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        ...Object.fromEntries(PALETTES.map((name) => [name, shadesOf("c", name)])),
        brand: {
          DEFAULT: "rgb(var(--brand) / <alpha-value>)",
          dark: "rgb(var(--brand-dark) / <alpha-value>)",
          soft: "rgb(var(--brand-soft) / <alpha-value>)",
        },
      },
      backgroundColor: {
        ...Object.fromEntries(PALETTES.map((name) => [name, shadesOf("bg", name)])),
        white: "rgb(var(--surface) / <alpha-value>)",
      },
      textColor: {
        brand: {
          DEFAULT: "rgb(var(--brand-text) / <alpha-value>)",
          dark: "rgb(var(--brand-dark-text) / <alpha-value>)",
          soft: "rgb(var(--brand-soft) / <alpha-value>)",
        },
      },
      fontFamily: {
        sans: ["-apple-system", "BlinkMacSystemFont", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "sans-serif"],
      },
    },
  },
  plugins: [
    plugin(({ addBase }) => {
      addBase({
        ":root": appearanceVariables(false),
        'html[data-appearance="dark"]': night,
        "@media (prefers-color-scheme: dark)": { 'html[data-appearance="system"]': night },
      });
    }),
  ],
} satisfies Config;
