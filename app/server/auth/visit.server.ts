import crypto from "node:crypto";
import { appCookie } from "../http/cookies.server";

// The pre-login cookie: a signed random id the server sets with the pages it shows. A browser
// that holds it was shown one of our pages; a script posting straight at a form never was.
// Anonymous writes that only a person's browser needs (the draft stash) require it.

const VISIT_LIFETIME_S = 30 * 24 * 60 * 60;
export const VISIT_COOKIE = "__visit";

function visitCookie() {
  return appCookie(VISIT_COOKIE, { maxAge: VISIT_LIFETIME_S });
}

/** True when the request carries our signed pre-login cookie. */
export async function hasVisited(cookieHeader: string | null | undefined): Promise<boolean> {
  if (!cookieHeader?.includes(`${VISIT_COOKIE}=`)) return false;
  const value: unknown = await visitCookie().parse(cookieHeader);
  return typeof value === "string" && /^[\w-]{22}$/.test(value);
}

/** The Set-Cookie of a fresh pre-login cookie. */
export function visitCookieHeader(): Promise<string> {
  return visitCookie().serialize(crypto.randomBytes(16).toString("base64url"));
}
