import { loginPath, safeRedirect } from "./redirect";

/**
 * The access guard: which paths anyone may open, which are machine endpoints that check for
 * themselves, and which pages stay reachable outside the messenger. One table, one row a rule.
 *
 * - `page`: an open page (no student login needed).
 * - `machine`: JSON, notification, calendar, health and asset endpoints. Never redirected;
 *   each one checks what it needs itself.
 * - `outsideMessenger: true`: in production this page is shown even outside the messenger.
 */
export type AccessRule = {
  pattern: string; // "/x" matches exactly, "/x/**" matches /x and everything below it
  kind: "page" | "machine";
  outsideMessenger?: boolean;
  why: string;
};

export const OPEN_ROUTES: AccessRule[] = [
  { pattern: "/", kind: "page", why: "redirects to /market" },
  { pattern: "/market/**", kind: "page", why: "the market and the promo page are open to anyone" },
  { pattern: "/CustomerService", kind: "page", outsideMessenger: true, why: "customer service is open to anyone" },
  { pattern: "/crLogin", kind: "page", why: "the login page" },
  { pattern: "/login", kind: "page", why: "login alias used by market dialogs" },
  { pattern: "/blog/**", kind: "page", outsideMessenger: true, why: "the static blog" },
  { pattern: "/wx/callback", kind: "page", why: "return point of the messenger authorization" },
  { pattern: "/admin/**", kind: "page", outsideMessenger: true, why: "operators: requireAdmin checks every loader" },
  { pattern: "/healthz", kind: "machine", why: "health check for the proxy and Docker" },
  { pattern: "/readyz", kind: "machine", why: "readiness for the proxy: database, upload storage and background jobs (no personal data)" },
  { pattern: "/schedule/calendar/*.ics", kind: "machine", why: "calendar feed; its secret token is the check" },
  { pattern: "/api/**", kind: "machine", why: "JSON endpoints; each checks what it needs (pay notify checks the signature)" },
  { pattern: "/errands/**", kind: "machine", why: "recognition endpoints; requireMessengerUser" },
  { pattern: "/coupon/**", kind: "machine", why: "coupon endpoints; requireMessengerUser" },
  { pattern: "/info/**", kind: "machine", why: "school list and config" },
  { pattern: "/build/**", kind: "machine", why: "compiled assets" },
  { pattern: "/assets/**", kind: "machine", why: "static assets" },
  { pattern: "/uploads/**", kind: "machine", why: "uploaded images: a student's or operator's session, or a signed address" },
  { pattern: "/favicon.ico", kind: "machine", why: "icon" },
  { pattern: "/share-card.png", kind: "machine", why: "the share card image the messenger fetches" },
  { pattern: "/share-card/*", kind: "machine", why: "a visible post's share card thumbnail the messenger fetches" },
  { pattern: "/robots.txt", kind: "machine", why: "crawlers" },
  { pattern: "/schedule-sw.js", kind: "machine", why: "the timetable's offline service worker: a static script, no data (a redirect would fail its registration)" },
];

export const LOGIN_PATHS = ["/crLogin", "/login"];
export const LOGGED_IN_HOME = "/schedule";
export const OUTSIDE_MESSENGER_HOME = "/blog";

/** A pattern of the table as a test of a path: exact, `/x/*` (one segment) or `/x/**` (anything under it). */
function matcherOf(pattern: string): (pathname: string) => boolean {
  if (pattern.endsWith("/**")) {
    const base = pattern.slice(0, -3);
    return base === "" ? () => true : (pathname) => pathname === base || pathname.startsWith(`${base}/`);
  }
  if (pattern.includes("*")) {
    const regex = new RegExp(`^${pattern.split("*").map(escapeRegex).join("[^/]+")}$`);
    return (pathname) => regex.test(pathname);
  }
  return (pathname) => pathname === pattern;
}

function escapeRegex(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Every request is judged against the table: its patterns are compiled once, not per request.
const MATCHERS = OPEN_ROUTES.map((rule) => ({ rule, matches: matcherOf(rule.pattern) }));

export function ruleFor(pathname: string) {
  return MATCHERS.find((matcher) => matcher.matches(pathname))?.rule;
}

export type AccessInput = {
  pathname: string;
  search?: string;
  hasStudent: boolean;
  isMessenger: boolean;
  /** Production and ALLOW_ANY_BROWSER not set: send visitors outside the messenger to the blog. */
  messengerOnly: boolean;
};

export type AccessDecision = { kind: "allow" } | { kind: "redirect"; location: string; reason: string };

export function decideAccess(input: AccessInput): AccessDecision {
  const pathname = normalisePath(input.pathname);
  const rule = ruleFor(pathname);
  if (rule?.kind === "machine") return { kind: "allow" };

  if (input.messengerOnly && !input.isMessenger && !rule?.outsideMessenger) {
    return { kind: "redirect", location: OUTSIDE_MESSENGER_HOME, reason: "outside-messenger" };
  }
  if (input.hasStudent && LOGIN_PATHS.includes(pathname)) {
    // Signed in meanwhile (the bound messenger identity, a login in another tab): on to the page
    // the login was for, never a login page again, else the timetable.
    const target = safeRedirect(new URLSearchParams(input.search ?? "").get("redirectTo"), LOGGED_IN_HOME);
    const location = LOGIN_PATHS.includes(normalisePath(target.split(/[?#]/)[0]!)) ? LOGGED_IN_HOME : target;
    return { kind: "redirect", location, reason: "already-logged-in" };
  }
  if (rule || input.hasStudent) return { kind: "allow" };
  return { kind: "redirect", location: loginPath(pathname + (input.search ?? "")), reason: "login-required" };
}

/** "/schedule/" and "/schedule" are one route; collapse repeated slashes too. */
export function normalisePath(pathname: string) {
  const collapsed = pathname.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 ? collapsed.replace(/\/$/, "") : collapsed;
}
