// The simulated provider of development: its API answers like the real one, its authorize page
// hands a one-use code to our callback, and none of it exists once an app id is configured.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { isRandomNickname } from "~/lib/nickname";
import { loader as simApi } from "~/routes/api.wechat.sim-api.$";
import { action as simulateAction, loader as simulateLoader } from "~/routes/api.wechat.simulate";
import { resetConfig } from "~/server/config.server";
import { issueSimulatedCode, simulatedAccessToken, simulatedOpenid, simulatedProfile, simulatedUserInfo } from "./messenger-sim.server";
import { SIMULATED_APP_ID, SIMULATED_APP_SECRET, isSimulatedMessenger, messengerProvider } from "./messenger.server";

afterEach(() => {
  delete process.env.WECHAT_APP_ID;
  delete process.env.WECHAT_APP_SECRET;
  delete process.env.WECHAT_API_BASE_URL;
  process.env.NODE_ENV = "test";
  resetConfig();
});

const tokenParams = (code: string, overrides: Record<string, string> = {}) =>
  new URLSearchParams({ appid: SIMULATED_APP_ID, secret: SIMULATED_APP_SECRET, code, grant_type: "authorization_code", ...overrides });

async function settle(value: unknown): Promise<Response> {
  try {
    return (await value) as Response;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

const loaderArgs = (path: string, params: Record<string, string> = {}): LoaderFunctionArgs => ({
  request: new Request(`http://localhost${path}`),
  params,
  context: {},
});

describe("which provider", () => {
  it("simulated without an app id outside production, over loopback to our own simulated API", () => {
    resetConfig();
    expect(isSimulatedMessenger()).toBe(true);
    expect(messengerProvider()).toMatchObject({
      simulated: true,
      appId: SIMULATED_APP_ID,
      authorizeUrl: "/api/wechat/simulate",
    });
    expect(messengerProvider()!.apiBaseUrl).toMatch(/^http:\/\/[^/]+:\d+\/api\/wechat\/sim-api$/);
  });

  it("the real one with an app id", () => {
    process.env.WECHAT_APP_ID = "wx0123";
    process.env.WECHAT_APP_SECRET = "s";
    resetConfig();
    expect(isSimulatedMessenger()).toBe(false);
    expect(messengerProvider()).toMatchObject({
      simulated: false,
      appId: "wx0123",
      authorizeUrl: "https://open.weixin.qq.com/connect/oauth2/authorize",
      apiBaseUrl: "https://api.weixin.qq.com",
    });
  });
});

describe("the simulated API answers like the real one", () => {
  it("code → token once (40163 on reuse), token → userinfo", () => {
    const profile = simulatedProfile("oSim0000000000000000000000001", "小明");
    const code = issueSimulatedCode(profile);
    const token = simulatedAccessToken(tokenParams(code));
    expect(token).toMatchObject({ openid: profile.openid, expires_in: 7200, scope: "snsapi_userinfo" });
    expect(simulatedAccessToken(tokenParams(code))).toEqual({ errcode: 40163, errmsg: "code been used" });
    expect(simulatedUserInfo(new URLSearchParams({ access_token: String(token.access_token), openid: profile.openid, lang: "zh_CN" }))).toEqual({
      ...profile,
      privilege: [],
    });
    expect(simulatedUserInfo(new URLSearchParams({ access_token: "nope", openid: profile.openid }))).toMatchObject({ errcode: 40001 });
    expect(simulatedUserInfo(new URLSearchParams({ access_token: String(token.access_token), openid: "other" }))).toMatchObject({ errcode: 40003 });
  });

  it.each([
    ["unknown code", tokenParams("nope"), 40029],
    ["wrong app id", tokenParams("x", { appid: "wxOther" }), 40013],
    ["wrong secret", tokenParams("x", { secret: "bad" }), 40125],
    ["missing code", tokenParams(""), 41008],
  ])("%s → %s", (_label, params, errcode) => {
    expect(simulatedAccessToken(params)).toMatchObject({ errcode });
  });

  it("an expired code → 40029", () => {
    const code = issueSimulatedCode(simulatedProfile("oSim2", "x"), Date.now() - 10 * 60_000);
    expect(simulatedAccessToken(tokenParams(code))).toMatchObject({ errcode: 40029 });
  });

  it("the route serves both paths, and is 404 once an app id is configured", async () => {
    const code = issueSimulatedCode(simulatedProfile("oSim3", "y"));
    const answer = await settle(simApi(loaderArgs(`/api/wechat/sim-api/sns/oauth2/access_token?${tokenParams(code)}`, { "*": "sns/oauth2/access_token" })));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ openid: "oSim3" });
    expect((await settle(simApi(loaderArgs("/api/wechat/sim-api/other", { "*": "other" })))).status).toBe(404);

    process.env.WECHAT_APP_ID = "wx0123";
    resetConfig();
    expect((await settle(simApi(loaderArgs(`/api/wechat/sim-api/sns/userinfo`, { "*": "sns/userinfo" })))).status).toBe(404);
  });

  it("a browser keeps one simulated openid", () => {
    expect(simulatedOpenid("device-1")).toBe(simulatedOpenid("device-1"));
    expect(simulatedOpenid("device-1")).not.toBe(simulatedOpenid("device-2"));
    expect(simulatedOpenid("device-1")).toMatch(/^o[\w-]{27}$/);
  });
});

describe("the simulated authorize page", () => {
  const state = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
  const query = new URLSearchParams({
    appid: SIMULATED_APP_ID,
    redirect_uri: "http://localhost/api/wechat/callback",
    response_type: "code",
    scope: "snsapi_userinfo",
    state,
  });

  function post(fields: Record<string, string>): ActionFunctionArgs {
    return {
      request: new Request(`http://localhost/api/wechat/simulate?${query}`, { method: "POST", body: new URLSearchParams(fields) }),
      params: {},
      context: {},
    };
  }

  it("offers a random nickname for a valid request", async () => {
    const data = (await simulateLoader(loaderArgs(`/api/wechat/simulate?${query}`))) as { valid: boolean; nickname?: string; state?: string };
    expect(data.valid).toBe(true);
    expect(data.state).toBe(state);
    expect(isRandomNickname(data.nickname!)).toBe(true);
  });

  it.each([
    ["another app id", { appid: "wxOther" }],
    ["a foreign redirect_uri", { redirect_uri: "https://evil.example/api/wechat/callback" }],
    ["another path", { redirect_uri: "http://localhost/market" }],
    ["a bad state", { state: "a-b" }],
    ["another scope", { scope: "snsapi_base" }],
  ])("refuses %s", async (_label, override) => {
    const params = new URLSearchParams(query);
    for (const [key, value] of Object.entries(override)) params.set(key, value);
    expect(await simulateLoader(loaderArgs(`/api/wechat/simulate?${params}`))).toEqual({ valid: false });
  });

  it("authorize → our callback with a one-use code for this browser's simulated user", async () => {
    const response = await settle(simulateAction(post({ intent: "authorize", state, nickname: "开发者" })));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, "http://localhost");
    expect(location.pathname).toBe("/api/wechat/callback");
    expect(location.searchParams.get("state")).toBe(state);
    const token = simulatedAccessToken(tokenParams(location.searchParams.get("code")!));
    const info = simulatedUserInfo(new URLSearchParams({ access_token: String(token.access_token), openid: String(token.openid) }));
    expect(info).toMatchObject({ nickname: "开发者" });
    expect(response.headers.get("Set-Cookie")).toMatch(/^device_id=/);
  });

  it("refuse → our callback with the state only", async () => {
    const response = await settle(simulateAction(post({ intent: "refuse", state })));
    expect(response.headers.get("Location")).toBe(`/api/wechat/callback?state=${state}`);
  });

  it("a nickname over 32 characters is a field error", async () => {
    const response = await settle(simulateAction(post({ intent: "authorize", state, nickname: "长".repeat(33) })));
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("昵称最多 32 个字");
  });

  it("does not exist in production or with an app id", async () => {
    process.env.NODE_ENV = "production";
    process.env.SESSION_SECRET = process.env.SESSION_SECRET ?? "x".repeat(32);
    resetConfig();
    expect(isSimulatedMessenger()).toBe(false);
    expect(messengerProvider()).toBeNull();
    expect((await settle(simulateLoader(loaderArgs(`/api/wechat/simulate?${query}`)))).status).toBe(404);
    expect((await settle(simulateAction(post({ intent: "authorize", state })))).status).toBe(404);
  });
});
