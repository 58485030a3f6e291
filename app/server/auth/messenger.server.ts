// The messenger OAuth (scope snsapi_userinfo), see docs/protocols/messenger.md:
//   /api/wechat/auth      startAuthorization: a random state (return path kept here), 302 to the provider
//   /api/wechat/callback  the state once, code → access_token → userinfo, the identity stored on the
//                         right user row, a session, back to the return path
// Both routes go through the remix-auth MessengerStrategy (app/server/http/messenger-strategy.server.ts), which
// runs these steps in order; this module holds the steps and the rows.
// The base URLs are configuration: tests point them at a fake on loopback, and the simulated
// provider of development is an in-app copy of the real API, so this code runs unchanged there.
// Codes, tokens and openids are never logged.
import crypto from "node:crypto";
import type { Kysely, Selectable, Transaction } from "kysely";
import * as z from "zod";
import { isMessengerBrowser } from "~/lib/browser";
import { nicknameColumns, nicknameFromMessenger, nicknameTaken } from "../users/nickname.server";
import { loginPath, safeRedirect } from "~/lib/redirect";
import {
  MESSENGER_CALLBACK_PATH,
  MESSENGER_DEFAULT_RETURN,
  STATE_LIFETIME_MS,
  messengerAuthPathFor,
  needsReauthorization,
  type MessengerErrorCode,
} from "~/lib/wechat-auth";
import { WECHAT_DEFAULT_API_BASE_URL, config } from "../config.server";
import { ownOrigins, publicOrigin } from "../http/public-origin";
import { db, now } from "../db/db.server";
import type { Database, OAuthStatesTable, UsersTable } from "../db/schema";
import { moveForumData } from "../forum/posts.server";
import { log } from "../log.server";
import { mergeNotifyRows } from "../notify/personal-data.server";
import { authLockActive, browserStartedState, rememberState, setAuthLock } from "./messenger-cookies.server";
import { clearOperatorLink, linkOperatorOpenid, operatorForLink } from "./operator.server";
import { createUserSession, deviceIdOf, hasStudentAccount, logout, lookupSession, type User } from "./session.server";
import { moveMarketData } from "../market/merge.server";
import { moveCouponData } from "../coupons/personal-data.server";
import { moveOrderRows } from "../orders/personal-data.server";
import { deleteUserData } from "../users/deletion.server";

export { needsReauthorization } from "~/lib/wechat-auth";

/** A failure that ends on /wx/callback?error=CODE. */
export class MessengerAuthError extends Error {
  returnPath?: string;
  /**
   * 'operator' when an operator was linking: the failure goes back to /admin/settings; 'resume'
   * (a silent sign-in again): to the login page.
   */
  purpose?: "user" | "operator" | "resume";
  constructor(
    readonly code: MessengerErrorCode,
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = "MessengerAuthError";
  }
}

// ---------------------------------------------------------------------------------------------
// The provider: real, simulated (development without an app id) or none (production without one)

export const SIMULATED_APP_ID = "wx_simulated_app";
export const SIMULATED_APP_SECRET = "simulated-app-secret";
export const SIMULATED_AUTHORIZE_PATH = "/api/wechat/simulate";
export const SIMULATED_API_PATH = "/api/wechat/sim-api";

export type MessengerProvider = {
  simulated: boolean;
  appId: string;
  appSecret: string;
  authorizeUrl: string;
  apiBaseUrl: string;
  timeoutMs: number;
};

export function isSimulatedMessenger() {
  return config().wechat.mode === "simulated";
}

export function messengerProvider(): MessengerProvider | null {
  const settings = config().wechat;
  if (settings.mode === "off") return null;
  if (settings.mode === "real") {
    return {
      simulated: false,
      appId: settings.appId!,
      appSecret: settings.appSecret ?? "",
      authorizeUrl: settings.authorizeUrl,
      apiBaseUrl: settings.apiBaseUrl ?? WECHAT_DEFAULT_API_BASE_URL,
      timeoutMs: settings.timeoutMs,
    };
  }
  return {
    simulated: true,
    appId: SIMULATED_APP_ID,
    appSecret: SIMULATED_APP_SECRET,
    // The browser stays on our site; the server calls its own simulated API over loopback.
    authorizeUrl: SIMULATED_AUTHORIZE_PATH,
    apiBaseUrl: settings.apiBaseUrl ?? `${loopbackOrigin()}${SIMULATED_API_PATH}`,
    timeoutMs: settings.timeoutMs,
  };
}

function loopbackOrigin() {
  const { host, port } = config();
  const name = ["", "0.0.0.0", "::", "localhost"].includes(host) ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** A return path from the `redirect_url` parameter: a path of ours, or a full URL of our origin. */
export function returnPathFrom(request: Request, value: string | null): string {
  return safeRedirect(value, MESSENGER_DEFAULT_RETURN, { origins: ownOrigins(request) });
}

// ---------------------------------------------------------------------------------------------
// Step 1: the authorize URL

const STATE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const STATE_LENGTH = 32;
const STATE_PATTERN = /^[A-Za-z0-9]{1,128}$/;

/** The provider's limit for `state`: a-zA-Z0-9, at most 128 bytes. Ours: 32 random characters. */
export function randomState(length = STATE_LENGTH) {
  let state = "";
  for (let i = 0; i < length; i += 1) state += STATE_ALPHABET[crypto.randomInt(STATE_ALPHABET.length)];
  return state;
}

/**
 * appid, redirect_uri, response_type, scope, state: in exactly this order, then #wechat_redirect.
 * snsapi_base (openid only, no consent page) serves the silent sign-in again of a bound student.
 */
export function buildAuthorizeUrl(input: {
  authorizeUrl: string;
  appId: string;
  redirectUri: string;
  state: string;
  scope?: "snsapi_userinfo" | "snsapi_base";
}) {
  const separator = input.authorizeUrl.includes("?") ? "&" : "?";
  return (
    `${input.authorizeUrl}${separator}appid=${encodeURIComponent(input.appId)}` +
    `&redirect_uri=${encodeURIComponent(input.redirectUri)}` +
    `&response_type=code&scope=${input.scope ?? "snsapi_userinfo"}` +
    `&state=${input.state}#wechat_redirect`
  );
}

export type AuthorizationStart = { location: string; state: string; setCookies: string[] };

/**
 * Stores a fresh state with the return path (and the purpose: a user identity, or an operator
 * linking their openid) and answers where to send the browser. Sets the state cookie that binds
 * the state to this browser and the 10-second redirect lock.
 */
export async function startAuthorization(
  request: Request,
  options: { returnPath: string | null; purpose?: StateRow["purpose"]; operatorId?: number },
): Promise<AuthorizationStart> {
  const purpose = options.purpose ?? "user";
  const returnPath = safeRedirect(options.returnPath, MESSENGER_DEFAULT_RETURN);
  const provider = messengerProvider();
  if (!provider) throw withReturnPath(new MessengerAuthError("NOT_CONFIGURED"), returnPath);
  if (purpose === "operator" && !options.operatorId) throw new Error("an operator authorization needs the operator id");

  const lookup = purpose === "user" ? await lookupSession(request) : null;
  const state = randomState();
  const created = new Date();
  // Used and expired states are kept a day (a late reload still finds its state), then removed.
  await db().deleteFrom("oauth_states").where("expires_at", "<", new Date(created.getTime() - 24 * 3600_000).toISOString()).execute();
  await db()
    .insertInto("oauth_states")
    .values({
      state,
      purpose,
      return_path: returnPath,
      session_id: lookup?.state === "active" ? lookup.session.id : null,
      operator_id: purpose === "operator" ? options.operatorId! : null,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + STATE_LIFETIME_MS).toISOString(),
      used_at: null,
    })
    .execute();

  const location = buildAuthorizeUrl({
    authorizeUrl: provider.authorizeUrl,
    appId: provider.appId,
    redirectUri: `${publicOrigin(request)}${MESSENGER_CALLBACK_PATH}`,
    state,
    scope: purpose === "resume" ? "snsapi_base" : "snsapi_userinfo",
  });
  return { location, state, setCookies: [await rememberState(request, state), await setAuthLock(created.getTime())] };
}

// ---------------------------------------------------------------------------------------------
// Steps 3 and 4: code → access_token → userinfo

export type MessengerProfile = {
  openid: string;
  unionid: string | null;
  nickname: string | null;
  avatar: string | null;
  sex: number | null;
  city: string | null;
  province: string | null;
  country: string | null;
};

const TokenAnswer = z.object({
  access_token: z.string().min(1),
  openid: z.string().min(1).max(128),
  unionid: z.string().max(128).nullish(),
  scope: z.string().nullish(),
  expires_in: z.number().nullish(),
  refresh_token: z.string().nullish(),
});

const text = z.string().max(512).nullish();
const UserInfoAnswer = z.object({
  openid: z.string().min(1).max(128),
  unionid: z.string().max(128).nullish(),
  nickname: z.string().max(256).nullish(),
  sex: z.number().int().nullish(),
  province: text,
  city: text,
  country: text,
  headimgurl: z.string().max(1024).nullish(),
  privilege: z.array(z.unknown()).nullish(),
});

const ERRCODES: Record<number, MessengerErrorCode> = {
  40029: "INVALID_CODE", // invalid code
  41008: "INVALID_CODE", // missing code
  42003: "INVALID_CODE", // code expired
  40163: "CODE_USED", // code been used
  48001: "SCOPE_UNAUTHORIZED", // api unauthorized (no snsapi_userinfo)
};

export function errorCodeFor(errcode: number): MessengerErrorCode {
  return ERRCODES[errcode] ?? "WECHAT_ERROR";
}

async function callApi(provider: MessengerProvider, path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const url = `${provider.apiBaseUrl.replace(/\/+$/, "")}${path}?${new URLSearchParams(params).toString()}`;
  let body: string;
  let status: number;
  try {
    const response = await fetch(url, {
      headers: { Accept: "application/json" },
      redirect: "error",
      signal: AbortSignal.timeout(provider.timeoutMs),
    });
    status = response.status;
    body = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    log("warn", "wechat-api-unreachable", { path, timedOut, error: timedOut ? undefined : errorName(error) });
    throw new MessengerAuthError(timedOut ? "TIMEOUT" : "NETWORK_ERROR");
  }
  if (status < 200 || status >= 300) {
    log("warn", "wechat-api-http-error", { path, status });
    throw new MessengerAuthError("WECHAT_ERROR", `HTTP ${status}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    log("warn", "wechat-api-unparsable", { path, length: body.length });
    throw new MessengerAuthError("PARSE_ERROR");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new MessengerAuthError("PARSE_ERROR");
  const answer = parsed as Record<string, unknown>;
  if (answer.errcode !== undefined && answer.errcode !== 0 && answer.errcode !== "0") {
    const errcode = Number(answer.errcode);
    log("warn", "wechat-api-error", { path, errcode });
    throw new MessengerAuthError(errorCodeFor(errcode), `errcode ${errcode}`);
  }
  return answer;
}

function errorName(error: unknown) {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: { code?: string } }).cause;
  return cause?.code ? `${error.name} (${cause.code})` : error.name;
}

/** Step 3: the one-use code for the user's access token and openid. */
export async function exchangeCode(provider: MessengerProvider, code: string) {
  const answer = await callApi(provider, "/sns/oauth2/access_token", {
    appid: provider.appId,
    secret: provider.appSecret,
    code,
    grant_type: "authorization_code",
  });
  const parsed = TokenAnswer.safeParse(answer);
  if (!parsed.success) {
    log("warn", "wechat-token-answer-invalid", { fields: Object.keys(answer).sort() });
    throw new MessengerAuthError("PARSE_ERROR");
  }
  return { accessToken: parsed.data.access_token, openid: parsed.data.openid, unionid: parsed.data.unionid ?? null };
}

/** Step 4: the user's public profile. No openid in it, or another one: NO_USER_INFO. */
export async function fetchUserInfo(
  provider: MessengerProvider,
  token: { accessToken: string; openid: string; unionid: string | null },
): Promise<MessengerProfile> {
  const answer = await callApi(provider, "/sns/userinfo", { access_token: token.accessToken, openid: token.openid, lang: "zh_CN" });
  if (typeof answer.openid !== "string" || answer.openid.length === 0 || answer.openid !== token.openid) {
    log("warn", "wechat-userinfo-without-user", { hasOpenid: typeof answer.openid === "string" && answer.openid.length > 0 });
    throw new MessengerAuthError("NO_USER_INFO");
  }
  const parsed = UserInfoAnswer.safeParse(answer);
  if (!parsed.success) {
    log("warn", "wechat-userinfo-invalid", { fields: parsed.error.issues.map((issue) => issue.path.join(".")) });
    throw new MessengerAuthError("PARSE_ERROR");
  }
  const info = parsed.data;
  return {
    openid: info.openid,
    unionid: info.unionid || token.unionid || null,
    nickname: info.nickname?.trim() || null,
    avatar: info.headimgurl || null,
    sex: info.sex === 1 || info.sex === 2 ? info.sex : info.sex === 0 ? 0 : null,
    city: info.city || null,
    province: info.province || null,
    country: info.country || null,
  };
}

// ---------------------------------------------------------------------------------------------
// Step 2 back at our callback: the state once, the exchange, the identity, the session.
// The order of these steps is the messenger strategy's (app/server/http/messenger-strategy.server.ts).

export type AuthorizationOutcome =
  | "created" // a new user row for this openid, signed in
  | "signed-in" // the openid's existing row, signed in
  | "refreshed" // this browser's own user re-authorized: profile and date renewed, session kept
  | "attached" // the identity joined the signed-in student's row
  | "merged" // …and the openid's former row moved into it
  | "operator-linked" // an operator linked their openid
  | "reload" // the state was already used and this browser is signed in: just go back
  | "restarted" // the state was already used and this browser is not signed in: authorize again
  | "resumed" // a bound student whose session expired, signed in again silently
  | "not-resumed"; // a silent attempt that found no bound student: the password login

export type AuthorizationResult = {
  outcome: AuthorizationOutcome;
  location: string;
  setCookies: string[];
  userId?: number;
};

export type StateRow = Selectable<OAuthStatesTable>;

function withReturnPath(error: MessengerAuthError, returnPath: string) {
  error.returnPath ??= returnPath;
  return error;
}

/** The stored state of an authorization, or null. A malformed state is INVALID_STATE. */
export async function findState(state: string): Promise<StateRow | null> {
  if (!STATE_PATTERN.test(state)) throw new MessengerAuthError("INVALID_STATE", "malformed state");
  return (await db().selectFrom("oauth_states").selectAll().where("state", "=", state).executeTakeFirst()) ?? null;
}

/**
 * Marks the state used, exactly once: false when another request (a reload, a parallel tab) was
 * first. Only the browser that started the authorization may finish it (no login CSRF).
 */
export async function consumeState(request: Request, row: StateRow): Promise<boolean> {
  if (!(await browserStartedState(request, row.state))) throw new MessengerAuthError("INVALID_STATE", "state of another browser");
  if (row.expires_at <= now()) throw new MessengerAuthError("INVALID_STATE", "expired state");
  const consumed = await db()
    .updateTable("oauth_states")
    .set({ used_at: now() })
    .where("state", "=", row.state)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(consumed.numUpdatedRows) === 1;
}

/** The return path a stored state carries (always one of ours). */
export function stateReturnPath(row: StateRow) {
  return safeRedirect(row.return_path, MESSENGER_DEFAULT_RETURN);
}

/** Attaches the state's return path and purpose to a failure, for /wx/callback or /admin/settings. */
export function failureOfState(error: MessengerAuthError, row: StateRow) {
  error.purpose ??= row.purpose;
  return withReturnPath(error, stateReturnPath(row));
}

/**
 * A state used already (a reload of the callback URL): the code is never exchanged again.
 * Signed in already (or an operator's link): back to the return path; otherwise a fresh
 * authorization.
 */
export async function afterUsedState(request: Request, row: StateRow): Promise<AuthorizationResult> {
  const returnPath = stateReturnPath(row);
  if (row.purpose === "operator") return { outcome: "reload", location: returnPath, setCookies: [] };
  const lookup = await lookupSession(request);
  if (lookup.state === "active" && lookup.user.openid) {
    return { outcome: "reload", location: returnPath, setCookies: [], userId: lookup.user.id };
  }
  // A silent attempt is never repeated on its own: the password login instead.
  if (row.purpose === "resume") return { outcome: "not-resumed", location: loginPath(returnPath, "expired"), setCookies: [] };
  const start = await startAuthorization(request, { returnPath });
  return { outcome: "restarted", location: start.location, setCookies: start.setCookies };
}

/**
 * The verified profile of a fresh authorization onto our rows (the messenger strategy's verify):
 * an operator's link, or a user's identity and session.
 */
export async function applyMessengerProfile(request: Request, row: StateRow, profile: MessengerProfile): Promise<AuthorizationResult> {
  const returnPath = stateReturnPath(row);
  if (row.purpose === "operator") return linkOperator(request, row, profile, returnPath);
  if (row.purpose === "resume") return resumeStudent(request, profile.openid, returnPath);
  return signIn(request, row, profile, returnPath);
}

/**
 * The silent sign-in again (scope snsapi_base, openid only) of a student whose session expired:
 * the openid's row, when it has a student account, gets a new session and the student lands where
 * they were. Anyone else goes to the password login with the same return path. The profile is
 * not touched (snsapi_base gives none), nor the 7-day authorization date.
 */
async function resumeStudent(request: Request, openid: string, returnPath: string): Promise<AuthorizationResult> {
  const owner = await db().selectFrom("users").selectAll().where("openid", "=", openid).executeTakeFirst();
  if (!owner || owner.deletion_requested_at || !hasStudentAccount(owner)) {
    return { outcome: "not-resumed", location: loginPath(returnPath, "expired"), setCookies: [] };
  }
  const device = await deviceIdOf(request);
  const session = await createUserSession(owner.id, { deviceId: device.deviceId, platform: "wechat" });
  const setCookies = [session.setCookie];
  if (device.setCookie) setCookies.push(device.setCookie);
  return { outcome: "resumed", location: returnPath, setCookies, userId: owner.id };
}

/**
 * docs/architecture.md "One person, two identities": the identity joins the signed-in student's row
 * (that row started this authorization and has no openid yet); an openid-only row of the same
 * openid is merged into it; an openid of another student is WECHAT_ALREADY_BOUND. Otherwise the
 * openid's row (found or created) is signed in with platform 'wechat'.
 */
async function signIn(request: Request, stateRow: StateRow, profile: MessengerProfile, returnPath: string): Promise<AuthorizationResult> {
  const lookup = await lookupSession(request);
  const current = lookup.state === "active" ? lookup : null;
  const student =
    current && stateRow.session_id === current.session.id && hasStudentAccount(current.user) && !current.user.openid
      ? current.user
      : null;
  const timestamp = now();

  const { userId, outcome } = await db()
    .transaction()
    .execute(async (trx): Promise<{ userId: number; outcome: AuthorizationOutcome }> => {
      let owner = await trx.selectFrom("users").selectAll().where("openid", "=", profile.openid).executeTakeFirst();
      if (owner?.deletion_requested_at) {
        // An account whose deletion was requested is never entered again: its data
        // goes now, and this identity starts afresh, as a deleted student's login does.
        await deleteUserData(trx, owner.id);
        owner = undefined;
      }
      if (student) {
        let outcome: AuthorizationOutcome = "attached";
        if (owner && owner.id !== student.id) {
          if (hasStudentAccount(owner)) throw new MessengerAuthError("WECHAT_ALREADY_BOUND");
          await mergeUserRows(owner.id, student.id, trx);
          outcome = "merged";
        }
        const target = await trx.selectFrom("users").selectAll().where("id", "=", student.id).executeTakeFirstOrThrow();
        await trx.updateTable("users").set(await profileColumns(trx, target, profile, timestamp)).where("id", "=", student.id).execute();
        return { userId: student.id, outcome };
      }

      let target = owner;
      if (!target) {
        await trx
          .insertInto("users")
          .values({ openid: profile.openid, created_at: timestamp, updated_at: timestamp })
          .onConflict((conflict) => conflict.column("openid").doNothing())
          .execute();
        target = await trx.selectFrom("users").selectAll().where("openid", "=", profile.openid).executeTakeFirstOrThrow();
      }
      await trx.updateTable("users").set(await profileColumns(trx, target, profile, timestamp)).where("id", "=", target.id).execute();
      const outcome: AuthorizationOutcome = current?.user.id === target.id ? "refreshed" : owner ? "signed-in" : "created";
      return { userId: target.id, outcome };
    });

  // This browser is already that user (a re-authorization, or the student it attached to).
  if (current?.user.id === userId) return { outcome, location: returnPath, setCookies: [], userId };

  const device = await deviceIdOf(request);
  const session = await createUserSession(userId, { deviceId: device.deviceId, platform: "wechat" });
  const setCookies = [session.setCookie];
  if (device.setCookie) setCookies.push(device.setCookie);
  return { outcome, location: returnPath, setCookies, userId };
}

/**
 * The provider's profile onto a user row; our own nickname and avatar are kept once set. A person
 * without a nickname takes the provider's only when it is a usable name; never a made-up one.
 */
async function profileColumns(trx: Transaction<Database>, target: Selectable<UsersTable>, profile: MessengerProfile, timestamp: string) {
  const nickname = target.nickname ?? (await nicknameFromMessenger(trx, profile.nickname, target.campus_code, target.id));
  return {
    openid: profile.openid,
    unionid: profile.unionid ?? target.unionid,
    wechat_nickname: profile.nickname,
    wechat_avatar: profile.avatar,
    wechat_sex: profile.sex,
    wechat_city: profile.city,
    wechat_province: profile.province,
    wechat_country: profile.country,
    wechat_authorized_at: timestamp,
    ...(target.nickname ? {} : nicknameColumns(nickname)),
    avatar_url: target.avatar_url ?? profile.avatar,
    updated_at: timestamp,
  };
}

/** A user row's messenger identity: what moves, as a whole, when the binding moves. */
export function messengerIdentityOf(row: Selectable<UsersTable>) {
  return {
    openid: row.openid,
    unionid: row.unionid,
    wechat_nickname: row.wechat_nickname,
    wechat_avatar: row.wechat_avatar,
    wechat_sex: row.wechat_sex,
    wechat_city: row.wechat_city,
    wechat_province: row.wechat_province,
    wechat_country: row.wechat_country,
    wechat_authorized_at: row.wechat_authorized_at,
  };
}

/**
 * Takes the messenger identity off a student's row (its own data stays): logout, or another
 * student's school login on that messenger. The messenger's next authorization then finds no row
 * of its own and signs in a messenger identity only, never the student, until a school login
 * binds it again (the binding follows the last school login).
 */
export async function releaseMessengerIdentity(executor: Pick<Kysely<Database>, "updateTable">, userId: number) {
  await executor
    .updateTable("users")
    .set({
      openid: null,
      unionid: null,
      wechat_nickname: null,
      wechat_avatar: null,
      wechat_sex: null,
      wechat_city: null,
      wechat_province: null,
      wechat_country: null,
      wechat_authorized_at: null,
      updated_at: now(),
    })
    .where("id", "=", userId)
    .execute();
}

/**
 * 退出登录: the session ends and a student's row lets go of its messenger identity, so the
 * messenger (which authorizes silently) cannot sign the student back in without the 学号.
 * Answers the Set-Cookie that clears the session cookie.
 */
export async function logoutStudent(request: Request) {
  const lookup = await lookupSession(request);
  if (lookup.state === "active" && lookup.user.openid && hasStudentAccount(lookup.user)) await releaseMessengerIdentity(db(), lookup.user.id);
  return logout(request);
}

/**
 * Moves everything of user row `fromId` (a messenger identity without a student account) into
 * `intoId` (the student's row) and deletes `fromId`, inside the caller's transaction.
 *
 * EXTEND HERE: every issue that adds a table owned by a user row (addresses, orders, coupons,
 * invites, likes, reminders, …) moves its rows from `fromId` to `intoId` in this function — before
 * the delete at the end — and adds a case to the merge test in messenger.db.test.ts.
 */
export async function mergeUserRows(fromId: number, intoId: number, trx: Transaction<Database>) {
  if (fromId === intoId) return;
  const from = await trx.selectFrom("users").selectAll().where("id", "=", fromId).executeTakeFirstOrThrow();
  const into = await trx.selectFrom("users").selectAll().where("id", "=", intoId).executeTakeFirstOrThrow();
  if (hasStudentAccount(from)) throw new Error("mergeUserRows: the row to merge away has a student account");
  const timestamp = now();

  // The openid and the nickname's key are unique: off the old row first.
  await trx.updateTable("users").set({ openid: null, unionid: null, nickname_key: null, updated_at: timestamp }).where("id", "=", fromId).execute();
  // The person keeps the student's nickname, else the other row's, while it is free in their campus.
  const campus = into.campus_code ?? from.campus_code;
  const candidate = into.nickname ?? from.nickname;
  const nickname = candidate && !(await nicknameTaken(trx, candidate, campus, intoId)) ? candidate : null;

  // The messenger identity moves as a whole (unless the target already has one).
  const messenger = into.openid ? {} : messengerIdentityOf(from);
  await trx
    .updateTable("users")
    .set({
      ...messenger,
      ...nicknameColumns(nickname),
      avatar_url: into.avatar_url ?? from.avatar_url,
      phone: into.phone ?? from.phone,
      theme: into.theme ?? from.theme,
      campus_code: into.campus_code ?? from.campus_code,
      created_at: from.created_at < into.created_at ? from.created_at : into.created_at,
      updated_at: timestamp,
    })
    .where("id", "=", intoId)
    .execute();

  // Devices signed in as the old row are signed out ("replaced"); their rows follow the person.
  await trx
    .updateTable("sessions")
    .set({ ended_at: timestamp, end_reason: "replaced" })
    .where("user_id", "=", fromId)
    .where("ended_at", "is", null)
    .execute();
  await trx.updateTable("sessions").set({ user_id: intoId }).where("user_id", "=", fromId).execute();

  // Every capability with per-user rows moves them here (the one place two rows become one
  // person: the messenger authorization and the student login both call this).
  // Notifications: the inbox, messages, subscribe consents and snoozes.
  await mergeNotifyRows(fromId, intoId, trx);
  // (later issues: addresses, orders, coupons, invites … move here)
  await moveMarketData(trx, fromId, intoId);
  // Orders and their reviews.
  await moveOrderRows(trx, fromId, intoId);

  // Coupons, grant markers, invites and assists.
  await moveCouponData(trx, fromId, intoId);

  // The circle: posts, comments, likes, views, reports, a ban and uploaded images.
  await moveForumData(trx, fromId, intoId);
  await trx.deleteFrom("users").where("id", "=", fromId).execute();
}

/**
 * An operator's authorization (state purpose 'operator', started from /admin/settings): the
 * openid goes to the operator who started it — still signed in, in this browser (the link cookie
 * of operator.server) — never to a user row. Back on /admin/settings?link=ok.
 */
async function linkOperator(request: Request, row: StateRow, profile: MessengerProfile, returnPath: string): Promise<AuthorizationResult> {
  const operator = await operatorForLink(request);
  if (!operator || operator.id !== row.operator_id) throw new MessengerAuthError("INVALID_STATE", "operator link of another session");
  const linked = await linkOperatorOpenid(operator.id, profile.openid);
  if (!linked.ok) throw new MessengerAuthError(linked.reason === "openid_taken" ? "WECHAT_ALREADY_BOUND" : "INVALID_STATE", linked.reason);
  return { outcome: "operator-linked", location: withLinkStatus(returnPath, "ok"), setCookies: [await clearOperatorLink()] };
}

/** /admin/settings?link=ok|taken|failed: how the settings page learns the result. */
export function withLinkStatus(returnPath: string, status: "ok" | "taken" | "failed") {
  const url = new URL(returnPath, "http://same.origin");
  url.searchParams.set("link", status);
  return url.pathname + url.search;
}

// ---------------------------------------------------------------------------------------------
// For pages

/**
 * The product rules' market behaviour: inside the messenger, a visitor without a known identity (or whose
 * authorization is 7 days old) is sent to authorize — unless the 10-second lock is on. Returns
 * the path to redirect to, or null.
 */
export async function messengerAuthRedirect(request: Request, user: User | null): Promise<string | null> {
  if (!isMessengerBrowser(request.headers.get("User-Agent"))) return null;
  if (user?.openid && !needsReauthorization(user, new Date())) return null;
  if (!messengerProvider() || (await authLockActive(request))) return null;
  return messengerAuthPathFor(request.url);
}
