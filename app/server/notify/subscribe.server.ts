// One-time subscribe messages (docs/protocols/messenger.md): the widget's state, 'later',
// the redirect to the messenger's confirm page and the handling of its return.
//
//   GET /api/wechat/subscribe?template=KEY&returnTo=/path   → 302 to the confirm page
//   the messenger → /api/wechat/subscribe/callback?returnTo=…&openid&template_id&action&scene&reserved
//   → 302 back to returnTo?subscribe=ok|cancel|FAILED&subscribeKey=KEY
//
// `reserved` carries an expiring signature over the user, template, scene and return path, so a
// return can only grant a consent to the user who started it, and once (a replay is ignored).
// A confirm allows one send within 7 days; it is stored per user per template.
import crypto from "node:crypto";
import { isMessengerBrowser } from "~/lib/browser";
import {
  SUBSCRIBE_CALLBACK_PATH,
  SUBSCRIBE_KEYS,
  consentExpiresAt,
  isSubscribeKey,
  isSubscribeNotice,
  snoozeUntil,
  subscribeScene,
  widgetStatus,
  withSubscribeNotice,
  withoutSubscribeNotice,
  type SubscribeErrorCode,
  type SubscribeKey,
  type SubscribeNotice,
  type WidgetState,
} from "~/lib/notify";
import { safeRedirect } from "~/lib/redirect";
import { messengerAuthPath } from "~/lib/wechat-auth";
import { SIMULATED_APP_ID } from "../auth/messenger.server";
import type { User } from "../auth/session.server";
import { config } from "../config.server";
import { db } from "../db/db.server";
import { log } from "../log.server";

/** A started subscription must come back within 10 minutes. */
export const RESERVED_LIFETIME_MS = 10 * 60_000;
export const DEFAULT_RETURN = "/backpack/inbox";

// ---------------------------------------------------------------------------------------------
// The widget

export type { WidgetState } from "~/lib/notify";

/**
 * The widget's state for a page's loader; null when there is nothing to offer: a visitor without
 * a user row, or a template with no id configured (the start link would only answer TEMPLATE_NOT_FOUND).
 */
export async function subscribeWidgetState(user: User | null, templateKey: SubscribeKey, request: Request, now = new Date()): Promise<WidgetState | null> {
  if (!user || !templateIdOf(templateKey) || config().notify.provider === "off") return null;
  const url = new URL(request.url);
  const [consent, snooze] = await Promise.all([
    db().selectFrom("subscribe_consents").select(["confirmed_at", "used_at"]).where("user_id", "=", user.id).where("template_key", "=", templateKey).executeTakeFirst(),
    db().selectFrom("subscribe_snoozes").select("until").where("user_id", "=", user.id).where("template_key", "=", templateKey).executeTakeFirst(),
  ]);
  const notice = url.searchParams.get("subscribeKey") === templateKey ? url.searchParams.get("subscribe") : null;
  return {
    templateKey,
    status: widgetStatus({
      consent: consent ? { confirmedAt: consent.confirmed_at, usedAt: consent.used_at } : null,
      snoozedUntil: snooze?.until ?? null,
      now,
    }),
    notice: isSubscribeNotice(notice) ? notice : null,
    returnTo: withoutSubscribeNotice(url.pathname + url.search),
  };
}

/** 'Later': the widget of this template stays hidden for an hour. */
export async function snoozeWidget(userId: number, templateKey: SubscribeKey, now = new Date()) {
  const until = snoozeUntil(now);
  await db()
    .insertInto("subscribe_snoozes")
    .values({ user_id: userId, template_key: templateKey, until })
    .onConflict((oc) => oc.columns(["user_id", "template_key"]).doUpdateSet({ until }))
    .execute();
  return until;
}

// ---------------------------------------------------------------------------------------------
// The round trip

function templateIdOf(key: SubscribeKey) {
  return config().notify.subscribeTemplates[key];
}

export function keyOfTemplateId(templateId: string | null): SubscribeKey | null {
  if (!templateId) return null;
  const templates = config().notify.subscribeTemplates;
  return SUBSCRIBE_KEYS.find((key) => templates[key] === templateId) ?? null;
}

function signature(userId: number, key: SubscribeKey, expires: string, nonce: string, returnTo: string) {
  return crypto
    .createHmac("sha256", config().sessionSecret)
    .update(`subscribe|${userId}|${key}|${subscribeScene(key)}|${expires}|${nonce}|${returnTo}`)
    .digest("base64url")
    .slice(0, 32);
}

/**
 * `reserved`: the expiry (seconds, base 36), a nonce (each start is another confirm) and a
 * signature; 50 characters, well under the provider's 128 bytes.
 */
export function signReserved(userId: number, key: SubscribeKey, returnTo: string, now = new Date()) {
  const expires = Math.floor((now.getTime() + RESERVED_LIFETIME_MS) / 1000).toString(36);
  const nonce = crypto.randomBytes(9).toString("base64url");
  return `${expires}.${nonce}.${signature(userId, key, expires, nonce, returnTo)}`;
}

export function verifyReserved(reserved: string | null, userId: number, key: SubscribeKey, returnTo: string, now = new Date()) {
  const match = /^([0-9a-z]{1,10})\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{32})$/.exec(reserved ?? "");
  if (!match) return false;
  const [, expires, nonce, given] = match;
  if (parseInt(expires, 36) * 1000 < now.getTime()) return false;
  const expected = signature(userId, key, expires, nonce, returnTo);
  return crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

export type StartResult = { ok: true; location: string } | { ok: false; code: SubscribeErrorCode | "AUTHORIZE"; location: string };

/**
 * Where a subscribe button sends the browser: the confirm page, or first the messenger
 * authorization (no identity yet), or back with NOT_WECHAT_ENV / TEMPLATE_NOT_FOUND.
 */
export function startSubscribe(request: Request, user: User | null, templateKey: string | null, returnToParam: string | null, now = new Date()): StartResult {
  const returnTo = withoutSubscribeNotice(safeRedirect(returnToParam, DEFAULT_RETURN));
  const settings = config();
  const back = (code: SubscribeErrorCode) => ({ ok: false as const, code, location: withSubscribeNotice(returnTo, templateKey ?? "", code) });

  if (!isSubscribeKey(templateKey) || !templateIdOf(templateKey)) return back("TEMPLATE_NOT_FOUND");
  const provider = settings.notify.provider;
  if (provider === "off") return back("FAILED");
  // The simulated confirm page of development works in any browser, like the simulated OAuth page.
  if (provider === "real" && !isMessengerBrowser(request.headers.get("User-Agent"))) return back("NOT_WECHAT_ENV");

  const url = new URL(request.url);
  if (!user?.openid) {
    const again = `${url.pathname}?${new URLSearchParams({ template: templateKey, returnTo }).toString()}`;
    return { ok: false, code: "AUTHORIZE", location: messengerAuthPath(again) };
  }

  // Back to the host the browser is on (its cookies live there); outside the configured domain
  // the product rules only warn.
  const redirectUrl = `${url.origin}${SUBSCRIBE_CALLBACK_PATH}?${new URLSearchParams({ returnTo }).toString()}`;
  if (settings.publicUrl && new URL(settings.publicUrl).host !== url.host) {
    log("warn", "subscribe-redirect-outside-domain", { host: url.host, configured: new URL(settings.publicUrl).host });
  }
  const appId = provider === "real" ? settings.wechat.appId! : SIMULATED_APP_ID;
  const query =
    `action=get_confirm&appid=${encodeURIComponent(appId)}` +
    `&scene=${subscribeScene(templateKey)}` +
    `&template_id=${encodeURIComponent(templateIdOf(templateKey)!)}` +
    `&redirect_url=${encodeURIComponent(redirectUrl)}` +
    `&reserved=${encodeURIComponent(signReserved(user.id, templateKey, returnTo, now))}`;
  const base = settings.notify.subscribeUrl;
  return { ok: true, location: `${base}${base.includes("?") ? "&" : "?"}${query}#wechat_redirect` };
}

export type CallbackParams = {
  returnTo: string | null;
  openid: string | null;
  templateId: string | null;
  action: string | null;
  scene: string | null;
  reserved: string | null;
};

export type CallbackResult = { notice: SubscribeNotice; templateKey: SubscribeKey | null; location: string };

/**
 * The return from the confirm page: a confirm (of this user, signed, in time) stores a consent
 * valid 7 days and lifts 'later'; a cancel only says so. Anything else is FAILED.
 */
export async function completeSubscribe(user: User | null, params: CallbackParams, now = new Date()): Promise<CallbackResult> {
  const returnTo = withoutSubscribeNotice(safeRedirect(params.returnTo, DEFAULT_RETURN));
  const key = keyOfTemplateId(params.templateId);
  const result = (notice: SubscribeNotice): CallbackResult => ({ notice, templateKey: key, location: withSubscribeNotice(returnTo, key ?? "", notice) });

  if (!user || !key) return result("FAILED");
  if (params.scene !== String(subscribeScene(key))) return result("FAILED");
  if (!verifyReserved(params.reserved, user.id, key, returnTo, now)) {
    log("warn", "subscribe-return-rejected", { reason: "reserved" });
    return result("FAILED");
  }
  if (params.openid && params.openid !== user.openid) {
    log("warn", "subscribe-return-rejected", { reason: "openid" });
    return result("FAILED");
  }
  if (params.action === "cancel") return result("cancel");
  if (params.action !== "confirm") return result("FAILED");

  const nowIso = now.toISOString();
  const values = { confirmed_at: nowIso, expires_at: consentExpiresAt(nowIso), used_at: null, outbox_id: null, reserved: params.reserved, updated_at: nowIso };
  await db().transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("subscribe_consents").select("reserved").where("user_id", "=", user.id).where("template_key", "=", key).executeTakeFirst();
    if (existing?.reserved === params.reserved) return; // the same return again (a reload): one confirm, one send
    await trx
      .insertInto("subscribe_consents")
      .values({ user_id: user.id, template_key: key, ...values })
      .onConflict((oc) => oc.columns(["user_id", "template_key"]).doUpdateSet(values))
      .execute();
    await trx.deleteFrom("subscribe_snoozes").where("user_id", "=", user.id).where("template_key", "=", key).execute();
  });
  return result("ok");
}

// ---------------------------------------------------------------------------------------------
// The simulated confirm page (development)

export type SimulatedConfirmRequest = { templateKey: SubscribeKey; templateId: string; scene: string; redirectUrl: string; reserved: string };

/** The query of our simulated confirm page, checked as the messenger would (our app id, a known template, our callback). */
export function readSimulatedConfirm(request: Request): SimulatedConfirmRequest | null {
  const url = new URL(request.url);
  const params = url.searchParams;
  const templateId = params.get("template_id");
  const templateKey = keyOfTemplateId(templateId);
  const redirectUrl = params.get("redirect_url") ?? "";
  const reserved = params.get("reserved") ?? "";
  let redirectOk = false;
  try {
    const target = new URL(redirectUrl);
    redirectOk = target.origin === url.origin && target.pathname === SUBSCRIBE_CALLBACK_PATH;
  } catch {
    redirectOk = false;
  }
  if (params.get("action") !== "get_confirm" || params.get("appid") !== SIMULATED_APP_ID || !templateKey || !redirectOk) return null;
  if (params.get("scene") !== String(subscribeScene(templateKey)) || reserved.length === 0 || reserved.length > 128) return null;
  return { templateKey, templateId: templateId!, scene: params.get("scene")!, redirectUrl, reserved };
}

/** Where the simulated page sends the browser: the redirect_url with what the messenger appends. */
export function simulatedReturn(confirm: SimulatedConfirmRequest, openid: string, action: "confirm" | "cancel") {
  const target = new URL(confirm.redirectUrl);
  target.searchParams.set("openid", openid);
  target.searchParams.set("template_id", confirm.templateId);
  target.searchParams.set("action", action);
  target.searchParams.set("scene", confirm.scene);
  target.searchParams.set("reserved", confirm.reserved);
  return target.pathname + target.search;
}
