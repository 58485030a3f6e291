// Six colour themes. The server renders the chosen one as CSS variables on <html>, so the
// page never flashes the wrong colour and switching needs no JavaScript.
export const THEMES = {
  blue: { label: "海洋蓝", brand: "37 99 235", dark: "29 78 216", soft: "219 234 254" },
  green: { label: "森林绿", brand: "22 163 74", dark: "21 128 61", soft: "220 252 231" },
  purple: { label: "梦幻紫", brand: "147 51 234", dark: "126 34 206", soft: "243 232 255" },
  orange: { label: "活力橙", brand: "234 88 12", dark: "194 65 12", soft: "255 237 213" },
  red: { label: "中国红", brand: "220 38 38", dark: "185 28 28", soft: "254 226 226" },
  cyan: { label: "清新青", brand: "8 145 178", dark: "14 116 144", soft: "207 250 254" },
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

/** The inline style for <html>: three CSS variables Tailwind's `brand` colours read. */
export function themeStyle(theme: ThemeName): Record<string, string> {
  const t = THEMES[theme];
  return { "--brand": t.brand, "--brand-dark": t.dark, "--brand-soft": t.soft };
}

/** The theme cookie for visitors without an account: just the name, a year, readable by the server. */
export function themeCookieHeader(theme: ThemeName, secure: boolean) {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}

export function readThemeCookie(cookieHeader: string | null): ThemeName | undefined {
  const match = /(?:^|;\s*)theme=([a-z]+)/.exec(cookieHeader ?? "");
  return match && isThemeName(match[1]) ? match[1] : undefined;
}
