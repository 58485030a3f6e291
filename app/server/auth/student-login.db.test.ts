import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { fillTemplate } from "~/lib/template";
import { action, loader } from "~/routes/crLogin";
import { resetConfig } from "~/server/config.server";
import { unseal } from "~/server/crypto.server";
import { db } from "~/server/db/db.server";
import { hostOf } from "../../../tests/fakes/allow";
import { FAKE_STUDENT, startFakeZfsoft, type FakeZfsoft } from "../../../tests/fakes/zfsoft-server";
import { createMessengerUser, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";

const CAPTCHA = "AB23";
const MESSENGER_UA = "Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile MicroMessenger/8.0.50";
let fake: FakeZfsoft;
let ipCounter = 0;

beforeAll(async () => {
  process.env.CAPTCHA_FIXED_VALUE = CAPTCHA;
  process.env.ACADEMIC_TIMEOUT_MS = "400";
  resetConfig();
  fake = await startFakeZfsoft({ slowMs: 2_000 });
  // The fake listens on loopback: name it to the outbound client.
  process.env.OUTBOUND_ALLOW_HOSTS = hostOf(fake.baseUrl);
  resetConfig();
  await db()
    .insertInto("schools")
    .values({ code: "zf", name: "正方测试大学", system: "zfsoft", base_url: fake.baseUrl, sort_order: 1, enabled: 1 })
    .execute();
});

afterAll(async () => {
  await fake.close();
  delete process.env.CAPTCHA_FIXED_VALUE;
  delete process.env.ACADEMIC_TIMEOUT_MS;
  resetConfig();
});

beforeEach(() => {
  fake.state.mode = "ok";
  fake.state.tipsOverride = null;
});

async function captchaId() {
  const data = (await loader({ request: request("/crLogin"), params: {}, context: {} })) as { captcha: { id: string } };
  return data.captcha.id;
}

type Fields = Partial<Record<"school" | "studentId" | "password" | "captcha" | "captchaId" | "redirectTo", string>>;

async function submit(fields: Fields, options: { cookie?: string; userAgent?: string; ip?: string } = {}) {
  const body = new URLSearchParams();
  const values: Fields = { captcha: CAPTCHA, captchaId: await captchaId(), ...fields };
  for (const [key, value] of Object.entries(values)) if (value !== undefined) body.set(key, value);
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (options.userAgent) headers["User-Agent"] = options.userAgent;
  const response = (await action({
    request: request("/crLogin", { method: "POST", body, headers, cookie: options.cookie }),
    params: {},
    context: { clientIp: options.ip ?? `10.0.0.${++ipCounter}` },
  })) as Response;
  const json = response.headers.get("Content-Type")?.includes("json") ? await response.json() : null;
  return { response, json };
}

function messagesOf(json: { result?: { error?: Record<string, string[] | null> } } | null) {
  return Object.values(json?.result?.error ?? {}).flat();
}

const demo = { school: "demo", studentId: "20230001", password: "demo1234" };
const zf = { school: "zf", studentId: FAKE_STUDENT.id, password: FAKE_STUDENT.password };

describe("the login action", () => {
  it("logs in a demo student, stores the profile and a sealed password, and redirects", async () => {
    const { response } = await submit({ ...demo, redirectTo: "/circle" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/circle");
    expect(response.headers.get("Set-Cookie")).toContain("__session=");
    const user = await db().selectFrom("users").selectAll().where("student_id", "=", "20230001").executeTakeFirstOrThrow();
    expect(user.real_name).toBe("张明");
    expect(user.password_enc).not.toContain("demo1234");
    expect(unseal(user.password_enc!)).toBe("demo1234");
    const sessions = await db().selectFrom("sessions").selectAll().where("user_id", "=", user.id).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].platform).toBe("web");
  });

  it("never follows an off-site redirectTo", async () => {
    const { response } = await submit({ ...demo, redirectTo: "//evil.example/" });
    expect(response.headers.get("Location")).toBe("/schedule");
  });

  it.each([
    [{ school: "" }, msg.login.selectSchool],
    [{ studentId: "" }, msg.login.enterStudentId],
    [{ password: "" }, msg.login.enterPassword],
    [{ captcha: "" }, msg.login.enterCaptcha],
  ])("names the missing field %j", async (override, message) => {
    const { response, json } = await submit({ ...demo, ...override });
    expect(response.status).toBe(400);
    expect(messagesOf(json)).toContain(message);
    expect(json.captcha.id).toBeTruthy();
  });

  it("refuses a school it does not serve, beside the school field", async () => {
    const { response, json } = await submit({ ...demo, school: "nowhere" });
    expect(response.status).toBe(401);
    expect(json.result.error).toMatchObject({ school: [msg.login.unknownSchool] });
  });

  it("keeps what was typed except the password and the captcha", async () => {
    const { json } = await submit({ ...demo, password: "wrong-one" });
    expect(json.result.initialValue).toMatchObject({ school: "demo", studentId: "20230001" });
    expect(json.result.initialValue.password).toBeUndefined();
    expect(JSON.stringify(json)).not.toContain("wrong-one");
  });

  it("refuses a wrong captcha, and a captcha id twice", async () => {
    const wrong = await submit({ ...demo, captcha: "XXXX" });
    expect(wrong.response.status).toBe(401);
    expect(messagesOf(wrong.json)).toContain(msg.login.captchaWrong);
    expect(wrong.json.captcha.id).toBeTruthy();

    const id = await captchaId();
    expect((await submit({ ...demo, captchaId: id })).response.status).toBe(302);
    const reused = await submit({ ...demo, captchaId: id });
    expect(messagesOf(reused.json)).toContain(msg.login.captchaWrong);
  });

  it("answers a wrong password with a doubling wait for that client only, never locking the account out (decision 015)", async () => {
    const account = { school: "demo", studentId: "20230002" };
    const attacker = "198.51.100.7";
    for (let i = 0; i < 4; i++) {
      const { response, json } = await submit({ ...account, password: `bad${i}` }, { ip: attacker });
      expect(response.status).toBe(401);
      expect(messagesOf(json)).toContain(msg.login.wrongPassword);
    }
    const fifth = await submit({ ...account, password: "bad4" }, { ip: attacker });
    expect(messagesOf(fifth.json)).toContain(fillTemplate(msg.login.tooManyAttempts, { wait: "30 秒" }));
    // The attacking client waits, even with the right password…
    expect(messagesOf((await submit({ ...account, password: "demo1234" }, { ip: attacker })).json)[0]).toMatch(/登录尝试过于频繁/);
    // …while the student, from a client without failures, gets in at once.
    expect((await submit({ ...account, password: "demo1234" }, { ip: "203.0.113.50" })).response.status).toBe(302);
    // Once the wait is over, the attacking client may try again (and the sixth failure waits twice as long).
    await db().updateTable("login_throttles").set({ blocked_until: new Date(Date.now() - 1000).toISOString() }).execute();
    const sixth = await submit({ ...account, password: "bad5" }, { ip: attacker });
    expect(messagesOf(sixth.json)).toContain(fillTemplate(msg.login.tooManyAttempts, { wait: "1 分钟" }));
    await db().deleteFrom("login_throttles").execute();
  });

  it("slows an address that guesses across accounts, but not a trusted device of the account behind it", async () => {
    const nat = "192.0.2.9";
    const first = await submit(demo, { ip: nat });
    expect(first.response.status).toBe(302);
    const trusted = first.response.headers.getSetCookie().find((cookie) => cookie.startsWith("__trusted="))!.split(";")[0]!;
    for (let i = 0; i < 31; i++) await submit({ school: "demo", studentId: `2099${i}`, password: "x" }, { ip: nat });
    const stranger = await submit(demo, { ip: nat });
    expect(messagesOf(stranger.json)[0]).toMatch(/登录尝试过于频繁，请 \d+ 秒后再试/);
    expect((await submit(demo, { ip: nat, cookie: trusted })).response.status).toBe(302);
    await db().deleteFrom("login_throttles").execute();
  });

  it("answers an unknown student id exactly like a wrong password", async () => {
    const unknown = await submit({ school: "demo", studentId: "20990001", password: "demo1234" });
    const wrong = await submit({ school: "demo", studentId: "20230001", password: "not-it" });
    expect(unknown.response.status).toBe(wrong.response.status);
    expect(messagesOf(unknown.json)).toEqual(messagesOf(wrong.json));
    expect(messagesOf(unknown.json)).toEqual([msg.login.wrongPassword]);
  });

  it("stores nothing when the page shows a captcha", async () => {
    const count = async () => (await db().selectFrom("captcha_nonces").select("nonce").execute()).length;
    const before = await count();
    for (let i = 0; i < 5; i++) await captchaId();
    expect(await count()).toBe(before);
    // Using one records its nonce, once.
    await submit({ ...demo, password: "not-it" });
    expect(await count()).toBe(before + 1);
  });

  describe("against a ZFsoft school (fake server on loopback)", () => {
    it("logs in with the school's profile", async () => {
      const { response } = await submit(zf);
      expect(response.status).toBe(302);
      const user = await db().selectFrom("users").selectAll().where("student_id", "=", FAKE_STUDENT.id).executeTakeFirstOrThrow();
      expect(user.real_name).toBe(FAKE_STUDENT.name);
      expect(fake.state.loginBodies.join("")).not.toContain(FAKE_STUDENT.password);
    });

    it.each([
      ["locked", msg.login.accountLocked],
      ["down", msg.login.unreachable],
      ["error503", msg.login.unreachable],
      ["slow", msg.login.timeout],
    ] as const)("mode %s → %s", async (mode, message) => {
      fake.state.mode = mode;
      const { json } = await submit(zf);
      expect(messagesOf(json)).toContain(message);
    });

    it("shows the school's own message", async () => {
      fake.state.tipsOverride = "系统维护中，请于明日再试";
      const { json } = await submit(zf);
      expect(messagesOf(json)).toContain("系统维护中，请于明日再试");
    });
  });

  describe("in the messenger browser", () => {
    it("asks for the messenger authorization first (REQUIRE_WECHAT_AUTH)", async () => {
      const { response, json } = await submit(demo, { userAgent: MESSENGER_UA });
      expect(response.status).toBe(400);
      expect(json.code).toBe("REQUIRE_WECHAT_AUTH");
      expect(messagesOf(json)).toContain(msg.login.requireWechatAuth);
    });

    it("binds the student account to the messenger identity's row", async () => {
      const messenger = await createMessengerUser();
      const cookie = await sessionCookieFor(messenger.id);
      const { response } = await submit({ ...demo, studentId: "20230001" }, { cookie, userAgent: MESSENGER_UA });
      expect(response.status).toBe(302);
      const rows = await db().selectFrom("users").selectAll().where("student_id", "=", "20230001").execute();
      expect(rows).toHaveLength(1);
      // 20230001 logged in earlier in this file: the messenger row joined that row.
      expect(rows[0].openid).toBe(messenger.openid);
      expect(await db().selectFrom("users").select("id").where("id", "=", messenger.id).executeTakeFirst()).toBeUndefined();
    });

    it("binds onto the messenger row when the student is new here", async () => {
      const messenger = await createMessengerUser();
      const cookie = await sessionCookieFor(messenger.id);
      fake.state.mode = "ok";
      const { response } = await submit(zf, { cookie, userAgent: MESSENGER_UA });
      expect(response.status).toBe(302);
    });

    it("a student account bound to another messenger identity takes this one: the binding follows the last school login", async () => {
      // 20230002 logged in earlier in this file; another messenger identity holds it.
      await db().updateTable("users").set({ openid: "someone-else" }).where("student_id", "=", "20230002").execute();
      const messenger = await createMessengerUser();
      const cookie = await sessionCookieFor(messenger.id);
      await db().deleteFrom("login_throttles").execute();
      const { response } = await submit({ school: "demo", studentId: "20230002", password: "demo1234" }, { cookie, userAgent: MESSENGER_UA });
      expect(response.status).toBe(302);
      const row = await db().selectFrom("users").select("openid").where("student_id", "=", "20230002").executeTakeFirstOrThrow();
      expect(row.openid).toBe(messenger.openid);
      expect(await db().selectFrom("users").select("id").where("openid", "=", "someone-else").executeTakeFirst()).toBeUndefined();
    });

    it("another student logging in on a messenger bound to a student takes the binding; the first student is signed out and keeps their row", async () => {
      const bound = await createStudent({ openid: "bound-openid", wechat_nickname: "小林" });
      const cookie = await sessionCookieFor(bound.id);
      const { response } = await submit(demo, { cookie, userAgent: MESSENGER_UA });
      expect(response.status).toBe(302);
      expect(await db().selectFrom("users").select(["openid", "wechat_nickname"]).where("student_id", "=", demo.studentId).executeTakeFirstOrThrow()).toEqual({
        openid: "bound-openid",
        wechat_nickname: "小林",
      });
      expect(await db().selectFrom("users").select(["student_id", "openid"]).where("id", "=", bound.id).executeTakeFirstOrThrow()).toEqual({ student_id: bound.student_id, openid: null });
      const sessions = await db().selectFrom("sessions").select("end_reason").where("user_id", "=", bound.id).execute();
      expect(sessions.map((session) => session.end_reason)).toEqual(["logout"]);
    });
  });

  it("replaces the student's session on another device", async () => {
    const first = await submit({ ...demo, studentId: "20230001" });
    const second = await submit({ ...demo, studentId: "20230001" });
    const firstId = first.response.headers.get("Set-Cookie")!;
    expect(firstId).not.toBe(second.response.headers.get("Set-Cookie"));
    const user = await db().selectFrom("users").select("id").where("student_id", "=", "20230001").executeTakeFirstOrThrow();
    const sessions = await db().selectFrom("sessions").select(["end_reason", "ended_at"]).where("user_id", "=", user.id).execute();
    expect(sessions.filter((s) => s.ended_at === null)).toHaveLength(1);
    expect(sessions.some((s) => s.end_reason === "replaced")).toBe(true);
  });
});
