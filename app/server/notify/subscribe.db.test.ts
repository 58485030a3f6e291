// The subscribe widget's round trip on SQLite and PostgreSQL, through the routes: the redirect to
// the confirm page (simulated in development, the messenger's with an app id), its return, the
// consent (7 days, one send), 'later', the helper codes NOT_WECHAT_ENV and TEMPLATE_NOT_FOUND, a
// forged or replayed return; and POST /api/wechat/jsapi-config.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { action as jsapiAction } from "~/routes/api.wechat.jsapi-config";
import { action as simulateAction, loader as simulateLoader } from "~/routes/api.wechat.simulate-subscribe";
import { action as laterAction, loader as startLoader } from "~/routes/api.wechat.subscribe";
import { loader as callbackLoader } from "~/routes/api.wechat.subscribe_.callback";
import { getUser } from "~/server/auth/session.server";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { createMessengerUser, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { jsapiSignature, SIMULATED_JSAPI_TICKET } from "./jssdk.server";
import { subscribeWidgetState, verifyReserved } from "./subscribe.server";

const MESSENGER_UA = "Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Mobile Safari/537.36 MicroMessenger/8.0.47.2560(0x28002F30) NetType/WIFI Language/zh_CN";
const REAL_ENV = { WECHAT_APP_ID: "wxrealapp000000001", WECHAT_APP_SECRET: "real-secret-0123456789", WECHAT_SUBSCRIBE_TEMPLATE_ORDER_STATUS: "realOrderStatusTpl" };

afterEach(() => {
  for (const key of Object.keys(REAL_ENV)) delete process.env[key];
  resetConfig();
});

async function call(handler: (args: LoaderFunctionArgs & ActionFunctionArgs) => unknown, path: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  try {
    return (await handler({ request: request(path, init), params: {}, context: {} })) as Response;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

async function userOf(cookie: string) {
  return (await getUser(request("/", { cookie })))!;
}

/** Starts a subscription and follows the simulated confirm page; returns the callback URL. */
async function confirmOnSimulatedPage(cookie: string, intent: "confirm" | "cancel", returnTo = "/backpack/inbox") {
  const start = await call(startLoader, `/api/wechat/subscribe?template=ORDER_STATUS&returnTo=${encodeURIComponent(returnTo)}`, { cookie });
  expect(start.status).toBe(302);
  const confirmPage = start.headers.get("Location")!;
  expect((await call(simulateLoader, confirmPage, { cookie })) as unknown).toMatchObject({ valid: true, title: "订单状态提醒" });
  const answer = await call(simulateAction, confirmPage.replace(/#wechat_redirect$/, ""), { method: "POST", body: new URLSearchParams({ intent }), cookie });
  expect(answer.status).toBe(302);
  return answer.headers.get("Location")!;
}

describe("subscribing through the simulated confirm page (development)", () => {
  it("redirects to the confirm page with the protocol's parameters, in order", async () => {
    const user = await createMessengerUser();
    const cookie = await sessionCookieFor(user.id);
    const start = await call(startLoader, "/api/wechat/subscribe?template=ORDER_STATUS&returnTo=%2Fbackpack%2Finbox", { cookie });
    expect(start.headers.get("Location")).toMatch(
      /^\/api\/wechat\/simulate-subscribe\?action=get_confirm&appid=wx_simulated_app&scene=1002&template_id=sim_ORDER_STATUS&redirect_url=http%3A%2F%2Flocalhost%2Fapi%2Fwechat%2Fsubscribe%2Fcallback%3FreturnTo%3D%252Fbackpack%252Finbox&reserved=[0-9a-z]+\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{32}#wechat_redirect$/,
    );
  });

  it("a confirm stores a consent valid 7 days and the widget shows subscribed; a reload of the return grants nothing more", async () => {
    const user = await createMessengerUser();
    const cookie = await sessionCookieFor(user.id);
    const callback = await confirmOnSimulatedPage(cookie, "confirm");
    expect(callback).toMatch(/^\/api\/wechat\/subscribe\/callback\?returnTo=%2Fbackpack%2Finbox&openid=test-openid-[^&]+&template_id=sim_ORDER_STATUS&action=confirm&scene=1002&reserved=/);

    const back = await call(callbackLoader, callback, { cookie });
    expect(back.headers.get("Location")).toBe("/backpack/inbox?subscribe=ok&subscribeKey=ORDER_STATUS");
    const consent = await db().selectFrom("subscribe_consents").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(consent).toMatchObject({ template_key: "ORDER_STATUS", used_at: null });
    expect(Date.parse(consent.expires_at) - Date.parse(consent.confirmed_at)).toBe(7 * 86_400_000);

    const page = request("/backpack/inbox?subscribe=ok&subscribeKey=ORDER_STATUS", { cookie });
    expect(await subscribeWidgetState(await userOf(cookie), "ORDER_STATUS", page)).toEqual({
      templateKey: "ORDER_STATUS",
      status: "subscribed",
      notice: "ok",
      returnTo: "/backpack/inbox",
    });

    // A send uses it up; reloading the old return does not bring it back.
    await db().updateTable("subscribe_consents").set({ used_at: new Date().toISOString() }).where("user_id", "=", user.id).execute();
    await call(callbackLoader, callback, { cookie });
    expect((await db().selectFrom("subscribe_consents").select("used_at").where("user_id", "=", user.id).executeTakeFirstOrThrow()).used_at).not.toBeNull();
    // A new confirm allows one more send.
    await call(callbackLoader, await confirmOnSimulatedPage(cookie, "confirm"), { cookie });
    expect((await db().selectFrom("subscribe_consents").select("used_at").where("user_id", "=", user.id).executeTakeFirstOrThrow()).used_at).toBeNull();
  });

  it("a cancel stores nothing and says so", async () => {
    const user = await createMessengerUser();
    const cookie = await sessionCookieFor(user.id);
    const back = await call(callbackLoader, await confirmOnSimulatedPage(cookie, "cancel"), { cookie });
    expect(back.headers.get("Location")).toBe("/backpack/inbox?subscribe=cancel&subscribeKey=ORDER_STATUS");
    expect(await db().selectFrom("subscribe_consents").select("user_id").where("user_id", "=", user.id).execute()).toHaveLength(0);
  });

  it("a return that is forged, late, for another user or another page is FAILED and grants nothing", async () => {
    const user = await createMessengerUser();
    const cookie = await sessionCookieFor(user.id);
    const callback = await confirmOnSimulatedPage(cookie, "confirm");
    const intruder = await createMessengerUser();
    const intruderCookie = await sessionCookieFor(intruder.id);

    const cases = [
      call(callbackLoader, callback, { cookie: intruderCookie }), // another user's browser
      call(callbackLoader, callback.replace(/reserved=[^&]+/, "reserved=zzzzzz.AAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), { cookie }),
      call(callbackLoader, callback.replace("returnTo=%2Fbackpack%2Finbox", "returnTo=%2Fschedule"), { cookie }), // not the signed page
      call(callbackLoader, callback.replace(/openid=[^&]+/, "openid=oSomeoneElse"), { cookie }),
      call(callbackLoader, callback.replace("scene=1002", "scene=1001"), { cookie }),
      call(callbackLoader, callback, {}), // no session
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.headers.get("Location")).toMatch(/subscribe=FAILED&subscribeKey=ORDER_STATUS$/);
    }
    expect(await db().selectFrom("subscribe_consents").select("user_id").where("user_id", "in", [user.id, intruder.id]).execute()).toHaveLength(0);

    // The signature binds the user and expires after 10 minutes.
    const reserved = decodeURIComponent(/reserved=([^&]+)/.exec(callback)![1]);
    expect(verifyReserved(reserved, user.id, "ORDER_STATUS", "/backpack/inbox")).toBe(true);
    expect(verifyReserved(reserved, user.id, "ORDER_STATUS", "/backpack/inbox", new Date(Date.now() + 11 * 60_000))).toBe(false);
    expect(verifyReserved(reserved, intruder.id, "ORDER_STATUS", "/backpack/inbox")).toBe(false);
  });

  it("an unknown template answers TEMPLATE_NOT_FOUND; a user without a messenger identity authorizes first", async () => {
    const user = await createMessengerUser();
    const cookie = await sessionCookieFor(user.id);
    const unknown = await call(startLoader, "/api/wechat/subscribe?template=NO_SUCH&returnTo=%2Fbackpack%2Finbox", { cookie });
    expect(unknown.headers.get("Location")).toBe("/backpack/inbox?subscribe=TEMPLATE_NOT_FOUND&subscribeKey=NO_SUCH");
    const json = await call(startLoader, "/api/wechat/subscribe?template=NO_SUCH", { cookie, headers: { Accept: "application/json" } });
    expect(json.status).toBe(404);
    expect(await json.json()).toMatchObject({ success: false, code: "TEMPLATE_NOT_FOUND", message: "订阅消息模板不存在" });

    const student = await createStudent({ openid: null });
    const studentCookie = await sessionCookieFor(student.id);
    const authorize = await call(startLoader, "/api/wechat/subscribe?template=ORDER_STATUS&returnTo=%2Fbackpack%2Finbox", { cookie: studentCookie });
    expect(authorize.headers.get("Location")).toBe(
      `/api/wechat/auth?redirect_url=${encodeURIComponent("/api/wechat/subscribe?template=ORDER_STATUS&returnTo=%2Fbackpack%2Finbox")}`,
    );
  });

  it("'later' hides the widget for an hour", async () => {
    const user = await createMessengerUser();
    const cookie = await sessionCookieFor(user.id);
    const page = request("/backpack/inbox", { cookie });
    expect((await subscribeWidgetState(await userOf(cookie), "ORDER_STATUS", page))?.status).toBe("prompt");

    const later = await call(laterAction, "/api/wechat/subscribe", {
      method: "POST",
      body: new URLSearchParams({ intent: "later", template: "ORDER_STATUS", returnTo: "/backpack/inbox?subscribe=cancel&subscribeKey=ORDER_STATUS" }),
      cookie,
    });
    expect(later.status).toBe(302);
    expect(later.headers.get("Location")).toBe("/backpack/inbox");
    const snooze = await db().selectFrom("subscribe_snoozes").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    const me = await userOf(cookie);
    expect((await subscribeWidgetState(me, "ORDER_STATUS", page, new Date(Date.parse(snooze.until) - 1000)))?.status).toBe("snoozed");
    expect((await subscribeWidgetState(me, "ORDER_STATUS", page, new Date(Date.parse(snooze.until))))?.status).toBe("prompt");
    // Other templates are not affected.
    expect((await subscribeWidgetState(me, "EXPRESS_DELIVERY", page))?.status).toBe("prompt");
    // A visitor without a user row gets no widget at all.
    expect(await subscribeWidgetState(null, "ORDER_STATUS", request("/backpack/inbox"))).toBeNull();
  });
});

describe("subscribing with a real app id", () => {
  it("outside the messenger answers NOT_WECHAT_ENV; inside, redirects to the messenger's confirm page", async () => {
    Object.assign(process.env, REAL_ENV);
    resetConfig();
    const user = await createMessengerUser();
    const cookie = await sessionCookieFor(user.id);

    const outside = await call(startLoader, "/api/wechat/subscribe?template=ORDER_STATUS&returnTo=%2Fbackpack%2Finbox", { cookie });
    expect(outside.headers.get("Location")).toBe("/backpack/inbox?subscribe=NOT_WECHAT_ENV&subscribeKey=ORDER_STATUS");
    const json = await call(startLoader, "/api/wechat/subscribe?template=ORDER_STATUS", { cookie, headers: { Accept: "application/json" } });
    expect(await json.json()).toMatchObject({ success: false, code: "NOT_WECHAT_ENV", message: "请在微信中打开后再订阅消息" });
    // A template without a configured id is not found.
    const missing = await call(startLoader, "/api/wechat/subscribe?template=SYSTEM_NOTICE", { cookie, headers: { "User-Agent": MESSENGER_UA } });
    expect(missing.headers.get("Location")).toMatch(/subscribe=TEMPLATE_NOT_FOUND/);
    // …so its widget is not offered at all; a configured one is.
    expect(await subscribeWidgetState(await userOf(cookie), "SYSTEM_NOTICE", request("/backpack/inbox", { cookie }))).toBeNull();
    expect((await subscribeWidgetState(await userOf(cookie), "ORDER_STATUS", request("/backpack/inbox", { cookie })))?.status).toBe("prompt");

    const inside = await call(startLoader, "/api/wechat/subscribe?template=ORDER_STATUS&returnTo=%2Fbackpack%2Finbox", { cookie, headers: { "User-Agent": MESSENGER_UA } });
    const location = inside.headers.get("Location")!;
    expect(location).toMatch(
      /^https:\/\/mp\.weixin\.qq\.com\/mp\/subscribemsg\?action=get_confirm&appid=wxrealapp000000001&scene=1002&template_id=realOrderStatusTpl&redirect_url=http%3A%2F%2Flocalhost%2Fapi%2Fwechat%2Fsubscribe%2Fcallback%3FreturnTo%3D%252Fbackpack%252Finbox&reserved=[^&#]+#wechat_redirect$/,
    );
    // The simulated page does not exist with a real app id.
    expect((await call(simulateLoader, "/api/wechat/simulate-subscribe", { cookie })).status).toBe(404);

    // The messenger's return (it appends its parameters to redirect_url).
    const reserved = new URL(location).searchParams.get("reserved")!;
    const back = await call(
      callbackLoader,
      `/api/wechat/subscribe/callback?returnTo=%2Fbackpack%2Finbox&openid=${user.openid}&template_id=realOrderStatusTpl&action=confirm&scene=1002&reserved=${encodeURIComponent(reserved)}`,
      { cookie, headers: { "User-Agent": MESSENGER_UA } },
    );
    expect(back.headers.get("Location")).toBe("/backpack/inbox?subscribe=ok&subscribeKey=ORDER_STATUS");
  });
});

describe("POST /api/wechat/jsapi-config", () => {
  it("signs a page of ours (simulated ticket in development) and refuses other sites", async () => {
    const url = "http://localhost/post/12?from=timeline#top";
    const answer = await call(jsapiAction, "/api/wechat/jsapi-config", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ url }) });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { success: boolean; data: { appId: string; timestamp: number; nonceStr: string; signature: string; jsApiList: string[] } };
    expect(body).toMatchObject({ success: true, message: "ok", data: { appId: "wx_simulated_app" } });
    expect(body.data.signature).toBe(jsapiSignature({ ticket: SIMULATED_JSAPI_TICKET, nonceStr: body.data.nonceStr, timestamp: body.data.timestamp, url }));
    expect(body.data.nonceStr).toMatch(/^[A-Za-z0-9]{16}$/);

    const form = await call(jsapiAction, "/api/wechat/jsapi-config", { method: "POST", body: new URLSearchParams({ url: "http://localhost/circle" }) });
    expect(form.status).toBe(200);

    for (const bad of ["https://evil.example.com/", "javascript:alert(1)", ""]) {
      const refused = await call(jsapiAction, "/api/wechat/jsapi-config", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ url: bad }) });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ success: false, message: "url 无效：必须是本站页面的完整地址" });
    }
  });

  const post = (host: string, url: string) =>
    jsapiAction({
      request: new Request(`http://${host}/api/wechat/jsapi-config`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ url }) }),
      params: {},
      context: {},
    } as unknown as ActionFunctionArgs) as Promise<Response>;

  it("with PUBLIC_URL, signs only pages of that origin, whatever Host the request names", async () => {
    process.env.PUBLIC_URL = "https://campus.example.com";
    resetConfig();
    try {
      expect((await post("evil.example.com", "http://evil.example.com/market")).status).toBe(400);
      expect((await post("evil.example.com", "https://evil.example.com/market")).status).toBe(400);
      expect((await post("localhost", "http://localhost/market")).status).toBe(400);
      expect((await post("evil.example.com", "https://campus.example.com/market")).status).toBe(200);
    } finally {
      delete process.env.PUBLIC_URL;
    }
  });

  it("in production without PUBLIC_URL, signs nothing: the Host header is the client's to choose", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { NODE_ENV: "production", SESSION_SECRET: "production-session-secret-0123456789abcdef", APP_ENCRYPTION_KEY: "ab".repeat(32) });
    resetConfig();
    try {
      expect((await post("evil.example.com", "http://evil.example.com/market")).status).toBe(400);
    } finally {
      for (const key of ["NODE_ENV", "SESSION_SECRET", "APP_ENCRYPTION_KEY"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
      resetConfig();
    }
  });
});
