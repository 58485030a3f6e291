import crypto from "node:crypto";
import type { Selectable } from "kysely";
import { OPERATOR_ROLES, type OperatorRole } from "~/lib/operator-roles";
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { safeRedirect } from "~/lib/redirect";
import { appCookie } from "../http/cookies.server";
import { db, isUniqueViolation, now } from "../db/db.server";
import { setRequestUser } from "../log.server";
import { countLoginFailure, countRateLimitRefusal } from "../metrics.server";
import type { OperatorsTable } from "../db/schema";
import { recordAudit } from "../admin/audit.server";
import { verifyCaptcha } from "./captcha.server";
import { spendProof } from "./proof-of-work.server";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./password.server";
import { clearAccountThrottle, recordFailure, throttleKeys, throttleWait, trustDevice } from "./rate-limit.server";

// Operators (couriers and staff) are not students: their own table, their own session rows and
// their own cookie, scoped to /admin, so one phone can hold a student session and an operator
// session side by side and neither ever stands in for the other.

/** An operator as the server hands it around: never with the password hash. */
export type Operator = Omit<Selectable<OperatorsTable>, "password_hash">;

export const OPERATOR_SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
export const OPERATOR_HOME = "/admin/orders";
export const ADMIN_LOGIN_PATH = "/admin/login";

/** Usernames are stored and compared in lower case: letters, digits, '.', '_' and '-'. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{1,31}$/;
export const OPERATOR_PASSWORD_MIN = 8;
export const OPERATOR_PASSWORD_MAX = 1024;

const OPERATOR_COLUMNS = [
  "operators.id",
  "operators.username",
  "operators.display_name",
  "operators.role",
  "operators.phone",
  "operators.available",
  "operators.openid",
  "operators.disabled",
  "operators.created_at",
  "operators.last_login_at",
] as const;

export function normaliseUsername(username: string) {
  return username.trim().normalize("NFKC").toLowerCase();
}

function operatorCookie() {
  return appCookie("__operator", { path: "/admin", maxAge: OPERATOR_SESSION_LIFETIME_MS / 1000 });
}

// ---------------------------------------------------------------------------------------------
// Login

/** A refusal: bad credentials (one answer for all), a wait (ms) to sit out, or the captcha. */
export type OperatorLoginRefusal = { ok: false; reason: "invalid" } | { ok: false; reason: "limited"; waitMs: number } | { ok: false; reason: "captcha"; captcha: "empty" | "wrong" };
export type OperatorLoginResult = { ok: true; operator: Operator; sessionId: string; setCookie: string; trustCookie: string } | OperatorLoginRefusal;

const INVALID = { ok: false, reason: "invalid" } as const;

/** What proves a human is typing: the request (for the trusted-device cookie) and the captcha. */
export type OperatorLoginProof = { request: Request; captcha: string | undefined; captchaId: string | undefined; proofOfWork?: unknown };

/**
 * Checks an operator's username and password and opens an operator session, with the students'
 * throttle model and captcha (decision 015): failures count per username and client and per
 * address, with a doubling wait; no number of failures from elsewhere keeps an operator out.
 * An unknown username, a wrong password and a disabled operator all give the same answer (and
 * take about the same time).
 */
export async function loginOperator(username: string, password: string, ip: string, proof: OperatorLoginProof): Promise<OperatorLoginResult> {
  const name = normaliseUsername(username);
  const keys = await throttleKeys(proof.request, "operator", name.slice(0, 64), ip);
  const wait = await throttleWait(keys);
  if (wait > 0) {
    countRateLimitRefusal("operator_login");
    return { ok: false, reason: "limited", waitMs: wait };
  }

  // A proof of work (decision 033): without one (no JavaScript) a failure below counts double
  // against the client's guesses across accounts.
  const proved = await spendProof(proof.proofOfWork);

  const captcha = await verifyCaptcha(proof.captchaId, proof.captcha);
  if (captcha !== "ok") {
    return { ok: false, reason: "captcha", captcha };
  }

  const row = name
    ? await db().selectFrom("operators").selectAll().where("username", "=", name).executeTakeFirst()
    : undefined;
  const passwordOk = row ? await verifyPassword(password, row.password_hash) : await verifyAgainstDummy(password);
  if (!row || !passwordOk || row.disabled) {
    countLoginFailure("operator");
    // Audited (decision 033); the password checks are throttled, so these rows are bounded.
    await recordAudit(db(), row ?? { id: null, display_name: name.slice(0, 32) || "-" }, {
      action: "operator_login_failed",
      detail: `${!row ? "unknown username" : row.disabled && passwordOk ? "disabled" : "wrong password"}; client ${ip}`,
    });
    const nextWait = await recordFailure(keys, proved ? 1 : PROOF_OF_WORK.failuresWithoutProof);
    if (nextWait > 0) return { ok: false, reason: "limited", waitMs: nextWait };
    return INVALID;
  }

  const { password_hash: _hash, ...operator } = row;
  const loggedInAt = now();
  await db().updateTable("operators").set({ last_login_at: loggedInAt }).where("id", "=", row.id).execute();
  await clearAccountThrottle(keys);
  const { id, setCookie } = await createOperatorSession(row.id);
  await recordAudit(db(), row, { action: "operator_login", detail: `client ${ip}`, at: loggedInAt });
  return {
    ok: true,
    operator: { ...operator, last_login_at: loggedInAt },
    sessionId: id,
    setCookie,
    trustCookie: await trustDevice(proof.request, "operator", name.slice(0, 64)),
  };
}

/** Starts an operator session (12 hours) and returns its id and the Set-Cookie header. */
export async function createOperatorSession(operatorId: number) {
  const id = crypto.randomBytes(32).toString("base64url");
  const createdAt = new Date();
  await db()
    .insertInto("operator_sessions")
    .values({
      id,
      operator_id: operatorId,
      created_at: createdAt.toISOString(),
      expires_at: new Date(createdAt.getTime() + OPERATOR_SESSION_LIFETIME_MS).toISOString(),
      ended_at: null,
    })
    .execute();
  return { id, setCookie: await operatorCookie().serialize(id) };
}

// ---------------------------------------------------------------------------------------------
// Sessions (the routes' guards are app/server/http/guards.server.ts)

async function readOperatorSessionId(request: Request): Promise<string | null> {
  const value = await operatorCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** The operator of an active session id: the session not ended, not expired, the operator enabled. */
async function operatorOfSession(sessionId: string): Promise<Operator | null> {
  const row = await db()
    .selectFrom("operator_sessions")
    .innerJoin("operators", "operators.id", "operator_sessions.operator_id")
    .select(OPERATOR_COLUMNS)
    .select(["operator_sessions.expires_at", "operator_sessions.ended_at"])
    .where("operator_sessions.id", "=", sessionId)
    .executeTakeFirst();
  if (!row || row.ended_at) return null;
  if (row.expires_at <= now()) {
    await endOperatorSession(sessionId);
    return null;
  }
  const { expires_at: _expires, ended_at: _ended, ...operator } = row;
  if (operator.disabled) return null;
  return operator;
}

/** The signed-in operator, or null. A student session is irrelevant here. */
export async function getOperator(request: Request): Promise<Operator | null> {
  const id = await readOperatorSessionId(request);
  const operator = id ? await operatorOfSession(id) : null;
  if (operator) setRequestUser({ kind: "operator", id: operator.id });
  return operator;
}

export function adminLoginPath(redirectTo?: string) {
  const target = redirectTo ? adminRedirect(redirectTo) : OPERATOR_HOME;
  return target === OPERATOR_HOME ? ADMIN_LOGIN_PATH : `${ADMIN_LOGIN_PATH}?redirectTo=${encodeURIComponent(target)}`;
}

/** Where to go after the operator login: an /admin page of this site, else the orders. */
export function adminRedirect(target: unknown) {
  const path = safeRedirect(target, OPERATOR_HOME);
  const pathname = path.split(/[?#]/)[0]!;
  if (!pathname.startsWith("/admin/") || pathname === ADMIN_LOGIN_PATH || pathname === "/admin/logout") return OPERATOR_HOME;
  return path;
}

export async function endOperatorSession(sessionId: string) {
  await db()
    .updateTable("operator_sessions")
    .set({ ended_at: now() })
    .where("id", "=", sessionId)
    .where("ended_at", "is", null)
    .execute();
}

export async function endOperatorSessions(operatorId: number) {
  await db()
    .updateTable("operator_sessions")
    .set({ ended_at: now() })
    .where("operator_id", "=", operatorId)
    .where("ended_at", "is", null)
    .execute();
}

/** Ends this request's operator session on the server; returns the Set-Cookie that clears it. */
export async function logoutOperator(request: Request): Promise<string> {
  const id = await readOperatorSessionId(request);
  if (id) {
    const operator = await operatorOfSession(id);
    await endOperatorSession(id);
    if (operator) await recordAudit(db(), operator, { action: "operator_logout" });
  }
  return operatorCookie().serialize("", { maxAge: 0 });
}

// ---------------------------------------------------------------------------------------------
// Linking a messenger openid (to receive new-order messages)
//
// /admin/settings posts 'link-messenger'; its action sets a short-lived cookie scoped to
// /api/wechat (the operator cookie stays on /admin, so the OAuth endpoints could not see it) and
// redirects to /api/wechat/auth?redirect_url=/admin/settings&purpose=operator. The OAuth code
// calls operatorForLink(request) there to learn which operator is linking (and again in the
// callback), keeps its id on the OAuth state, and on return calls linkOperatorOpenid().

export const OPERATOR_LINK_LIFETIME_MS = 10 * 60 * 1000;
export const OPERATOR_LINK_PATH = "/api/wechat/auth?redirect_url=/admin/settings&purpose=operator";

function operatorLinkCookie() {
  return appCookie("__operator_link", { path: "/api/wechat", maxAge: OPERATOR_LINK_LIFETIME_MS / 1000 });
}

/**
 * Set-Cookie for the start of a link: ties the OAuth round trip to this operator session. Null
 * when the request has no active operator session (then the operator login).
 */
export async function startOperatorLink(request: Request): Promise<string | null> {
  const sessionId = await readOperatorSessionId(request);
  if (!sessionId || !(await operatorOfSession(sessionId))) return null;
  return operatorLinkCookie().serialize({ s: sessionId, exp: Date.now() + OPERATOR_LINK_LIFETIME_MS });
}

/**
 * For /api/wechat/auth and /api/wechat/callback with purpose=operator: the operator who started
 * the link from /admin/settings in this browser within the last 10 minutes and is still signed
 * in and enabled, else null (then send the browser to /admin/login?redirectTo=/admin/settings).
 */
export async function operatorForLink(request: Request): Promise<Operator | null> {
  const value: unknown = await operatorLinkCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const { s, exp } = value as { s?: unknown; exp?: unknown };
  if (typeof s !== "string" || typeof exp !== "number" || exp <= Date.now()) return null;
  return operatorOfSession(s);
}

/** Set-Cookie that removes the link cookie (the callback may send it when done). */
export function clearOperatorLink(): Promise<string> {
  return operatorLinkCookie().serialize("", { maxAge: 0 });
}

export type OperatorLinkResult = { ok: true } | { ok: false; reason: "operator_unavailable" | "openid_taken" };

/**
 * Writes the messenger openid to the operator (never to a users row). The openid may belong to
 * one operator at a time: linking it to another operator is refused as 'openid_taken'.
 */
export async function linkOperatorOpenid(operatorId: number, openid: string): Promise<OperatorLinkResult> {
  if (!openid) return { ok: false, reason: "operator_unavailable" };
  return db()
    .transaction()
    .execute(async (trx) => {
      const operator = await trx
        .selectFrom("operators")
        .select(["id", "disabled"])
        .where("id", "=", operatorId)
        .executeTakeFirst();
      if (!operator || operator.disabled) return { ok: false, reason: "operator_unavailable" } as const;
      const holder = await trx.selectFrom("operators").select("id").where("openid", "=", openid).executeTakeFirst();
      if (holder && holder.id !== operatorId) return { ok: false, reason: "openid_taken" } as const;
      try {
        await trx.updateTable("operators").set({ openid }).where("id", "=", operatorId).execute();
      } catch (error) {
        // A concurrent link of the same openid won the unique constraint.
        if (isUniqueViolation(error)) return { ok: false, reason: "openid_taken" } as const;
        throw error;
      }
      return { ok: true } as const;
    });
}

export async function unlinkOperatorOpenid(operatorId: number) {
  await db().updateTable("operators").set({ openid: null }).where("id", "=", operatorId).execute();
}


// ---------------------------------------------------------------------------------------------
// Management (the admin:create command line only)

export class OperatorError extends Error {}

export function checkNewPassword(password: string) {
  if (password.length < OPERATOR_PASSWORD_MIN) {
    throw new OperatorError(`The password must have at least ${OPERATOR_PASSWORD_MIN} characters.`);
  }
  if (password.length > OPERATOR_PASSWORD_MAX) {
    throw new OperatorError(`The password must have at most ${OPERATOR_PASSWORD_MAX} characters.`);
  }
}

function checkUsername(username: string) {
  const name = normaliseUsername(username);
  if (!USERNAME_PATTERN.test(name)) {
    throw new OperatorError(
      "The username must be 2–32 characters: letters, digits, '.', '_' or '-', starting with a letter or digit.",
    );
  }
  return name;
}

function checkDisplayName(displayName: string) {
  const name = displayName.trim();
  if (name.length < 1 || name.length > 32) throw new OperatorError("The display name must be 1–32 characters.");
  return name;
}

export function checkRole(role: string): OperatorRole {
  if (!(OPERATOR_ROLES as readonly string[]).includes(role)) throw new OperatorError(`The role must be one of: ${OPERATOR_ROLES.join(", ")}.`);
  return role as OperatorRole;
}

export async function createOperator(input: { username: string; password: string; displayName?: string; role?: string }) {
  const username = checkUsername(input.username);
  const role = checkRole(input.role ?? "operator");
  checkNewPassword(input.password);
  const displayName = checkDisplayName(input.displayName ?? username);
  const existing = await db().selectFrom("operators").select("id").where("username", "=", username).executeTakeFirst();
  if (existing) throw new OperatorError(`Operator ${username} already exists (use --reset to set a new password).`);
  const row = await db()
    .insertInto("operators")
    .values({
      username,
      display_name: displayName,
      password_hash: await hashPassword(input.password),
      role,
      openid: null,
      disabled: 0,
      created_at: now(),
      last_login_at: null,
    })
    .returning(["id", "username", "display_name", "role"])
    .executeTakeFirstOrThrow();
  return row;
}

/** Sets a new password, enables the operator again and ends all of its sessions. */
export async function resetOperator(input: { username: string; password: string; displayName?: string; role?: string }) {
  const username = checkUsername(input.username);
  checkNewPassword(input.password);
  const role = input.role === undefined ? undefined : checkRole(input.role);
  const displayName = input.displayName === undefined ? undefined : checkDisplayName(input.displayName);
  const row = await db().selectFrom("operators").select("id").where("username", "=", username).executeTakeFirst();
  if (!row) throw new OperatorError(`No operator ${username} (leave out --reset to create one).`);
  await db()
    .updateTable("operators")
    .set({ password_hash: await hashPassword(input.password), disabled: 0, ...(displayName ? { display_name: displayName } : {}), ...(role ? { role } : {}) })
    .where("id", "=", row.id)
    .execute();
  await endOperatorSessions(row.id);
  return db().selectFrom("operators").select(["id", "username", "display_name", "role"]).where("id", "=", row.id).executeTakeFirstOrThrow();
}

/** Disables the operator and ends all of its sessions at once. */
export async function disableOperator(usernameInput: string) {
  const username = checkUsername(usernameInput);
  const row = await db().selectFrom("operators").select("id").where("username", "=", username).executeTakeFirst();
  if (!row) throw new OperatorError(`No operator ${username}.`);
  await db().updateTable("operators").set({ disabled: 1 }).where("id", "=", row.id).execute();
  await endOperatorSessions(row.id);
  return { id: row.id, username };
}
