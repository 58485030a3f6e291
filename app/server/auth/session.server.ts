import crypto from "node:crypto";
import type { Cookie } from "@remix-run/node";
import { appCookie } from "../http/cookies.server";
import type { Selectable } from "kysely";
import { isMessengerBrowser } from "~/lib/browser";
import { messengerResumePath, needsReauthorization } from "~/lib/wechat-auth";
import { config } from "../config.server";
import { db, now } from "../db/db.server";
import { forgetRequestMemo, requestMemo, setRequestUser } from "../log.server";
import type { SessionEndReason, UsersTable } from "../db/schema";
import { compiledOnce } from "../db/compiled.server";
import { authLockActive } from "./messenger-cookies.server";

export type User = Selectable<UsersTable>;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A session unused this long ends (the idle timeout). */
export const SESSION_IDLE_MS = 30 * DAY_MS;
/** However active, a session ends this long after its login (the absolute lifetime, decision 042). */
export const SESSION_LIFETIME_MS = 90 * DAY_MS;
/** The last use is written at most this often: one write an hour, not one per request. */
export const SESSION_TOUCH_MS = 60 * 60 * 1000;
/** The device id outlives sessions: it names the browser, not a login. */
const DEVICE_LIFETIME_MS = 10 * 365 * DAY_MS;

// The cookie carries only the signed session id; everything else lives in the sessions table,
// so logout really ends a session and a login elsewhere can replace it. Its object is made once
// per configuration (every request reads it).
let sessionCookieOf: { settings: ReturnType<typeof config>; cookie: Cookie } | undefined;
function sessionCookie() {
  const settings = config();
  if (sessionCookieOf?.settings !== settings) {
    sessionCookieOf = {
      settings,
      cookie: appCookie("__session", { maxAge: SESSION_LIFETIME_MS / 1000 }),
    };
  }
  return sessionCookieOf.cookie;
}

function deviceCookie() {
  // A random id that names the browser and proves nothing.
  return appCookie("device_id", { maxAge: DEVICE_LIFETIME_MS / 1000, signed: false });
}

export async function readSessionId(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** The browser's device id (a random cookie), made on first use. */
export async function deviceIdOf(request: Request): Promise<{ deviceId: string; setCookie?: string }> {
  const existing = await deviceCookie().parse(request.headers.get("Cookie"));
  if (typeof existing === "string" && /^[\w-]{16,64}$/.test(existing)) return { deviceId: existing };
  const deviceId = crypto.randomUUID();
  return { deviceId, setCookie: await deviceCookie().serialize(deviceId) };
}

export type SessionRecord = {
  id: string;
  userId: number;
  deviceId: string;
  platform: string;
  expiresAt: string;
};

/**
 * Starts a session for a user on one device. Any other open session of the same user ends as
 * "replaced": that device's next request lands on the login page with the reason.
 */
export async function createUserSession(userId: number, options: { deviceId: string; platform: string }) {
  forgetLookups();
  const id = crypto.randomBytes(32).toString("base64url");
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + SESSION_LIFETIME_MS).toISOString();
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("sessions")
        .set({ ended_at: createdAt.toISOString(), end_reason: "replaced" })
        .where("user_id", "=", userId)
        .where("ended_at", "is", null)
        .execute();
      await trx
        .insertInto("sessions")
        .values({
          id,
          user_id: userId,
          device_id: options.deviceId,
          platform: options.platform,
          created_at: createdAt.toISOString(),
          expires_at: expiresAt,
          ended_at: null,
          end_reason: null,
          last_seen_at: createdAt.toISOString(),
        })
        .execute();
    });
  return { id, setCookie: await sessionCookie().serialize(id) };
}

export type SessionLookup =
  | { state: "none" }
  | { state: "ended"; reason: SessionEndReason; resumable?: true }
  | { state: "active"; session: SessionRecord; user: User };

/** A session with its user, by the cookie's id (both primary keys; the query-plan test reads it). */
export function sessionQuery(id: string) {
  return db()
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .select([
      "sessions.id as session_id",
      "sessions.device_id",
      "sessions.platform",
      "sessions.expires_at",
      "sessions.created_at as session_created_at",
      "sessions.last_seen_at",
      "sessions.ended_at",
      "sessions.end_reason",
    ])
    .where("sessions.id", "=", id);
}

/** Every request reads its session: compiled once (db/compiled.server.ts). */
const session = compiledOnce(sessionQuery);

// A page's GET asks for the session several times: the access guard before Remix (server.mjs),
// then the root loader (the theme) and the route's loader side by side, each with its own copy of
// the request. They share one lookup (one signature check, one query): for the whole request
// through the request context (requestMemo), and otherwise keyed by the Cookie header
// while it is in flight and until the next turn of the event loop. Only for GET and HEAD: an
// action's own changes (a login, a theme) must be seen by the loaders that run after it in the
// same request; a session started or ended here drops the request's lookup as well.
const sharedLookups = new Map<string, Promise<SessionLookup>>();
const LOOKUP_MEMO = "session-lookup:";

/** A session starts or ends: no lookup read before it is handed out again. */
function forgetLookups() {
  sharedLookups.clear();
  forgetRequestMemo(LOOKUP_MEMO);
}

export async function lookupSession(request: Request): Promise<SessionLookup> {
  const lookup = await sharedLookup(request);
  // The request line names who asked (kind and internal id, never the openid or a name).
  if (lookup.state === "active") setRequestUser({ kind: lookup.user.student_id ? "student" : "messenger", id: lookup.user.id });
  return lookup;
}

function sharedLookup(request: Request): Promise<SessionLookup> {
  const cookie = request.headers.get("Cookie");
  if (!cookie || (request.method !== "GET" && request.method !== "HEAD")) return readSession(request);
  return requestMemo(LOOKUP_MEMO + cookie, () => inFlightLookup(request, cookie));
}

function inFlightLookup(request: Request, cookie: string): Promise<SessionLookup> {
  const shared = sharedLookups.get(cookie);
  if (shared) return shared;
  const lookup = readSession(request);
  sharedLookups.set(cookie, lookup);
  const forget = () => setImmediate(() => sharedLookups.get(cookie) === lookup && sharedLookups.delete(cookie));
  lookup.then(forget, forget);
  return lookup;
}

async function readSession(request: Request): Promise<SessionLookup> {
  const id = await readSessionId(request);
  if (!id) return { state: "none" };
  const row = await session.executeTakeFirst(id);
  if (!row) return { state: "none" };
  if (row.ended_at) {
    const reason = row.end_reason ?? "logout";
    return reason === "expired" && resumable(row) ? { state: "ended", reason, resumable: true } : { state: "ended", reason };
  }
  // Deletion requested: no session of the account counts any more, whatever its row says.
  if (row.deletion_requested_at) return { state: "ended", reason: "deleted" };
  const at = Date.now();
  const lastSeen = Date.parse(row.last_seen_at ?? row.session_created_at);
  if (
    row.expires_at <= new Date(at).toISOString() ||
    at - Date.parse(row.session_created_at) >= SESSION_LIFETIME_MS ||
    at - lastSeen >= SESSION_IDLE_MS
  ) {
    await endSession(id, "expired");
    // A student bound to a messenger identity can be signed in again without a password
    // (the student guard's silent re-authorization, app/server/http/guards.server.ts).
    return resumable(row) ? { state: "ended", reason: "expired", resumable: true } : { state: "ended", reason: "expired" };
  }
  if (at - lastSeen >= SESSION_TOUCH_MS) await touchSession(id, new Date(at).toISOString());
  const {
    session_id,
    device_id,
    platform,
    expires_at,
    session_created_at: _created,
    last_seen_at: _seen,
    ended_at: _ended,
    end_reason: _reason,
    ...user
  } = row;
  return {
    state: "active",
    session: { id: session_id, userId: user.id, deviceId: device_id, platform, expiresAt: expires_at },
    user,
  };
}

/** A student bound to a messenger identity: signed in again silently after an expiry. */
function resumable(row: { openid: string | null; student_id: string | null; deletion_requested_at: string | null }) {
  return Boolean(row.openid && row.student_id && !row.deletion_requested_at);
}

function touchSession(id: string, at: string) {
  return db().updateTable("sessions").set({ last_seen_at: at }).where("id", "=", id).where("ended_at", "is", null).execute();
}

export async function endSession(id: string, reason: SessionEndReason) {
  forgetLookups();
  await db()
    .updateTable("sessions")
    .set({ ended_at: now(), end_reason: reason })
    .where("id", "=", id)
    .where("ended_at", "is", null)
    .execute();
}

export async function endUserSessions(userId: number, reason: SessionEndReason) {
  forgetLookups();
  await db()
    .updateTable("sessions")
    .set({ ended_at: now(), end_reason: reason })
    .where("user_id", "=", userId)
    .where("ended_at", "is", null)
    .execute();
}

/** Ends this request's session on the server and clears the cookie. */
export async function logout(request: Request) {
  const id = await readSessionId(request);
  if (id) await endSession(id, "logout");
  return sessionCookie().serialize("", { maxAge: 0 });
}

export async function getUser(request: Request): Promise<User | null> {
  const lookup = await lookupSession(request);
  return lookup.state === "active" ? lookup.user : null;
}

export function hasStudentAccount(user: User | null): user is User & { student_id: string; school_code: string } {
  return Boolean(user?.student_id && user.school_code);
}

const LOGIN_REASON: Partial<Record<SessionEndReason, string>> = {
  replaced: "replaced",
  credentials_invalid: "credentials",
  expired: "expired",
};

/** The login page's `reason` for a session that ended (it says why the student is asked again), if it has one. */
export function loginReasonOf(lookup: SessionLookup): string | undefined {
  return lookup.state === "ended" ? LOGIN_REASON[lookup.reason] : undefined;
}

/**
 * A messenger-bound student whose session expired, opening a page in the messenger: the silent
 * authorization (snsapi_base) signs them in again and brings them back to `returnPath`, with no
 * password. Not for data requests or forms, not without a real provider (the simulated one has a
 * page to tap), and not within the 10-second redirect lock (no loop): those get the login page.
 */
export async function silentResumePath(request: Request, lookup: SessionLookup, returnPath: string): Promise<string | null> {
  if (lookup.state !== "ended" || !lookup.resumable) return null;
  if (request.method !== "GET" || !(request.headers.get("Accept") ?? "").includes("text/html")) return null;
  if (!isMessengerBrowser(request.headers.get("User-Agent")) || config().wechat.mode !== "real") return null;
  if (await authLockActive(request)) return null;
  return messengerResumePath(returnPath);
}

/**
 * A known messenger identity opening a page: whether its authorization is 7 days old and should be
 * renewed (silently when the user already agreed). Not within the 10-second redirect lock (no loop).
 */
export async function messengerReauthorizationDue(request: Request, user: User): Promise<boolean> {
  return needsReauthorization(user, new Date()) && !(await authLockActive(request));
}
