// A session's idle timeout (30 days) and absolute lifetime (90 days), and the silent sign-in again
// (snsapi_base) of a messenger-bound student whose session ended so, against the fake provider on
// loopback. Our loaders are called with real Requests; a small cookie jar plays the browser.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as authLoader } from "~/routes/api.wechat.auth";
import { loader as callbackLoader } from "~/routes/api.wechat.callback";
import { db } from "~/server/db/db.server";
import { fakeMessengerUser, startFakeMessenger, type FakeMessenger } from "../../../tests/fakes/messenger-oauth";
import { CookieBrowser, settle } from "../../../tests/setup/browser";
import { savedEnv } from "../../../tests/setup/env";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { accessRedirect } from "./guard.server";
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS, SESSION_TOUCH_MS, lookupSession, readSessionId } from "./session.server";
import { requireStudent } from "../http/guards.server";

const DAY = 24 * 60 * 60 * 1000;
const MESSENGER_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 MicroMessenger/8.0.50(0x18003237) NetType/WIFI Language/zh_CN";
const ENV_KEYS = ["WECHAT_APP_ID", "WECHAT_APP_SECRET", "WECHAT_OAUTH_AUTHORIZE_URL", "WECHAT_API_BASE_URL", "LOG_LEVEL"] as const;
const env = savedEnv(ENV_KEYS);
let fake: FakeMessenger;

beforeAll(async () => {
  fake = await startFakeMessenger();
  env.set({
    WECHAT_APP_ID: fake.appId,
    WECHAT_APP_SECRET: fake.appSecret,
    WECHAT_OAUTH_AUTHORIZE_URL: fake.authorizeUrl,
    WECHAT_API_BASE_URL: fake.url,
    LOG_LEVEL: "silent",
  });
});

afterAll(async () => {
  env.restore();
  await fake.close();
});

/** The messenger's browser. */
class Browser extends CookieBrowser {
  constructor(cookie: string) {
    super(cookie, { "User-Agent": MESSENGER_UA });
  }
}

async function sessionIdOf(cookie: string) {
  const id = await readSessionId(request("/", { cookie }));
  if (!id) throw new Error("no session id");
  return id;
}

async function age(cookie: string, times: { createdDaysAgo: number; seenDaysAgo: number }) {
  const at = Date.now();
  await db()
    .updateTable("sessions")
    .set({
      created_at: new Date(at - times.createdDaysAgo * DAY).toISOString(),
      last_seen_at: new Date(at - times.seenDaysAgo * DAY).toISOString(),
      // A row from before the absolute lifetime: its own expiry a year after its login.
      expires_at: new Date(at - times.createdDaysAgo * DAY + 365 * DAY).toISOString(),
    })
    .where("id", "=", await sessionIdOf(cookie))
    .execute();
  await new Promise((resolve) => setImmediate(resolve)); // past the shared lookup of concurrent GETs
}

describe("idle timeout and absolute lifetime", () => {
  it("are 30 and 90 days", () => {
    expect(SESSION_IDLE_MS).toBe(30 * DAY);
    expect(SESSION_LIFETIME_MS).toBe(90 * DAY);
  });

  it("a session unused for more than 30 days is refused", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    await age(cookie, { createdDaysAgo: 40, seenDaysAgo: 31 });
    expect(await lookupSession(request("/schedule", { cookie }))).toMatchObject({ state: "ended", reason: "expired" });
    const response = await settle(requireStudent(request("/schedule", { cookie })));
    expect(response.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fschedule&reason=expired");
  });

  it("a session used within 30 days stays, and its use is written down (at most hourly)", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    await age(cookie, { createdDaysAgo: 40, seenDaysAgo: 29 });
    expect((await requireStudent(request("/schedule", { cookie }))).id).toBe(student.id);
    const row = await db().selectFrom("sessions").select("last_seen_at").where("id", "=", await sessionIdOf(cookie)).executeTakeFirstOrThrow();
    expect(Date.now() - Date.parse(row.last_seen_at!)).toBeLessThan(SESSION_TOUCH_MS);
  });

  it("a session past 90 days since its login is refused even when used every day", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    await age(cookie, { createdDaysAgo: 91, seenDaysAgo: 0 });
    expect(await lookupSession(request("/schedule", { cookie }))).toMatchObject({ state: "ended", reason: "expired" });
    const response = await settle(requireStudent(request("/grades", { cookie })));
    expect(response.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fgrades&reason=expired");
  });
});

describe("a messenger-bound student whose session expired", () => {
  it("is signed in again silently (snsapi_base) and lands back where they were", async () => {
    const messengerUser = fakeMessengerUser();
    fake.setUser(messengerUser);
    const student = await createStudent({ openid: messengerUser.openid, wechat_authorized_at: new Date(Date.now() - 60 * DAY).toISOString() });
    const cookie = await sessionCookieFor(student.id, { platform: "wechat" });
    await age(cookie, { createdDaysAgo: 45, seenDaysAgo: 31 });
    const browser = new Browser(cookie);
    const userInfoCalls = fake.state.userInfoCalls;

    // The access guard and the page's guard both send it to the silent authorization.
    expect(await accessRedirect(browser.request("/schedule?week=3"), { exists: true })).toBe("/api/wechat/auth?resume=1&redirect_url=%2Fschedule%3Fweek%3D3");
    const guarded = await settle(requireStudent(browser.request("/schedule?week=3")));
    const start = guarded.headers.get("Location")!;
    expect(start).toBe("/api/wechat/auth?resume=1&redirect_url=%2Fschedule%3Fweek%3D3");

    const toProvider = await browser.call(authLoader, start);
    const authorizeUrl = new URL(toProvider.headers.get("Location")!);
    expect(authorizeUrl.searchParams.get("scope")).toBe("snsapi_base");
    const provider = await fetch(authorizeUrl, { redirect: "manual" });
    const back = new URL(provider.headers.get("Location")!);
    const landed = await browser.call(callbackLoader, back.pathname + back.search);

    expect(landed.status).toBe(302);
    expect(landed.headers.get("Location")).toBe("/schedule?week=3");
    expect((await requireStudent(browser.request("/schedule?week=3"))).id).toBe(student.id);
    expect(fake.state.userInfoCalls).toBe(userInfoCalls); // openid only: no profile asked for
  });

  it("outside the messenger, or for a student without a messenger identity, gets the login page", async () => {
    const messengerUser = fakeMessengerUser();
    const bound = await createStudent({ openid: messengerUser.openid, wechat_authorized_at: new Date().toISOString() });
    const boundCookie = await sessionCookieFor(bound.id);
    await age(boundCookie, { createdDaysAgo: 91, seenDaysAgo: 1 });
    const plain = await settle(requireStudent(request("/circle", { cookie: boundCookie, headers: { Accept: "text/html" } })));
    expect(plain.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fcircle&reason=expired");

    const unbound = await createStudent();
    const unboundCookie = await sessionCookieFor(unbound.id);
    await age(unboundCookie, { createdDaysAgo: 91, seenDaysAgo: 1 });
    const inMessenger = await settle(requireStudent(new Browser(unboundCookie).request("/circle")));
    expect(inMessenger.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fcircle&reason=expired");
  });

  it("whose openid no longer has a student account goes to the login page with the same return path", async () => {
    const messengerUser = fakeMessengerUser();
    fake.setUser(messengerUser);
    const student = await createStudent({ openid: messengerUser.openid, wechat_authorized_at: new Date().toISOString() });
    const cookie = await sessionCookieFor(student.id, { platform: "wechat" });
    await age(cookie, { createdDaysAgo: 31, seenDaysAgo: 31 });
    const browser = new Browser(cookie);
    const start = (await settle(requireStudent(browser.request("/backpack")))).headers.get("Location")!;
    // Meanwhile the openid moved off the student (unbound elsewhere).
    await db().updateTable("users").set({ openid: null }).where("id", "=", student.id).execute();
    const toProvider = await browser.call(authLoader, start);
    const provider = await fetch(toProvider.headers.get("Location")!, { redirect: "manual" });
    const back = new URL(provider.headers.get("Location")!);
    const landed = await browser.call(callbackLoader, back.pathname + back.search);
    expect(landed.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fbackpack&reason=expired");
    expect(browser.cookies.has("__session")).toBe(true); // the old, ended one: no new session
    expect((await lookupSession(browser.request("/backpack"))).state).toBe("ended");
  });
});
