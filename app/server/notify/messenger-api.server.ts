// The messenger's server API (docs/protocols/messenger.md, "Server access token, JS-SDK"
// and "Template message and one-time subscribe message"): the access token from the stable-token
// endpoint and the JS-SDK ticket, each stored once for the whole deployment (the database, sealed,
// so every instance shares them), refreshed ahead of expiry and again when an answer says the
// token is invalid or expired; and the two message sends. The base URL is configuration, so tests
// point it at a fake on loopback. Tokens, tickets and openids are never logged.
import { WECHAT_DEFAULT_API_BASE_URL, config } from "../config.server";
import { seal, unseal } from "../crypto.server";
import { db } from "../db/db.server";
import { log } from "../log.server";

/** Refresh this long before the provider's expiry (it gives 7200 s). */
export const TOKEN_REFRESH_AHEAD_MS = 5 * 60_000;

/** errcodes that mean "this access token is invalid or expired": refresh and try again once. */
export const TOKEN_ERRCODES = new Set([40001, 40014, 42001]);

export type ApiFailureKind = "network" | "timeout" | "http" | "parse" | "api" | "config";

/** A call that did not succeed: the provider's errcode when it answered one. */
export class MessengerApiError extends Error {
  constructor(
    readonly kind: ApiFailureKind,
    readonly errcode: number | null = null,
    detail?: string,
  ) {
    super(`${kind}${errcode !== null ? ` ${errcode}` : ""}${detail ? `: ${detail}` : ""}`);
    this.name = "MessengerApiError";
  }
}

export type ApiSettings = { appId: string; appSecret: string; baseUrl: string; timeoutMs: number };

/** The real API's settings; null unless an app id is configured. */
export function apiSettings(): ApiSettings | null {
  const wechat = config().wechat;
  if (wechat.mode !== "real" || !wechat.appId) return null;
  return {
    appId: wechat.appId,
    appSecret: wechat.appSecret ?? "",
    baseUrl: (wechat.apiBaseUrl ?? WECHAT_DEFAULT_API_BASE_URL).replace(/\/+$/, ""),
    timeoutMs: wechat.timeoutMs,
  };
}

function requireSettings(): ApiSettings {
  const settings = apiSettings();
  if (!settings) throw new MessengerApiError("config", null, "no messenger app id configured");
  return settings;
}

type Answer = Record<string, unknown>;

async function call(settings: ApiSettings, path: string, init: { query?: Record<string, string>; body?: unknown }): Promise<Answer> {
  const query = init.query ? `?${new URLSearchParams(init.query).toString()}` : "";
  let status: number;
  let text: string;
  try {
    const response = await fetch(`${settings.baseUrl}${path}${query}`, {
      method: init.body === undefined ? "GET" : "POST",
      headers: init.body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "error",
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new MessengerApiError(timedOut ? "timeout" : "network", null, timedOut ? undefined : String((error as Error)?.cause ?? error));
  }
  if (status < 200 || status >= 300) throw new MessengerApiError("http", null, `HTTP ${status}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MessengerApiError("parse", null, `${text.length} bytes`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new MessengerApiError("parse");
  const answer = parsed as Answer;
  const errcode = answer.errcode === undefined ? 0 : Number(answer.errcode);
  if (errcode !== 0) throw new MessengerApiError("api", Number.isNaN(errcode) ? -1 : errcode, typeof answer.errmsg === "string" ? answer.errmsg.slice(0, 120) : undefined);
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Stored tokens

type Stored = { value: string; expiresAt: string };

function tokenName(kind: "access_token" | "jsapi_ticket", appId: string) {
  return `${kind}:${appId}`;
}

async function readStored(name: string): Promise<Stored | null> {
  const row = await db().selectFrom("messenger_tokens").selectAll().where("name", "=", name).executeTakeFirst();
  if (!row) return null;
  try {
    return { value: unseal(row.value), expiresAt: row.expires_at };
  } catch {
    return null; // sealed under another key: fetch a new one
  }
}

async function writeStored(name: string, value: string, expiresInSeconds: number, now: Date) {
  const values = {
    value: seal(value),
    expires_at: new Date(now.getTime() + expiresInSeconds * 1000).toISOString(),
    updated_at: now.toISOString(),
  };
  await db()
    .insertInto("messenger_tokens")
    .values({ name, ...values })
    .onConflict((oc) => oc.column("name").doUpdateSet(values))
    .execute();
}

/** Forgets a stored token or ticket (the provider said it is invalid). */
async function dropStored(name: string, value: string) {
  const stored = await readStored(name);
  if (stored?.value === value) await db().deleteFrom("messenger_tokens").where("name", "=", name).execute();
}

function fresh(stored: Stored | null, now: Date): stored is Stored {
  return Boolean(stored) && Date.parse(stored!.expiresAt) - now.getTime() > TOKEN_REFRESH_AHEAD_MS;
}

function expiresIn(answer: Answer) {
  const seconds = Number(answer.expires_in);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 7200;
}

/**
 * The server access token: the stored one while it has more than 5 minutes left, else a new one
 * from POST /cgi-bin/stable_token. `invalid` is a token the provider just rejected: the stable
 * endpoint may still hand it out (it thinks it valid), so then force_refresh asks for a new one.
 */
export async function accessToken(options: { invalid?: string; now?: Date } = {}): Promise<string> {
  const settings = requireSettings();
  const now = options.now ?? new Date();
  const name = tokenName("access_token", settings.appId);
  const stored = await readStored(name);
  if (fresh(stored, now) && stored.value !== options.invalid) return stored.value;

  const request = (forceRefresh: boolean) =>
    call(settings, "/cgi-bin/stable_token", {
      body: { grant_type: "client_credential", appid: settings.appId, secret: settings.appSecret, force_refresh: forceRefresh },
    });
  let answer = await request(false);
  if (options.invalid && answer.access_token === options.invalid) answer = await request(true);
  if (typeof answer.access_token !== "string" || answer.access_token.length === 0) throw new MessengerApiError("parse", null, "no access_token");
  await writeStored(name, answer.access_token, expiresIn(answer), now);
  log("info", "wechat-access-token-refreshed", { forced: Boolean(options.invalid) });
  return answer.access_token;
}

/** A POST with the access token; an invalid/expired-token answer refreshes it and tries once more. */
async function postWithToken(path: string, body: unknown): Promise<Answer> {
  const settings = requireSettings();
  const token = await accessToken();
  try {
    return await call(settings, path, { query: { access_token: token }, body });
  } catch (error) {
    if (!(error instanceof MessengerApiError) || error.errcode === null || !TOKEN_ERRCODES.has(error.errcode)) throw error;
    log("info", "wechat-access-token-rejected", { path, errcode: error.errcode });
    await dropStored(tokenName("access_token", settings.appId), token);
    const renewed = await accessToken({ invalid: token });
    return call(settings, path, { query: { access_token: renewed }, body });
  }
}

/** The JS-SDK ticket (GET /cgi-bin/ticket/getticket?type=jsapi), cached like the token. */
export async function jsapiTicket(options: { now?: Date } = {}): Promise<string> {
  const settings = requireSettings();
  const now = options.now ?? new Date();
  const name = tokenName("jsapi_ticket", settings.appId);
  const stored = await readStored(name);
  if (fresh(stored, now)) return stored.value;

  const ask = (token: string) => call(settings, "/cgi-bin/ticket/getticket", { query: { access_token: token, type: "jsapi" } });
  const token = await accessToken({ now });
  let answer: Answer;
  try {
    answer = await ask(token);
  } catch (error) {
    if (!(error instanceof MessengerApiError) || error.errcode === null || !TOKEN_ERRCODES.has(error.errcode)) throw error;
    await dropStored(tokenName("access_token", settings.appId), token);
    answer = await ask(await accessToken({ invalid: token, now }));
  }
  if (typeof answer.ticket !== "string" || answer.ticket.length === 0) throw new MessengerApiError("parse", null, "no ticket");
  await writeStored(name, answer.ticket, expiresIn(answer), now);
  return answer.ticket;
}

// ---------------------------------------------------------------------------------------------
// Sends

export type TemplateSend = {
  touser: string;
  template_id: string;
  url?: string;
  /** The outbox message id: the provider drops a repeat within 10 minutes. */
  client_msg_id: string;
  data: Record<string, { value: string }>;
};

export type SubscribeSend = {
  touser: string;
  template_id: string;
  url?: string;
  scene: string;
  title: string;
  data: { content: { value: string } };
};

/** POST /cgi-bin/message/template/send → the provider's msgid. */
export async function sendTemplateMessage(message: TemplateSend): Promise<string | null> {
  const answer = await postWithToken("/cgi-bin/message/template/send", message);
  return answer.msgid === undefined ? null : String(answer.msgid);
}

/** POST /cgi-bin/message/template/subscribe (one-time subscribe message; uses up a confirm). */
export async function sendSubscribeMessage(message: SubscribeSend): Promise<string | null> {
  const answer = await postWithToken("/cgi-bin/message/template/subscribe", message);
  return answer.msgid === undefined ? null : String(answer.msgid);
}
