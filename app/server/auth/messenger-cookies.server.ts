// The two short-lived cookies of the messenger authorization.
// - wx_auth_lock: when this browser last went to the provider. A second redirect within 10 s is
//   refused instead of looping (the product rules' redirect lock).
// - wx_oauth_state: the states this browser started (signed), so a callback link made in
//   another browser cannot complete an authorization here (login CSRF).
import { REDIRECT_LOCK_MS, STATE_LIFETIME_MS } from "~/lib/wechat-auth";
import { appCookie } from "../http/cookies.server";

const MAX_PENDING_STATES = 3;

function lockCookie() {
  // A timestamp that only slows a loop down: nothing to forge.
  return appCookie("wx_auth_lock", { maxAge: REDIRECT_LOCK_MS / 1000, signed: false });
}

function stateCookie() {
  return appCookie("wx_oauth_state", { path: "/api/wechat", maxAge: STATE_LIFETIME_MS / 1000 });
}

/** True while this browser's last authorization redirect is less than 10 s old. */
export async function authLockActive(request: Request, now = Date.now()): Promise<boolean> {
  const value = await lockCookie().parse(request.headers.get("Cookie"));
  const startedAt = Number(value);
  if (!Number.isFinite(startedAt) || startedAt <= 0) return false;
  return startedAt <= now + 1000 && now - startedAt < REDIRECT_LOCK_MS;
}

export function setAuthLock(now = Date.now()) {
  return lockCookie().serialize(String(now));
}

export function clearAuthLock() {
  return lockCookie().serialize("", { maxAge: 0 });
}

async function pendingStates(request: Request): Promise<string[]> {
  const value = await stateCookie().parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Remembers a state this browser started (the last three, for parallel tabs). */
export async function rememberState(request: Request, state: string) {
  const states = [...(await pendingStates(request)).filter((item) => item !== state), state].slice(-MAX_PENDING_STATES);
  return stateCookie().serialize(states);
}

export async function browserStartedState(request: Request, state: string) {
  return (await pendingStates(request)).includes(state);
}
