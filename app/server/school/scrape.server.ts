// Helpers both HTML-speaking adapters (ZFsoft, QiangZhi) share: a tiny cookie jar and the
// mapping of network failures. Their pages are read by html.server (a real parser).
import { outboundErrorOf } from "../outbound/outbound.server";
import { AcademicSystemError } from "./types";

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
