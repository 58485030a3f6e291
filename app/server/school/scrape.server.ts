// Helpers both HTML-speaking adapters (ZFsoft, QiangZhi) share: entity decoding, tag stripping,
// attribute reading, a tiny cookie jar and the mapping of network failures.
import { outboundErrorOf } from "../outbound/outbound.server";
import { AcademicSystemError } from "./types";

export function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

export function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
}

export function attribute(attrs: string, name: string): string | null {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3] ?? "") : null;
}

export type CookieJar = Map<string, string>;

export function storeCookies(jar: CookieJar, setCookies: string[]): void {
  for (const line of setCookies) {
    const pair = line.split(";", 1)[0];
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === "" || /;\s*max-age\s*=\s*(0|-\d+)\b/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

export type Answer = { status: number; location: string; body: string };

export function networkError(error: unknown): AcademicSystemError {
  if (error instanceof AcademicSystemError) return error;
  // A refused target reads like an unreachable school: the student learns nothing about what
  // the address is or which ports answer. An oversized or looping answer is a failed one.
  const refused = outboundErrorOf(error);
  if (refused) {
    const kind = refused.reason === "too_large" || refused.reason === "too_many_redirects" || refused.reason === "bad_answer" ? "failed" : "unavailable";
    return new AcademicSystemError(kind, `outbound call refused: ${refused.reason}`);
  }
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return new AcademicSystemError("timeout", "academic system timed out");
  }
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return new AcademicSystemError("unavailable", `academic system unreachable${cause}`);
}
