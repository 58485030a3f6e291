// Helpers both HTML-speaking adapters (ZFsoft, QiangZhi) share: their options and outbound
// client, a tiny cookie jar, the request headers and the mapping of network failures. Their pages
// are read by html.server (a real parser).
import { createOutboundFetch, outboundErrorOf, type OutboundOptions } from "../outbound/outbound.server";
import { compareTerms, defaultWeek1Start, termLabel } from "../../lib/term";
import { AcademicSystemError, type AcademicSession, type TermInfo } from "./types";

export const DEFAULT_TIMEOUT_MS = 15_000;
/** The systems list every term since the school opened; the selector needs the recent ones. */
const MAX_TERMS = 12;

/** The term selector: the current term with its week 1, and the most recent of `codes`, newest first. */
export function termInfo(currentTerm: string, codes: string[], week1Starts: Record<string, string>): TermInfo {
  return {
    currentTerm,
    week1Start: week1Starts[currentTerm] ?? defaultWeek1Start(currentTerm)!,
    terms: codes
      .sort((a, b) => compareTerms(b, a))
      .slice(0, MAX_TERMS)
      .map((code) => ({ code, label: termLabel(code) })),
  };
}

/** What both adapters are made with (each names its own form of `baseUrl`). */
export interface ScrapeOptions {
  baseUrl: string;
  timeoutMs?: number;
  /** The outbound client's settings (tests name their loopback fake in allowHosts). */
  outbound?: OutboundOptions;
  /** Monday of week 1 per term code, when the school publishes it. */
  week1Starts?: Record<string, string>;
  now?: () => Date;
}

/**
 * The adapter's settings with their defaults, and its fetch: every call goes through the
 * outbound client bound to the school's host (public addresses, no redirect elsewhere, answers
 * capped).
 */
export function scrapeClient(base: string, options: ScrapeOptions) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    timeoutMs,
    fetchImpl: createOutboundFetch(base, { timeoutMs, ...options.outbound }),
    now: options.now ?? (() => new Date()),
    week1Starts: options.week1Starts ?? {},
  };
}

/** The headers of a request: what it accepts, the session's cookies, a form's type and the AJAX marker. */
export function requestHeaders(accept: string, jar: CookieJar, init: { form?: unknown; ajax?: boolean }): Record<string, string> {
  const headers: Record<string, string> = { Accept: accept };
  if (jar.size > 0) headers.Cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  if (init.form) headers["Content-Type"] = "application/x-www-form-urlencoded;charset=UTF-8";
  if (init.ajax) headers["X-Requested-With"] = "XMLHttpRequest";
  return headers;
}

/** A stored session's cookies, when it is a session of `system` (`name` says which in the error). */
export function sessionJar(session: AcademicSession, system: AcademicSession["system"], name: string): CookieJar {
  if (session.system !== system) throw new TypeError(`not a ${name} session: ${session.system}`);
  return new Map(Object.entries(session.data));
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
