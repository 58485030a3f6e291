// The messenger OAuth end to end against a fake provider on loopback (tests/fakes/messenger-oauth):
// our routes' loaders are called with real Requests, a small cookie jar plays the browser, and the
// provider's redirects are followed over HTTP. Runs on SQLite and PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AUTHORIZATION_VALID_MS, messengerErrorMessage } from "~/lib/wechat-auth";
import { loader as authLoader } from "~/routes/api.wechat.auth";
import { action as autoLoginAction, loader as autoLoginLoader } from "~/routes/api.wechat.auto-login";
import { loader as callbackLoader } from "~/routes/api.wechat.callback";
import { loader as userInfoLoader } from "~/routes/api.wechat.user-info";
import { loader as resultPageLoader } from "~/routes/wx.callback";
import { action as loginAction, loader as loginLoader } from "~/routes/crLogin";
import { action as settingsAction } from "~/routes/backpack.settings";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { fakeMessengerUser, startFakeMessenger, type FakeMessenger } from "../../../tests/fakes/messenger-oauth";
import { CookieBrowser, settle } from "../../../tests/setup/browser";
import { savedEnv } from "../../../tests/setup/env";
import { createMessengerUser, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { messengerAuthRedirect, needsReauthorization } from "./messenger.server";
import { OPERATOR_LINK_PATH, createOperatorSession, startOperatorLink } from "./operator.server";
import { getUser, lookupSession, readSessionId } from "./session.server";
import { requireMessengerUser, requireStudent } from "../http/guards.server";

const ORIGIN = "http://localhost";
const CALLBACK_URI = `${ORIGIN}/api/wechat/callback`;
const ENV_KEYS = ["WECHAT_APP_ID", "WECHAT_APP_SECRET", "WECHAT_OAUTH_AUTHORIZE_URL", "WECHAT_API_BASE_URL", "WECHAT_HTTP_TIMEOUT_MS", "LOG_LEVEL"] as const;

let fake: FakeMessenger;
let env: ReturnType<typeof savedEnv>;

function pointAppAt(overrides: Partial<Record<(typeof ENV_KEYS)[number], string>> = {}) {
  env.set({
    WECHAT_APP_ID: fake.appId,
    WECHAT_APP_SECRET: fake.appSecret,
    WECHAT_OAUTH_AUTHORIZE_URL: fake.authorizeUrl,
    WECHAT_API_BASE_URL: fake.url,
    WECHAT_HTTP_TIMEOUT_MS: "3000",
    LOG_LEVEL: "silent", // the failures below are expected
    ...overrides,
  });
}

beforeAll(async () => {
  env = savedEnv(ENV_KEYS);
  fake = await startFakeMessenger();
  pointAppAt();
});

afterEach(() => {
  fake.setMode("approve");
  pointAppAt();
});

afterAll(async () => {
  env.restore();
  await fake.close();
});

function locationOf(response: Response) {
  expect(response.status).toBe(302);
  return response.headers.get("Location")!;
}

function errorOf(response: Response) {
  const location = new URL(locationOf(response), ORIGIN);
  expect(location.pathname).toBe("/wx/callback");
  return { code: location.searchParams.get("error"), message: location.searchParams.get("message"), returnPath: location.searchParams.get("redirect_url") };
}

/** /api/wechat/auth → the fake's authorize page; answers the state and where the provider sent the browser. */
async function startAt(browser: CookieBrowser, returnPath = "/market") {
  const start = await browser.call(authLoader, `/api/wechat/auth?redirect_url=${encodeURIComponent(returnPath)}`);
  const location = locationOf(start);
  const state = new URL(location).searchParams.get("state")!;
  return { location, state };
}

/** The whole round trip; answers our callback's response and the callback path (for reloads). */
async function authorize(browser: CookieBrowser, returnPath = "/market") {
  const { location, state } = await startAt(browser, returnPath);
  const provider = await fetch(location, { redirect: "manual" });
  expect(provider.status).toBe(302);
  const back = new URL(provider.headers.get("Location")!);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK_URI);
  expect(back.searchParams.get("state")).toBe(state);
  const callbackPath = back.pathname + back.search;
  const response = await browser.call(callbackLoader, callbackPath);
  return { response, callbackPath, state };
}

const requireStudentOf = (browser: CookieBrowser) => requireStudent(browser.request("/schedule"));

async function userByOpenid(openid: string) {
  return db().selectFrom("users").selectAll().where("openid", "=", openid).executeTakeFirst();
}

async function userCount() {
  const row = await db().selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function stateRow(state: string) {
  return db().selectFrom("oauth_states").selectAll().where("state", "=", state).executeTakeFirstOrThrow();
}

async function sessionIdOf(browser: CookieBrowser) {
  return readSessionId(browser.request("/"));
}

describe("starting the authorization", () => {
  it("sends the browser to the provider with the documented parameters in order, a random state and #wechat_redirect", async () => {
    const browser = new CookieBrowser();
    const before = Date.now();
    const { location, state } = await startAt(browser, "/market/promo-activity?from=share");

    expect(state).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(location).toBe(
      `${fake.authorizeUrl}?appid=${fake.appId}&redirect_uri=${encodeURIComponent(CALLBACK_URI)}` +
        `&response_type=code&scope=snsapi_userinfo&state=${state}#wechat_redirect`,
    );
    const row = await stateRow(state);
    expect(row).toMatchObject({ purpose: "user", return_path: "/market/promo-activity?from=share", session_id: null, operator_id: null, used_at: null });
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(10 * 60 * 1000);
    expect(Date.parse(row.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect([...browser.cookies.keys()].sort()).toEqual(["wx_auth_lock", "wx_oauth_state"]);

    // The provider's authorize page saw the parameters in exactly this order.
    await fetch(location, { redirect: "manual" });
    expect(fake.state.authorizeQueries.at(-1)!.split("&").map((pair) => pair.split("=")[0])).toEqual([
      "appid",
      "redirect_uri",
      "response_type",
      "scope",
      "state",
    ]);
  });

  it("two states are never the same", async () => {
    const states = new Set<string>();
    for (let i = 0; i < 20; i += 1) states.add((await startAt(new CookieBrowser())).state);
    expect(states.size).toBe(20);
  });

  it.each([
    ["//evil.example/x", "/market"],
    ["https://evil.example/market", "/market"],
    [`${ORIGIN}/orders?tab=2`, "/orders?tab=2"],
    ["/express/orders/E20260101000001", "/express/orders/E20260101000001"],
    ["", "/market"],
  ])("return path %j is kept as %j", async (redirectUrl, expected) => {
    const { state } = await startAt(new CookieBrowser(), redirectUrl);
    expect((await stateRow(state)).return_path).toBe(expected);
  });

  it("a second start within 10 seconds from the same browser is refused instead of looping", async () => {
    const browser = new CookieBrowser();
    await startAt(browser);
    const again = await browser.call(authLoader, "/api/wechat/auth?redirect_url=%2Forders");
    expect(errorOf(again)).toEqual({ code: "REDIRECT_LOCKED", message: messengerErrorMessage("REDIRECT_LOCKED"), returnPath: "/orders" });
    // Another browser is not affected.
    expect(locationOf(await new CookieBrowser().call(authLoader, "/api/wechat/auth"))).toContain(fake.authorizeUrl);
  });
});

describe("the round trip", () => {
  it("creates the user with the profile, starts a 'wechat' session and returns to the path", async () => {
    const person = fakeMessengerUser({ nickname: "林小北", sex: 2, city: "赣州", unionid: "uFakeUnion0001" });
    fake.setUser(person);
    const users = await userCount();
    const exchanges = fake.state.tokenExchanges;
    const browser = new CookieBrowser();

    const { response, state } = await authorize(browser, "/market?campus=jinpenling");

    expect(locationOf(response)).toBe("/market?campus=jinpenling");
    expect(await userCount()).toBe(users + 1);
    expect(fake.state.tokenExchanges).toBe(exchanges + 1);
    const user = await userByOpenid(person.openid);
    expect(user).toMatchObject({
      openid: person.openid,
      unionid: "uFakeUnion0001",
      nickname: "林小北",
      avatar_url: person.headimgurl,
      wechat_nickname: "林小北",
      wechat_avatar: person.headimgurl,
      wechat_sex: 2,
      wechat_city: "赣州",
      wechat_province: "江西",
      wechat_country: "中国",
      student_id: null,
    });
    expect(Date.now() - Date.parse(user!.wechat_authorized_at!)).toBeLessThan(60_000);
    expect((await stateRow(state)).used_at).not.toBeNull();

    const lookup = await lookupSession(browser.request("/market"));
    expect(lookup.state).toBe("active");
    if (lookup.state !== "active") return;
    expect(lookup.user.id).toBe(user!.id);
    expect(lookup.session.platform).toBe("wechat");
    expect(browser.cookies.has("device_id")).toBe(true);

    // A protected JSON endpoint now answers for this browser, and again on a second visit.
    for (let visit = 0; visit < 2; visit += 1) {
      const info = await browser.call(userInfoLoader, "/api/wechat/user-info", { headers: { Accept: "application/json" } });
      expect(info.status).toBe(200);
      expect(await info.json()).toMatchObject({ success: true, data: { nickname: "林小北", city: "赣州", student_bound: false } });
    }
  });

  it("a returning messenger user signs in to the same row", async () => {
    const person = fakeMessengerUser();
    fake.setUser(person);
    await authorize(new CookieBrowser());
    const first = await userByOpenid(person.openid);
    fake.setUser({ ...person, nickname: "改了名字", city: "九江" });

    const other = new CookieBrowser();
    const { response } = await authorize(other);
    expect(locationOf(response)).toBe("/market");
    const again = await userByOpenid(person.openid);
    expect(again!.id).toBe(first!.id);
    expect(again).toMatchObject({ wechat_nickname: "改了名字", wechat_city: "九江", nickname: person.nickname });
    expect((await getUser(other.request("/")))?.id).toBe(first!.id);
  });

  it("a reload of the callback never exchanges the code again", async () => {
    fake.setUser(fakeMessengerUser());
    const browser = new CookieBrowser();
    const { callbackPath } = await authorize(browser, "/orders");
    const exchanges = fake.state.tokenExchanges;
    const sessionId = await sessionIdOf(browser);
    const sessions = await db().selectFrom("sessions").select("id").execute();

    // Signed in already: straight back to the path, same session.
    const reload = await browser.call(callbackLoader, callbackPath);
    expect(locationOf(reload)).toBe("/orders");
    expect(fake.state.tokenExchanges).toBe(exchanges);
    expect(await sessionIdOf(browser)).toBe(sessionId);
    expect(await db().selectFrom("sessions").select("id").execute()).toHaveLength(sessions.length);

    // Not signed in (the link opened elsewhere): a fresh authorization, still no exchange.
    const elsewhere = new CookieBrowser();
    const restart = await elsewhere.call(callbackLoader, callbackPath);
    const location = new URL(locationOf(restart));
    expect(`${location.origin}${location.pathname}`).toBe(fake.authorizeUrl);
    const newState = location.searchParams.get("state")!;
    expect(newState).not.toBe(new URL(callbackPath, ORIGIN).searchParams.get("state"));
    expect((await stateRow(newState)).return_path).toBe("/orders");
    expect(fake.state.tokenExchanges).toBe(exchanges);
  });

  it("a refused authorization lands on the result page, consumes the state and creates nobody", async () => {
    fake.setMode("refuse");
    const users = await userCount();
    const exchanges = fake.state.tokenExchanges;
    const browser = new CookieBrowser();

    const { response, state, callbackPath } = await authorize(browser, "/orders");
    expect(new URL(callbackPath, ORIGIN).searchParams.has("code")).toBe(false);
    expect(errorOf(response)).toEqual({ code: "AUTH_DENIED", message: messengerErrorMessage("AUTH_DENIED"), returnPath: "/orders" });
    expect(await userCount()).toBe(users);
    expect(fake.state.tokenExchanges).toBe(exchanges);
    expect((await stateRow(state)).used_at).not.toBeNull();
    expect(await getUser(browser.request("/"))).toBeNull();

    // The lock is lifted: the retry link works at once.
    fake.setMode("approve");
    expect(browser.cookies.has("wx_auth_lock")).toBe(false);
    const retry = await browser.call(authLoader, "/api/wechat/auth?redirect_url=%2Forders");
    expect(locationOf(retry)).toContain(fake.authorizeUrl);
  });
});

describe("an invalid state exchanges nothing", () => {
  it.each([
    ["unknown", "/api/wechat/callback?code=abc&state=NoSuchState0000000000000000000000"],
    ["malformed", "/api/wechat/callback?code=abc&state=bad-state%3Cscript%3E"],
    ["missing", "/api/wechat/callback?code=abc"],
  ])("%s state → INVALID_STATE", async (_label, path) => {
    const exchanges = fake.state.tokenExchanges;
    const response = await new CookieBrowser().call(callbackLoader, path);
    expect(errorOf(response)).toMatchObject({ code: "INVALID_STATE", message: messengerErrorMessage("INVALID_STATE") });
    expect(fake.state.tokenExchanges).toBe(exchanges);
  });

  it("a state started by another browser is refused (login CSRF) and stays usable by its own browser", async () => {
    const person = fakeMessengerUser();
    fake.setUser(person);
    const owner = new CookieBrowser();
    const { location, state } = await startAt(owner);
    const provider = await fetch(location, { redirect: "manual" });
    const back = new URL(provider.headers.get("Location")!);
    const exchanges = fake.state.tokenExchanges;

    const victim = new CookieBrowser();
    const attempt = await victim.call(callbackLoader, back.pathname + back.search);
    expect(errorOf(attempt).code).toBe("INVALID_STATE");
    expect(fake.state.tokenExchanges).toBe(exchanges);
    expect(await getUser(victim.request("/"))).toBeNull();
    expect((await stateRow(state)).used_at).toBeNull();

    expect(locationOf(await owner.call(callbackLoader, back.pathname + back.search))).toBe("/market");
    expect((await getUser(owner.request("/")))?.openid).toBe(person.openid);
  });

  it("an expired state → INVALID_STATE", async () => {
    const browser = new CookieBrowser();
    const { location, state } = await startAt(browser);
    const provider = await fetch(location, { redirect: "manual" });
    const back = new URL(provider.headers.get("Location")!);
    await db().updateTable("oauth_states").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("state", "=", state).execute();
    const exchanges = fake.state.tokenExchanges;
    expect(errorOf(await browser.call(callbackLoader, back.pathname + back.search)).code).toBe("INVALID_STATE");
    expect(fake.state.tokenExchanges).toBe(exchanges);
  });
});

describe("provider errors reach /wx/callback with their code", () => {
  async function callbackWith(setup: () => void, code?: string) {
    const browser = new CookieBrowser();
    const { state } = await startAt(browser, "/orders");
    setup();
    const response = await browser.call(callbackLoader, `/api/wechat/callback?code=${code ?? fake.issueCode()}&state=${state}`);
    return { error: errorOf(response), browser };
  }

  it.each([
    ["40029 invalid code", "INVALID_CODE", () => {}, "not-a-real-code"],
    ["40163 code used", "CODE_USED", () => fake.failNext("token", { kind: "errcode", errcode: 40163, errmsg: "code been used" }), undefined],
    ["48001 scope", "SCOPE_UNAUTHORIZED", () => fake.failNext("userinfo", { kind: "errcode", errcode: 48001, errmsg: "api unauthorized" }), undefined],
    ["another errcode", "WECHAT_ERROR", () => fake.failNext("token", { kind: "errcode", errcode: 40125, errmsg: "invalid appsecret" }), undefined],
    ["a token answer that is not JSON", "PARSE_ERROR", () => fake.failNext("token", { kind: "garbage" }), undefined],
    ["a token answer without openid", "PARSE_ERROR", () => fake.failNext("token", { kind: "json", body: { access_token: "x", expires_in: 7200 } }), undefined],
    ["a userinfo answer that is not JSON", "PARSE_ERROR", () => fake.failNext("userinfo", { kind: "garbage" }), undefined],
    ["a userinfo answer without openid", "NO_USER_INFO", () => fake.failNext("userinfo", { kind: "json", body: { nickname: "无名", sex: 0 } }), undefined],
    ["a userinfo answer for another openid", "NO_USER_INFO", () => fake.failNext("userinfo", { kind: "json", body: { openid: "oSomeoneElse", nickname: "别人" } }), undefined],
    ["an HTTP 502", "WECHAT_ERROR", () => fake.failNext("token", { kind: "http", status: 502 }), undefined],
  ] as const)("%s → %s", async (_label, expected, setup, code) => {
    const users = await userCount();
    const { error, browser } = await callbackWith(setup, code);
    expect(error).toEqual({ code: expected, message: messengerErrorMessage(expected), returnPath: "/orders" });
    expect(await userCount()).toBe(users);
    expect(await getUser(browser.request("/"))).toBeNull();
  });

  it("a userinfo answer of the right user with a malformed field → PARSE_ERROR", async () => {
    const person = fakeMessengerUser();
    const browser = new CookieBrowser();
    const { state } = await startAt(browser);
    fake.failNext("userinfo", { kind: "json", body: { openid: person.openid, nickname: 12345 } });
    const response = await browser.call(callbackLoader, `/api/wechat/callback?code=${fake.issueCode(person)}&state=${state}`);
    expect(errorOf(response).code).toBe("PARSE_ERROR");
  });

  it("a provider slower than the time-out → TIMEOUT", async () => {
    pointAppAt({ WECHAT_HTTP_TIMEOUT_MS: "200" });
    const { error } = await callbackWith(() => fake.failNext("token", { kind: "slow", ms: 1500 }));
    expect(error.code).toBe("TIMEOUT");
  });

  it("an unreachable provider → NETWORK_ERROR", async () => {
    const { error } = await callbackWith(() => pointAppAt({ WECHAT_API_BASE_URL: "http://127.0.0.1:9" }));
    expect(error.code).toBe("NETWORK_ERROR");
  });
});

describe("one person, two identities", () => {
  it("a signed-in student without openid gets the identity on the same row, and stays signed in", async () => {
    const student = await createStudent();
    const browser = new CookieBrowser(await sessionCookieFor(student.id, { deviceId: "student-laptop" }));
    const sessionId = await sessionIdOf(browser);
    const person = fakeMessengerUser({ nickname: "学霸小王" });
    fake.setUser(person);
    const users = await userCount();

    const { response } = await authorize(browser, "/backpack");

    expect(locationOf(response)).toBe("/backpack");
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
    expect(await userCount()).toBe(users);
    const row = await db().selectFrom("users").selectAll().where("id", "=", student.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ openid: person.openid, wechat_nickname: "学霸小王", nickname: "学霸小王", student_id: student.student_id });
    expect(await sessionIdOf(browser)).toBe(sessionId);
    expect((await getUser(browser.request("/")))?.id).toBe(student.id);
  });

  it("an openid-only row of that openid is merged into the student's row and removed", async () => {
    const person = fakeMessengerUser();
    const messengerRow = await createMessengerUser({ openid: person.openid, phone: "13800138000", theme: "green", nickname: "小西瓜Ab12Cd" });
    const phoneCookie = await sessionCookieFor(messengerRow.id, { deviceId: "phone", platform: "wechat" });
    const phoneSessionId = await readSessionId(request("/", { cookie: phoneCookie }));
    const student = await createStudent();
    const browser = new CookieBrowser(await sessionCookieFor(student.id, { deviceId: "laptop" }));
    fake.setUser(person);
    // An order placed with the messenger identity alone (the orders issue): it follows the person.
    const stamp = new Date().toISOString();
    const order = await db()
      .insertInto("orders")
      .values({ order_number: "E20260302123456", user_id: messengerRow.id, campus_code: "jinpenling", campus_name: "金盆岭校区", recipient_name: "张三", recipient_phone: "13800138000", recipient_dorm: "西苑3栋", recipient_room: "302", delivery_address: "金盆岭校区 西苑3栋302", pickup_codes: "[]", package_counts: "{}", parcel_count: 1, remark: null, original_fen: 120, amount_fen: 120, coupon_id: null, status: "created", payment_status: "pending", refund_state: null, refund_reason: null, cancel_reason: null, estimated_delivery_at: stamp, checkout_key: null, idempotency_key: null, expires_at: stamp, paid_at: null, completed_at: null, cancelled_at: null, refunded_at: null, created_at: stamp, updated_at: stamp })
      .returning("id")
      .executeTakeFirstOrThrow();
    const users = await userCount();

    const { response } = await authorize(browser, "/orders");

    expect(locationOf(response)).toBe("/orders");
    expect(await userCount()).toBe(users - 1);
    expect(await db().selectFrom("users").select("id").where("id", "=", messengerRow.id).executeTakeFirst()).toBeUndefined();
    const row = await db().selectFrom("users").selectAll().where("id", "=", student.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      openid: person.openid,
      phone: "13800138000",
      theme: "green",
      nickname: "小西瓜Ab12Cd",
      student_id: student.student_id,
      wechat_nickname: person.nickname,
    });
    // The phone's session followed the person and ended; this browser's session goes on.
    const phoneSession = await db().selectFrom("sessions").selectAll().where("id", "=", phoneSessionId!).executeTakeFirstOrThrow();
    expect(phoneSession).toMatchObject({ user_id: student.id, end_reason: "replaced" });
    expect(await lookupSession(request("/", { cookie: phoneCookie }))).toEqual({ state: "ended", reason: "replaced" });
    expect((await getUser(browser.request("/")))?.id).toBe(student.id);
    expect(await db().selectFrom("orders").select("user_id").where("id", "=", order.id).executeTakeFirst()).toEqual({ user_id: student.id });
  });

  it("an openid bound to another student account → WECHAT_ALREADY_BOUND, nothing changes", async () => {
    const person = fakeMessengerUser();
    const other = await createStudent({ openid: person.openid, wechat_nickname: "别人", wechat_authorized_at: new Date().toISOString() });
    const student = await createStudent();
    const browser = new CookieBrowser(await sessionCookieFor(student.id));
    fake.setUser(person);

    const { response } = await authorize(browser, "/orders");

    expect(errorOf(response)).toEqual({ code: "WECHAT_ALREADY_BOUND", message: "该微信账号已绑定其他学号", returnPath: "/orders" });
    expect((await db().selectFrom("users").selectAll().where("id", "=", student.id).executeTakeFirstOrThrow()).openid).toBeNull();
    expect(await db().selectFrom("users").selectAll().where("id", "=", other.id).executeTakeFirstOrThrow()).toEqual(other);
    expect((await getUser(browser.request("/")))?.id).toBe(student.id);
  });

  it("without a student signed in, a bound openid signs in its student row", async () => {
    const person = fakeMessengerUser();
    const student = await createStudent({ openid: person.openid, wechat_authorized_at: new Date().toISOString() });
    fake.setUser(person);
    const browser = new CookieBrowser();
    await authorize(browser);
    const user = await getUser(browser.request("/"));
    expect(user?.id).toBe(student.id);

    const answer = await autoLoginAction({ request: browser.request("/api/wechat/auto-login", { method: "POST" }), params: {}, context: {} });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    const school = await db().selectFrom("schools").select("name").where("code", "=", "demo").executeTakeFirstOrThrow();
    expect(body).toEqual({ success: true, data: { student_id: student.student_id, user_name: "测试学生", school_name: school.name } });
    expect(JSON.stringify(body)).not.toMatch(/password|token/i);
  });
});

const MESSENGER_UA = "Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile MicroMessenger/8.0.50";
let loginIp = 0;

/** 退出登录 on /backpack/settings, as its confirm dialog posts it. */
async function logOut(browser: CookieBrowser) {
  const response = await browser.call(
    (args) => settingsAction(args) as Promise<Response>,
    "/backpack/settings",
    { method: "POST", body: new URLSearchParams({ intent: "logout" }), headers: { "Content-Type": "application/x-www-form-urlencoded" } },
  );
  expect(locationOf(response)).toBe("/crLogin");
  // A while later: the 10-second redirect lock of the last authorization is over.
  browser.cookies.delete("wx_auth_lock");
}

/** A school-account login on /crLogin inside the messenger (the demo school). */
async function logIn(browser: CookieBrowser, studentId: string) {
  const page = (await loginLoader({ request: browser.request("/crLogin", { headers: { "User-Agent": MESSENGER_UA } }), params: {}, context: {} })) as { captcha: { id: string } };
  const body = new URLSearchParams({ school: "demo", studentId, password: "demo1234", captcha: "AB23", captchaId: page.captcha.id });
  const headers = { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": MESSENGER_UA };
  return browser.call(
    (args) => loginAction({ ...args, context: { clientIp: `10.9.0.${++loginIp}` } }) as Promise<Response>,
    "/crLogin",
    { method: "POST", body, headers },
  );
}

describe("退出登录 inside the messenger", () => {
  beforeAll(() => {
    process.env.CAPTCHA_FIXED_VALUE = "AB23";
    resetConfig();
  });
  afterAll(() => {
    delete process.env.CAPTCHA_FIXED_VALUE;
    resetConfig();
  });

  it("after logout the messenger does not sign the student back in; the 学号 login binds it again", async () => {
    const person = fakeMessengerUser();
    fake.setUser(person);
    const browser = new CookieBrowser();
    await authorize(browser);
    expect(locationOf(await logIn(browser, "20230001"))).not.toMatch(/crLogin/);
    const student = (await getUser(browser.request("/")))!;
    expect(student).toMatchObject({ student_id: "20230001", openid: person.openid });

    await logOut(browser);
    expect(await getUser(browser.request("/"))).toBeNull();
    // The messenger authorization (silent inside the messenger) comes back as the messenger identity only.
    await authorize(browser, "/schedule");
    const after = await getUser(browser.request("/"));
    expect(after?.id).not.toBe(student.id);
    expect(after?.student_id ?? null).toBeNull();
    await expect(requireStudentOf(browser)).rejects.toMatchObject({ status: 302 });

    // Logging in with the 学号 again: the same row as before, with the messenger identity.
    expect(locationOf(await logIn(browser, "20230001"))).not.toMatch(/crLogin/);
    expect(await getUser(browser.request("/"))).toMatchObject({ id: student.id, openid: person.openid });
  });

  it("another student who logs in on that messenger takes the binding", async () => {
    const person = fakeMessengerUser();
    fake.setUser(person);
    const browser = new CookieBrowser();
    await authorize(browser);
    await logIn(browser, "20230002");
    const first = (await getUser(browser.request("/")))!;
    expect(first.openid).toBe(person.openid);

    await logOut(browser);
    await authorize(browser);
    expect(locationOf(await logIn(browser, "20230006"))).not.toMatch(/crLogin/);
    const second = (await getUser(browser.request("/")))!;
    expect(second).toMatchObject({ student_id: "20230006", openid: person.openid });
    // The first student keeps their row and what is theirs, without the messenger.
    expect(await db().selectFrom("users").select(["student_id", "openid"]).where("id", "=", first.id).executeTakeFirst()).toEqual({ student_id: "20230002", openid: null });

    // Signed in as the second student, the first logs in again on the same messenger: the binding moves back.
    expect(locationOf(await logIn(browser, "20230002"))).not.toMatch(/crLogin/);
    expect(await getUser(browser.request("/"))).toMatchObject({ id: first.id, openid: person.openid });
    expect((await db().selectFrom("users").select("openid").where("id", "=", second.id).executeTakeFirstOrThrow()).openid).toBeNull();
  });
});

describe("auto-login", () => {
  it.each([
    ["no session", async () => new CookieBrowser(), "请先进行微信授权登录"],
    ["a messenger user without a student account", async () => new CookieBrowser(await sessionCookieFor((await createMessengerUser()).id)), "该微信尚未绑定学号，请先使用学号登录"],
    ["a student without the messenger identity", async () => new CookieBrowser(await sessionCookieFor((await createStudent()).id)), "请先进行微信授权登录"],
  ])("%s → 401", async (_label, makeBrowser, message) => {
    const browser = await makeBrowser();
    const answer = await autoLoginAction({ request: browser.request("/api/wechat/auto-login", { method: "POST" }), params: {}, context: {} });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ success: false, message });
  });

  it("GET is not allowed", async () => {
    const answer = await autoLoginLoader();
    expect(answer.status).toBe(405);
  });
});

describe("the 7-day authorization", () => {
  const days = (n: number) => new Date(Date.now() - n * 24 * 3600_000).toISOString();

  it("needsReauthorization: 7 days or older, or never", () => {
    const at = new Date("2026-03-10T12:00:00.000Z");
    expect(needsReauthorization({ openid: "o1", wechat_authorized_at: "2026-03-03T12:00:00.001Z" }, at)).toBe(false);
    expect(needsReauthorization({ openid: "o1", wechat_authorized_at: "2026-03-03T12:00:00.000Z" }, at)).toBe(true);
    expect(needsReauthorization({ openid: "o1", wechat_authorized_at: null }, at)).toBe(true);
    expect(needsReauthorization({ openid: null, wechat_authorized_at: "2026-03-10T00:00:00.000Z" }, at)).toBe(true);
    expect(AUTHORIZATION_VALID_MS).toBe(7 * 24 * 3600_000);
  });

  it("a page load after 7 days re-authorizes; JSON calls and the lock keep the known identity", async () => {
    const fresh = await createMessengerUser({ wechat_authorized_at: days(6) });
    const stale = await createMessengerUser({ wechat_authorized_at: days(8) });
    const freshBrowser = new CookieBrowser(await sessionCookieFor(fresh.id));
    const staleBrowser = new CookieBrowser(await sessionCookieFor(stale.id));

    expect((await requireMessengerUser(freshBrowser.request("/market/order"))).id).toBe(fresh.id);
    const redirected = await settle(requireMessengerUser(staleBrowser.request("/market/order?step=2")) as Promise<never>);
    expect(locationOf(redirected)).toBe("/api/wechat/auth?redirect_url=%2Fmarket%2Forder%3Fstep%3D2");
    expect((await requireMessengerUser(staleBrowser.request("/api/coupon/x", { headers: { Accept: "application/json" } }))).id).toBe(stale.id);
    // The page's own data request (single fetch: /market/order.data, which the loader sees as
    // /market/order?_routes=…) accepts anything, not HTML.
    expect((await requireMessengerUser(staleBrowser.request("/market/order?_routes=routes%2Fmarket", { headers: { Accept: "*/*" } }))).id).toBe(stale.id);

    // Right after a redirect (lock on), the page is served with the known identity.
    await staleBrowser.call(authLoader, "/api/wechat/auth?redirect_url=%2Fmarket");
    expect((await requireMessengerUser(staleBrowser.request("/market/order"))).id).toBe(stale.id);

    // No identity: JSON gets 401, a page the authorization.
    const anonymous = new CookieBrowser();
    const json = await settle(requireMessengerUser(anonymous.request("/api/x", { headers: { Accept: "application/json" } })) as Promise<never>);
    expect(json.status).toBe(401);
    expect(await json.json()).toEqual({ success: false, message: "请先进行微信授权" });
    expect(locationOf(await settle(requireMessengerUser(anonymous.request("/market/order")) as Promise<never>))).toBe(
      "/api/wechat/auth?redirect_url=%2Fmarket%2Forder",
    );
  });

  it("messengerAuthRedirect (for open pages such as the market): only inside the messenger, only when needed, never under the lock", async () => {
    const inMessenger = { "User-Agent": "Mozilla/5.0 (iPhone) MicroMessenger/8.0.50(0x18003237) NetType/WIFI" };
    const fresh = await createMessengerUser({ wechat_authorized_at: days(1) });
    const stale = await createMessengerUser({ wechat_authorized_at: days(9) });
    const anonymous = new CookieBrowser();

    expect(await messengerAuthRedirect(anonymous.request("/market?campus=x", { headers: inMessenger }), null)).toBe(
      "/api/wechat/auth?redirect_url=%2Fmarket%3Fcampus%3Dx",
    );
    expect(await messengerAuthRedirect(anonymous.request("/market"), null)).toBeNull(); // a desktop browser
    expect(await messengerAuthRedirect(anonymous.request("/market", { headers: inMessenger }), fresh)).toBeNull();
    expect(await messengerAuthRedirect(anonymous.request("/market", { headers: inMessenger }), stale)).toBe("/api/wechat/auth?redirect_url=%2Fmarket");
    await anonymous.call(authLoader, "/api/wechat/auth");
    expect(await messengerAuthRedirect(anonymous.request("/market", { headers: inMessenger }), null)).toBeNull();
  });

  it("re-authorizing renews the date and keeps the browser's session", async () => {
    const person = fakeMessengerUser();
    const stale = await createMessengerUser({ openid: person.openid, wechat_authorized_at: days(8) });
    const browser = new CookieBrowser(await sessionCookieFor(stale.id, { platform: "wechat" }));
    const sessionId = await sessionIdOf(browser);
    fake.setUser(person);

    const { response } = await authorize(browser, "/market/order");

    expect(locationOf(response)).toBe("/market/order");
    const row = await userByOpenid(person.openid);
    expect(row!.id).toBe(stale.id);
    expect(needsReauthorization(row!, new Date())).toBe(false);
    expect(await sessionIdOf(browser)).toBe(sessionId);
    expect((await requireMessengerUser(browser.request("/market/order"))).id).toBe(stale.id);
  });
});

describe("the nickname a messenger profile gives", () => {
  it.each([
    ["no nickname", ""],
    ["the provider's placeholder", "微信用户"],
    ["an abusive name", "傻 Ｂ"],
    ["a name passing for staff", "校园帮客服"],
  ])("%s → none: never a made-up name, the student is asked before writing", async (_label, nickname) => {
    const person = fakeMessengerUser({ nickname });
    fake.setUser(person);
    await authorize(new CookieBrowser());
    const row = await userByOpenid(person.openid);
    expect(row!.nickname).toBeNull();
    expect(row!.nickname_key).toBeNull();
    expect(row!.wechat_nickname).toBe(nickname || null);
  });

  it("a real name is kept (with its key), and once given it stays on the next authorization", async () => {
    // Digits: random letters can spell a word the name check refuses ("nm"), and the name would not be kept.
    const person = fakeMessengerUser({ nickname: `Ｌｉｌｙ${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}` });
    fake.setUser(person);
    await authorize(new CookieBrowser());
    const first = (await userByOpenid(person.openid))!;
    expect(first.nickname).toBe(person.nickname);
    expect(first.nickname_key).toBe(person.nickname.normalize("NFKC").toLowerCase());
    fake.setUser({ ...person, nickname: "改了名字" });
    await authorize(new CookieBrowser());
    expect((await userByOpenid(person.openid))!.nickname).toBe(person.nickname);
  });

  it("another person's name (folded alike) is not taken over", async () => {
    const taken = `阿杰${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
    await createStudent({ nickname: taken, nickname_key: taken });
    const person = fakeMessengerUser({ nickname: ` ${taken.toUpperCase()} ` });
    fake.setUser(person);
    await authorize(new CookieBrowser());
    expect((await userByOpenid(person.openid))!.nickname).toBeNull();
  });
});

describe("an operator linking the messenger (from /admin/settings)", () => {
  async function operatorBrowser(openid: string | null = null) {
    const operator = await db()
      .insertInto("operators")
      .values({ username: `op${Date.now()}${Math.random().toString(36).slice(2, 6)}`, display_name: "配送员小李", password_hash: "x", role: "operator", openid, disabled: 0, created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const session = await createOperatorSession(operator.id);
    const linkCookie = await startOperatorLink(request("/admin/settings", { method: "POST", cookie: session.setCookie.split(";")[0] }));
    return { operatorId: operator.id, browser: new CookieBrowser(linkCookie!.split(";")[0]) };
  }

  async function link(browser: CookieBrowser) {
    const start = await browser.call(authLoader, OPERATOR_LINK_PATH);
    const location = locationOf(start);
    expect(location.startsWith(`${fake.authorizeUrl}?`)).toBe(true);
    const provider = await fetch(location, { redirect: "manual" });
    const back = new URL(provider.headers.get("Location")!);
    return browser.call(callbackLoader, back.pathname + back.search);
  }

  it("writes the openid to the operator, never to a user row, and returns to /admin/settings?link=ok", async () => {
    const { operatorId, browser } = await operatorBrowser();
    const person = fakeMessengerUser();
    fake.setUser(person);
    const users = await userCount();

    const response = await link(browser);

    expect(locationOf(response)).toBe("/admin/settings?link=ok");
    expect((await db().selectFrom("operators").select("openid").where("id", "=", operatorId).executeTakeFirstOrThrow()).openid).toBe(person.openid);
    const state = await db().selectFrom("oauth_states").selectAll().where("operator_id", "=", operatorId).executeTakeFirstOrThrow();
    expect(state).toMatchObject({ purpose: "operator", return_path: "/admin/settings" });
    expect(await userByOpenid(person.openid)).toBeUndefined();
    expect(await userCount()).toBe(users);
    expect(await getUser(browser.request("/"))).toBeNull();
    expect(browser.cookies.has("__operator_link")).toBe(false);
  });

  it("an openid linked to another operator → /admin/settings?link=taken; a refusal → ?link=failed", async () => {
    const person = fakeMessengerUser();
    await operatorBrowser(person.openid);
    const { operatorId, browser } = await operatorBrowser();
    fake.setUser(person);
    expect(locationOf(await link(browser))).toBe("/admin/settings?link=taken");
    expect((await db().selectFrom("operators").select("openid").where("id", "=", operatorId).executeTakeFirstOrThrow()).openid).toBeNull();

    const second = await operatorBrowser();
    fake.setMode("refuse");
    expect(locationOf(await link(second.browser))).toBe("/admin/settings?link=failed");
  });

  it("without the link cookie of a signed-in operator: the operator login, no state", async () => {
    const states = (await db().selectFrom("oauth_states").select("state").execute()).length;
    const response = await new CookieBrowser().call(authLoader, OPERATOR_LINK_PATH);
    expect(new URL(locationOf(response), ORIGIN).pathname).toBe("/admin/login");
    expect((await db().selectFrom("oauth_states").select("state").execute()).length).toBe(states);
  });
});

describe("the result page /wx/callback", () => {
  const page = async (path: string) => resultPageLoader({ request: request(path), params: {}, context: {} });
  const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

  it.each([
    ["/wx/callback?error=PARSE_ERROR&message=x", "PARSE_ERROR", "用户信息解析失败，请重新授权"],
    ["/wx/callback?error=NO_USER_INFO", "NO_USER_INFO", messengerErrorMessage("NO_USER_INFO")],
    // Unknown codes and the URL's own message text are never shown as given.
    ["/wx/callback?error=EVIL&message=%E8%AF%B7%E8%BD%AC%E8%B4%A6", "AUTH_FAILED", "微信授权失败，请刷新页面重试"],
  ])("%s shows %s", async (path, code, message) => {
    expect(await page(path)).toMatchObject({ kind: "error", code, message, retryHref: "/api/wechat/auth?redirect_url=%2Fmarket" });
  });

  it("refusing is no fault: its own title and no code to quote; a real failure keeps its reference", async () => {
    expect(await page("/wx/callback?error=AUTH_DENIED")).toMatchObject({ kind: "error", title: "已取消授权", showCode: false });
    expect(await page("/wx/callback?error=TIMEOUT")).toMatchObject({ kind: "error", title: "授权未完成", showCode: true, code: "TIMEOUT" });
  });

  it("keeps a safe return path for the retry link", async () => {
    expect(await page("/wx/callback?error=AUTH_DENIED&redirect_url=%2Forders")).toMatchObject({ retryHref: "/api/wechat/auth?redirect_url=%2Forders", continueHref: "/orders" });
    expect(await page("/wx/callback?error=AUTH_DENIED&redirect_url=https%3A%2F%2Fevil.example")).toMatchObject({ continueHref: "/market" });
  });

  it("a legacy userInfo payload is decoded but signs nobody in", async () => {
    const payload = base64(JSON.stringify({ openid: "oAttacker", nickname: "管理员" })).replace(/=+$/, "");
    const data = await page(`/wx/callback?userInfo=${encodeURIComponent(payload)}`);
    expect(data).toEqual({ kind: "notice", message: "请点击下方按钮继续使用校园帮", retryHref: "/api/wechat/auth?redirect_url=%2Fmarket", continueHref: "/market" });
    expect(JSON.stringify(data)).not.toContain("oAttacker");
    expect(await userByOpenid("oAttacker")).toBeUndefined();
    expect(await page("/wx/callback?userInfo=%%%not-base64")).toMatchObject({ kind: "error", code: "PARSE_ERROR" });
  });
});
