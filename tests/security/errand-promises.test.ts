// The security suite, against the production build: an order that pays for fewer
// parcels than it lists is refused with nothing stored, and the promotion farming loop (delete
// the account, log in again; re-authorize the same messenger account; invent a student id)
// gives no second new-user grant and no second assist. The messenger is the loopback fake OAuth
// provider (tests/fakes/messenger-oauth); the school is the demo school.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { FIVE_CODES, orderCreateBody } from "../fixtures/order-create";
import { fakeMessengerUser, startFakeMessenger, type FakeMessenger, type FakeMessengerUser } from "../fakes/messenger-oauth";
import { cookieHeader, keepCookies } from "../setup/browser";
import { CAPTCHA_ANSWER, captchaToken, sql, startServer, type Server } from "./server";

const DEMO_PASSWORD = "demo1234";
let fake: FakeMessenger;
let server: Server;

beforeAll(async () => {
  fake = await startFakeMessenger({ appId: "wxpromisesuite0001", appSecret: "promises-suite-app-secret-3c9d" });
  server = await startServer({
    WECHAT_APP_ID: fake.appId,
    WECHAT_APP_SECRET: fake.appSecret,
    WECHAT_OAUTH_AUTHORIZE_URL: fake.authorizeUrl,
    WECHAT_API_BASE_URL: fake.url,
    // The demo school and the campuses with their prices (production starts without them).
    SEED_DEMO_DATA: "true",
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

/** A browser: cookies kept by hand (the production cookies are Secure; the suite speaks plain HTTP on loopback). */
class Jar {
  cookies = new Map<string, string>();
  async fetch(path: string, init: { method?: string; form?: Record<string, string>; json?: unknown } = {}) {
    const headers: Record<string, string> = { Accept: "text/html,application/json" };
    if (this.cookies.size) headers.Cookie = cookieHeader(this.cookies);
    let body: string | undefined;
    if (init.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(init.json);
    }
    const method = init.method ?? (body ? "POST" : "GET");
    if (method !== "GET") headers.Origin = server.base;
    return keepCookies(this.cookies, await fetch(path.startsWith("http") ? path : server.base + path, { method, headers, body, redirect: "manual" }));
  }
}

/** The messenger authorization round trip through the fake provider, as `user`. */
async function authorize(jar: Jar, user: FakeMessengerUser) {
  fake.setUser(user);
  const start = await jar.fetch("/api/wechat/auth?redirect_url=%2Fmarket");
  expect(start.status).toBe(302);
  const provider = await fetch(start.headers.get("Location")!, { redirect: "manual" });
  expect(provider.status).toBe(302);
  const back = new URL(provider.headers.get("Location")!);
  const done = await jar.fetch(back.pathname + back.search);
  expect(done.status, await done.clone().text()).toBe(302);
  return userIdOf(user.openid);
}

function userIdOf(openid: string) {
  return sql<{ id: number }>(server, "SELECT id FROM users WHERE openid = ?", openid)[0]?.id;
}

/** A captcha token whose answer the suite knows (signed with the server's secret; production draws a random one). */
async function captchaId() {
  return captchaToken(CAPTCHA_ANSWER);
}

async function studentLogin(jar: Jar, studentId: string) {
  const response = await jar.fetch("/crLogin", {
    form: { school: "demo", studentId, password: DEMO_PASSWORD, captcha: CAPTCHA_ANSWER, captchaId: await captchaId(), redirectTo: "/backpack" },
  });
  expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(302);
  return sql<{ id: number }>(server, "SELECT id FROM users WHERE school_code = 'demo' AND student_id = ?", studentId)[0]!.id;
}

function couponCount(userId: number) {
  return Number(sql<{ n: number }>(server, "SELECT count(*) AS n FROM user_coupons WHERE user_id = ?", userId)[0]!.n);
}

function assistsOf(inviterId: number) {
  return Number(sql<{ n: number }>(server, "SELECT count(*) AS n FROM assists WHERE inviter_user_id = ?", inviterId)[0]!.n);
}

describe("one parcel, one charge", () => {
  it("5 pickup codes with expressPackageCounts {pocket: 1} is a 400 and stores nothing", async () => {
    const jar = new Jar();
    const userId = (await authorize(jar, fakeMessengerUser()))!;
    const before = Number(sql<{ n: number }>(server, "SELECT count(*) AS n FROM orders")[0]!.n);
    const response = await jar.fetch("/api/express/order_create", {
      json: orderCreateBody(FIVE_CODES, { expressPackageCounts: { pocket: 1 } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, message: msg.orders.create.countsMismatch });
    expect(Number(sql<{ n: number }>(server, "SELECT count(*) AS n FROM orders")[0]!.n)).toBe(before);
    expect(sql(server, "SELECT id FROM orders WHERE user_id = ?", userId)).toEqual([]);
  });
});

describe("promotions once per person", () => {
  it("delete the account and log in again: no second new-user grant", async () => {
    const jar = new Jar();
    const first = await studentLogin(jar, "20230001");
    expect(couponCount(first)).toBe(5);
    const deleted = await jar.fetch("/backpack/settings", { form: { intent: "delete", password: DEMO_PASSWORD } });
    expect(deleted.status).toBe(302);
    const again = await studentLogin(new Jar(), "20230001");
    expect(again).not.toBe(first);
    expect(couponCount(again)).toBe(0);
  });

  it("re-authorizing the same messenger account gives no second assist; an invented student id is refused", async () => {
    // The inviter and their link.
    const inviterJar = new Jar();
    const inviterId = (await authorize(inviterJar, fakeMessengerUser()))!;
    const inviter = sql<{ openid: string }>(server, "SELECT openid FROM users WHERE id = ?", inviterId)[0]!;
    sql(server, "INSERT INTO invite_links (user_id, token, created_at) VALUES (?, 'promisesToken01', ?)", inviterId, new Date().toISOString());
    const code = inviter.openid.slice(-8).toUpperCase();
    const invitePage = `/market/promo-activity?invite=${code}&inviter=promisesToken01&dialog=register`;
    const register = async (jar: Jar, studentId: string) => {
      await jar.fetch(invitePage);
      return jar.fetch(invitePage, {
        form: { intent: "register", invite: code, inviter: "promisesToken01", nickname: "助力同学", phone: "13700137000", school: "demo", studentId, password: DEMO_PASSWORD, captcha: CAPTCHA_ANSWER, captchaId: await captchaId() },
      });
    };

    // A new messenger user registers with a real school account: one assist.
    const helper = fakeMessengerUser();
    const helperJar = new Jar();
    await authorize(helperJar, helper);
    const registered = await register(helperJar, "20230002");
    expect(registered.status, (await registered.clone().text()).slice(0, 300)).toBe(302);
    expect(assistsOf(inviterId)).toBe(1);
    expect(couponCount(inviterId)).toBe(2);

    // They delete the account; logging in again with the school account removes the old row at once.
    expect((await helperJar.fetch("/backpack/settings", { form: { intent: "delete", password: DEMO_PASSWORD } })).status).toBe(302);
    const relogged = await studentLogin(new Jar(), "20230002");
    expect(couponCount(relogged)).toBe(0);
    expect(userIdOf(helper.openid)).toBeUndefined();

    // The same messenger account, re-authorized: a new row, but the same person — no second assist,
    // not even with another real school account.
    const againJar = new Jar();
    const reauthorized = (await authorize(againJar, helper))!;
    const refused = await register(againJar, "20230003");
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(assistsOf(inviterId)).toBe(1);
    expect(couponCount(inviterId)).toBe(2);
    expect(couponCount(reauthorized)).toBe(0);

    // A new messenger account with an invented student id: the school does not know it.
    const inventedJar = new Jar();
    const invented = (await authorize(inventedJar, fakeMessengerUser()))!;
    const answer = await register(inventedJar, "20239998");
    expect(answer.status).toBe(400);
    // The same answer as a wrong password: the login never confirms which ids exist (decision 015).
    expect(await answer.text()).toContain(msg.login.wrongPassword);
    expect(assistsOf(inviterId)).toBe(1);
    expect(couponCount(invented)).toBe(0);
  });
});
