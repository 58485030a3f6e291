// Every cookie the server sets, made in one place so that each gets the same protection: httpOnly
// (no script reads it), SameSite=Lax, Secure in production, and signed with the session secret
// unless it says otherwise. A cookie names only what differs: its name, path, lifetime, signing.
import { createCookie, type Cookie } from "@remix-run/node";
import { config } from "../config.server";

export type AppCookieOptions = {
  /** Seconds. */
  maxAge: number;
  path?: string;
  /**
   * Signed with the session secret (the default). Only values that prove nothing may go unsigned:
   * a random browser id, a timestamp that only slows a loop, a preference.
   */
  signed?: boolean;
};

export function appCookie(name: string, { maxAge, path = "/", signed = true }: AppCookieOptions): Cookie {
  const settings = config();
  return createCookie(name, {
    ...(signed ? { secrets: [settings.sessionSecret] } : {}),
    httpOnly: true,
    sameSite: "lax",
    secure: settings.isProduction,
    path,
    maxAge,
  });
}
