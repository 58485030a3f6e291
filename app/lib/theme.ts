// Six colour themes. The server renders the chosen one as CSS variables on <html>, so the
// page never flashes the wrong colour and switching needs no JavaScript.
// `light` is the brand colour as text on a dark page and `night` its soft tint there (the -300
// and -950 shades of the same hue), so brand text keeps AA contrast in the dark appearance.
// `brand` carries white text (buttons, badges, the header) at 4.5:1 or more: green, orange and
// cyan use their -700 shade for it (their -600 gave 3.3–3.7:1), and -800 when pressed.
export const THEMES = {
  blue: { label: "海洋蓝", brand: "37 99 235", dark: "29 78 216", soft: "219 234 254", light: "147 197 253", night: "23 37 84" },
  green: { label: "森林绿", brand: "21 128 61", dark: "22 101 52", soft: "220 252 231", light: "134 239 172", night: "5 46 22" },
  purple: { label: "梦幻紫", brand: "147 51 234", dark: "126 34 206", soft: "243 232 255", light: "216 180 254", night: "59 7 100" },
  orange: { label: "活力橙", brand: "194 65 12", dark: "154 52 18", soft: "255 237 213", light: "253 186 116", night: "67 20 7" },
  red: { label: "中国红", brand: "220 38 38", dark: "185 28 28", soft: "254 226 226", light: "252 165 165", night: "69 10 10" },
  cyan: { label: "清新青", brand: "14 116 144", dark: "21 94 117", soft: "207 250 254", light: "103 232 249", night: "8 51 68" },
} as const;

export type ThemeName = keyof typeof THEMES;
export const THEME_NAMES = Object.keys(THEMES) as ThemeName[];
export const DEFAULT_THEME: ThemeName = "blue";
export const THEME_COOKIE = "theme";

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === "string" && Object.hasOwn(THEMES, value);
}

export function themeOrDefault(value: unknown): ThemeName {
  return isThemeName(value) ? value : DEFAULT_THEME;
}

/**
 * The inline style for <html>: the CSS variables Tailwind's `brand` colours read. The appearance
 * (app/tailwind.css) picks the soft tint and the text colour from the light or dark pair.
 */
export function themeStyle(theme: ThemeName): Record<string, string> {
  const t = THEMES[theme];
  return { "--brand": t.brand, "--brand-dark": t.dark, "--brand-soft-day": t.soft, "--brand-soft-night": t.night, "--brand-text-night": t.light };
}

/**
 * Light or dark, beside the colour theme. `system` follows the phone through a CSS media query,
 * so the server renders the right colours in the first response and nothing flashes.
 */
export const APPEARANCES = { system: "跟随系统", light: "浅色", dark: "深色" } as const;
export type Appearance = keyof typeof APPEARANCES;
export const APPEARANCE_NAMES = Object.keys(APPEARANCES) as Appearance[];
// Logged-out visitors and accounts that never chose follow the phone.
export const DEFAULT_APPEARANCE: Appearance = "system";
export const APPEARANCE_COOKIE = "appearance";

export function isAppearance(value: unknown): value is Appearance {
  return typeof value === "string" && Object.hasOwn(APPEARANCES, value);
}

export function appearanceOrDefault(value: unknown): Appearance {
  return isAppearance(value) ? value : DEFAULT_APPEARANCE;
}

export function appearanceCookieHeader(appearance: Appearance, secure: boolean) {
  return `${APPEARANCE_COOKIE}=${appearance}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}

export function readAppearanceCookie(cookieHeader: string | null): Appearance | undefined {
  const match = /(?:^|;\s*)appearance=([a-z]+)/.exec(cookieHeader ?? "");
  return match && isAppearance(match[1]) ? match[1] : undefined;
}

/** What <meta name="color-scheme"> says, so form controls and scrollbars match. */
export function colorSchemeOf(appearance: Appearance) {
  return appearance === "system" ? "light dark" : appearance;
}

/** The theme cookie for visitors without an account: just the name, a year, readable by the server. */
export function themeCookieHeader(theme: ThemeName, secure: boolean) {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}

export function readThemeCookie(cookieHeader: string | null): ThemeName | undefined {
  const match = /(?:^|;\s*)theme=([a-z]+)/.exec(cookieHeader ?? "");
  return match && isThemeName(match[1]) ? match[1] : undefined;
}
