import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { fillTemplate } from "~/lib/template";
import { action as loginAction, loader as loginLoader } from "~/routes/admin.login";
import { action as logoutAction } from "~/routes/admin.logout";
import { loader as ordersLoader } from "~/routes/admin.orders";
import { action as settingsAction, loader as settingsLoader } from "~/routes/admin.settings";
import { createDatabase, db } from "~/server/db/db.server";
import { cookieValue, createMessengerUser, createStudent, request, sessionCookieFor, thrownResponse } from "../../../tests/setup/helpers";
import { ROOT, TMP_DIR, uniqueSuffix } from "../../../tests/setup/test-db";
import { captchaToken } from "./captcha.server";
import { OPERATOR_LINK_PATH, OPERATOR_SESSION_LIFETIME_MS, createOperator, disableOperator, getOperator, linkOperatorOpenid, loginOperator, logoutOperator, operatorForLink, resetOperator } from "./operator.server";
import { requireAdmin } from "../http/guards.server";
import { hashPassword, verifyPassword } from "./password.server";

let counter = 0;
function uniqueName(prefix = "op") {
  counter += 1;
  return `${prefix}${process.pid % 10000}-${counter}`;
}

async function newOperator(options: { password?: string; displayName?: string; disabled?: boolean } = {}) {
  const username = uniqueName();
  const password = options.password ?? "right-password-1";
  const row = await createOperator({ username, password, displayName: options.displayName ?? "快递员小王" });
  if (options.disabled) await disableOperator(username);
  return { ...row, username, password };
}

const CAPTCHA = "AB23";

/** The request and a fresh captcha answered right (tests know the answer of the token they make). */
function proof(cookie?: string) {
  return { request: request("/admin/login", { cookie }), captcha: CAPTCHA, captchaId: captchaToken(CAPTCHA) };
}

async function loginCookie(username: string, password: string, ip = "10.0.0.1") {
  const result = await loginOperator(username, password, ip, proof());
  if (!result.ok) throw new Error(`login failed: ${result.reason}`);
  return cookieValue(result.setCookie);
}

function captchaFields() {
  return { captcha: CAPTCHA, captchaId: captchaToken(CAPTCHA) };
}

function form(fields: Record<string, string>) {
  const body = new URLSearchParams(fields);
  return { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" } };
}

const routeArgs = (req: Request, clientIp = "10.1.1.1") => ({ request: req, params: {}, context: { clientIp } });

describe("operator access in the audit log", () => {
  const rowsOf = (name: string) =>
    db().selectFrom("admin_audit").select(["operator_id", "operator_name", "action", "detail"]).where("operator_name", "=", name).orderBy("id").execute();

  it("records a login, a logout and each failed password check (unknown name, wrong password, disabled), with the client", async () => {
    const operator = await newOperator({ displayName: `审计员${uniqueName()}` });
    expect(await loginOperator(operator.username, "wrong-password-1", "10.9.0.1", proof())).toMatchObject({ reason: "invalid" });
    const cookie = await loginCookie(operator.username, operator.password, "10.9.0.2");
    await logoutOperator(request("/admin/logout", { method: "POST", cookie }));
    // A logout without a live session records nothing more.
    await logoutOperator(request("/admin/logout", { method: "POST", cookie }));
    expect(await rowsOf(operator.display_name)).toEqual([
      { operator_id: operator.id, operator_name: operator.display_name, action: "operator_login_failed", detail: "wrong password; client 10.9.0.1" },
      { operator_id: operator.id, operator_name: operator.display_name, action: "operator_login", detail: "client 10.9.0.2" },
      { operator_id: operator.id, operator_name: operator.display_name, action: "operator_logout", detail: null },
    ]);

    const ghost = uniqueName("ghost");
    await loginOperator(ghost, "whatever-pw-1", "10.9.0.3", proof());
    expect(await rowsOf(ghost)).toEqual([{ operator_id: null, operator_name: ghost, action: "operator_login_failed", detail: "unknown username; client 10.9.0.3" }]);

    const disabled = await newOperator({ disabled: true, displayName: `停用${uniqueName()}` });
    await loginOperator(disabled.username, disabled.password, "10.9.0.4", proof());
    expect(await rowsOf(disabled.display_name)).toEqual([{ operator_id: disabled.id, operator_name: disabled.display_name, action: "operator_login_failed", detail: "disabled; client 10.9.0.4" }]);
  });

  it("a refused captcha or a throttled client is not written (no unbounded rows for anonymous clients)", async () => {
    const operator = await newOperator({ displayName: `限流${uniqueName()}` });
    await loginOperator(operator.username, operator.password, "10.9.1.1", { request: request("/admin/login"), captcha: "XXXX", captchaId: captchaToken(CAPTCHA) });
    for (let attempt = 0; attempt < 8; attempt++) await loginOperator(operator.username, "wrong-password", "10.9.1.2", proof());
    const rows = await rowsOf(operator.display_name);
    // Four failures, the fifth starts the wait; the rest are refused before the password check.
    expect(rows.length).toBeLessThanOrEqual(5);
    expect(rows.every((row) => row.action === "operator_login_failed" && row.detail === "wrong password; client 10.9.1.2")).toBe(true);
  });
});

describe("operator login", () => {
  it("a wrong password, an unknown user and a disabled operator all give the same generic error", async () => {
    const active = await newOperator();
    const disabled = await newOperator({ disabled: true });

    const wrongPassword = await loginOperator(active.username, "wrong-password-1", "10.0.0.2", proof());
    const unknownUser = await loginOperator("nobody-here", "right-password-1", "10.0.0.3", proof());
    const disabledRight = await loginOperator(disabled.username, disabled.password, "10.0.0.4", proof());
    const expected = { ok: false, reason: "invalid" };
    expect(wrongPassword).toEqual(expected);
    expect(unknownUser).toEqual(expected);
    expect(disabledRight).toEqual(expected);

    // No session was opened for any of them.
    const sessions = await db().selectFrom("operator_sessions").selectAll().execute();
    expect(sessions.filter((row) => [active.id, disabled.id].includes(row.operator_id))).toEqual([]);
  });

  it("a right password opens a 12-hour session, records last_login_at and a success", async () => {
    const operator = await newOperator();
    const before = new Date(Date.now() - 1000).toISOString();
    // Usernames are case-insensitive and trimmed.
    const result = await loginOperator(`  ${operator.username.toUpperCase()} `, operator.password, "10.0.0.5", proof());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.operator).not.toHaveProperty("password_hash");
    expect(result.setCookie).toMatch(/^__operator=/);
    expect(result.setCookie).toMatch(/Path=\/admin/);
    expect(result.setCookie).toMatch(/HttpOnly/i);
    expect(result.setCookie).toMatch(/SameSite=Lax/i);
    expect(result.setCookie).toMatch(new RegExp(`Max-Age=${OPERATOR_SESSION_LIFETIME_MS / 1000}`));
    expect(OPERATOR_SESSION_LIFETIME_MS).toBe(12 * 60 * 60 * 1000);

    const row = await db().selectFrom("operators").selectAll().where("id", "=", operator.id).executeTakeFirstOrThrow();
    expect(row.last_login_at).not.toBeNull();
    expect(row.last_login_at! >= before).toBe(true);
    const session = await db().selectFrom("operator_sessions").selectAll().where("id", "=", result.sessionId).executeTakeFirstOrThrow();
    expect(session).toMatchObject({ operator_id: operator.id, ended_at: null });
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(OPERATOR_SESSION_LIFETIME_MS);
    expect(result.trustCookie).toMatch(/^__trusted=/);

    const cookie = cookieValue(result.setCookie);
    expect((await getOperator(request("/admin/orders", { cookie })))?.id).toBe(operator.id);
    expect((await requireAdmin(request("/admin/orders", { cookie }))).display_name).toBe("快递员小王");
  });

  it("failures from elsewhere never keep the operator out: 5 wrong passwords from 5 addresses, then the right one gets in", async () => {
    const operator = await newOperator();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await loginOperator(operator.username, `wrong-${attempt}-pw`, `10.2.0.${attempt}`, proof())).toMatchObject({ reason: "invalid" });
    }
    expect(await loginOperator(operator.username, operator.password, "10.2.1.1", proof())).toMatchObject({ ok: true });
  });

  it("one client guessing one username waits, doubling, after 4 failures; an unknown username alike", async () => {
    const operator = await newOperator();
    for (let attempt = 0; attempt < 4; attempt++) await loginOperator(operator.username, "wrong-password", "10.3.0.1", proof());
    expect(await loginOperator(operator.username, "wrong-password", "10.3.0.1", proof())).toEqual({
      ok: false,
      reason: "limited",
      waitMs: 30_000,
    });
    // Waiting: even the right password is not tried from that client; another client gets in.
    expect(await loginOperator(operator.username, operator.password, "10.3.0.1", proof())).toMatchObject({ reason: "limited" });
    expect(await loginOperator(operator.username, operator.password, "10.3.0.2", proof())).toMatchObject({ ok: true });

    for (let attempt = 0; attempt < 5; attempt++) await loginOperator("ghost-user", "whatever-pw", "10.3.0.9", proof());
    expect(await loginOperator("ghost-user", "whatever-pw", "10.3.0.9", proof())).toMatchObject({ reason: "limited" });
  });

  it("four failures then a success start the count again", async () => {
    const operator = await newOperator();
    for (let attempt = 0; attempt < 4; attempt++) await loginOperator(operator.username, "wrong-password", "10.4.0.1", proof());
    expect(await loginOperator(operator.username, operator.password, "10.4.0.1", proof())).toMatchObject({ ok: true });
    expect(await loginOperator(operator.username, "wrong-password", "10.4.0.1", proof())).toMatchObject({ reason: "invalid" });
    expect(await loginOperator(operator.username, operator.password, "10.4.0.1", proof())).toMatchObject({ ok: true });
  });

  it("an address guessing across usernames waits; a trusted device of the operator behind it does not", async () => {
    const operator = await newOperator();
    const first = await loginOperator(operator.username, operator.password, "10.9.9.9", proof());
    if (!first.ok) throw new Error("login failed");
    const trusted = cookieValue(first.trustCookie);
    for (let attempt = 0; attempt < 31; attempt++) await loginOperator(`guess-${attempt}`, "guess-password", "10.9.9.9", proof());
    expect(await loginOperator(operator.username, operator.password, "10.9.9.9", proof())).toMatchObject({ reason: "limited" });
    expect(await loginOperator(operator.username, operator.password, "10.9.9.9", proof(trusted))).toMatchObject({ ok: true });
    expect(await loginOperator(operator.username, operator.password, "10.9.9.10", proof())).toMatchObject({ ok: true });
  });

  it("asks for the captcha: missing, wrong or reused tokens are refused before the password is tried", async () => {
    const operator = await newOperator();
    const base = { request: request("/admin/login") };
    expect(await loginOperator(operator.username, operator.password, "10.5.5.1", { ...base, captcha: "", captchaId: captchaToken(CAPTCHA) })).toMatchObject({ reason: "captcha" });
    expect(await loginOperator(operator.username, operator.password, "10.5.5.1", { ...base, captcha: "XY7K", captchaId: captchaToken(CAPTCHA) })).toMatchObject({ reason: "captcha" });
    expect(await loginOperator(operator.username, operator.password, "10.5.5.1", { ...base, captcha: CAPTCHA, captchaId: "forged" })).toMatchObject({ reason: "captcha" });
    const token = captchaToken(CAPTCHA);
    expect(await loginOperator(operator.username, operator.password, "10.5.5.1", { ...base, captcha: CAPTCHA, captchaId: token })).toMatchObject({ ok: true });
    expect(await loginOperator(operator.username, operator.password, "10.5.5.1", { ...base, captcha: CAPTCHA, captchaId: token })).toMatchObject({ reason: "captcha" });
    const expired = captchaToken(CAPTCHA, Date.now() - 1);
    expect(await loginOperator(operator.username, operator.password, "10.5.5.1", { ...base, captcha: CAPTCHA, captchaId: expired })).toMatchObject({ reason: "captcha" });
  });
});

describe("requireAdmin", () => {
  it("refuses a request without a session: pages go to the operator login with redirectTo", async () => {
    const response = await thrownResponse(requireAdmin(request("/admin/orders?tab=paid&_routes=routes%2Fadmin.orders")));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/login?redirectTo=${encodeURIComponent("/admin/orders?tab=paid")}`);

    const plain = await thrownResponse(requireAdmin(request("/admin/orders")));
    expect(plain.headers.get("Location")).toBe("/admin/login");

    // Every caller gets the same answer (decision 027): a post asking for JSON goes to the login too.
    const api = await thrownResponse(requireAdmin(request("/admin/orders", { method: "POST", headers: { Accept: "application/json" } })));
    expect(api.status).toBe(302);
    expect(api.headers.get("Location")).toBe("/admin/login");
  });

  it("refuses an ended (logged out) session and an expired one", async () => {
    const operator = await newOperator();
    const cookie = await loginCookie(operator.username, operator.password);
    expect((await requireAdmin(request("/admin/orders", { cookie }))).id).toBe(operator.id);

    const clearing = await logoutOperator(request("/admin/logout", { method: "POST", cookie }));
    expect(clearing).toMatch(/^__operator=;/);
    expect(clearing).toMatch(/Max-Age=0/);
    expect(clearing).toMatch(/Path=\/admin/);
    expect(await getOperator(request("/admin/orders", { cookie }))).toBeNull();
    expect((await thrownResponse(requireAdmin(request("/admin/orders", { cookie })))).headers.get("Location")).toBe("/admin/login");

    const second = await loginCookie(operator.username, operator.password);
    await db()
      .updateTable("operator_sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("operator_id", "=", operator.id)
      .where("ended_at", "is", null)
      .execute();
    expect(await getOperator(request("/admin/orders", { cookie: second }))).toBeNull();
    const expired = await db().selectFrom("operator_sessions").select("ended_at").where("operator_id", "=", operator.id).execute();
    expect(expired.every((row) => row.ended_at !== null)).toBe(true);
  });

  it("refuses the session of an operator disabled after login", async () => {
    const operator = await newOperator();
    const cookie = await loginCookie(operator.username, operator.password);
    await db().updateTable("operators").set({ disabled: 1 }).where("id", "=", operator.id).execute();
    expect(await getOperator(request("/admin/orders", { cookie }))).toBeNull();
    await thrownResponse(requireAdmin(request("/admin/orders", { cookie })));
  });

  it("refuses a student: a student session cookie says nothing about operators", async () => {
    const student = await createStudent();
    const studentCookie = await sessionCookieFor(student.id);
    const response = await thrownResponse(requireAdmin(request("/admin/orders", { cookie: studentCookie })));
    expect(response.headers.get("Location")).toBe("/admin/login");

    // Even a student session id dressed up as the operator cookie (same secret) is refused.
    const studentSessionId = await createCookie("__session", { secrets: [process.env.SESSION_SECRET!] }).parse(studentCookie);
    const forged = cookieValue(await createCookie("__operator", { secrets: [process.env.SESSION_SECRET!] }).serialize(studentSessionId));
    expect(await getOperator(request("/admin/orders", { cookie: forged }))).toBeNull();

    // And a tampered operator cookie is nobody.
    expect(await getOperator(request("/admin/orders", { cookie: "__operator=garbage" }))).toBeNull();
  });
});

describe("the /admin routes", () => {
  it("/admin/orders: anonymous and students get the login; an operator gets their name and no data", async () => {
    const student = await createStudent();
    const studentCookie = await sessionCookieFor(student.id);
    for (const cookie of [undefined, studentCookie]) {
      const response = await thrownResponse(ordersLoader(routeArgs(request("/admin/orders", { cookie }))));
      expect(response.headers.get("Location")).toBe("/admin/login");
    }
    const operator = await newOperator({ displayName: "配送员阿强" });
    const cookie = await loginCookie(operator.username, operator.password);
    const page = (await ordersLoader(routeArgs(request("/admin/orders", { cookie })))) as { displayName: string; page: { items: unknown[] } };
    expect(page).toMatchObject({ displayName: "配送员阿强" });
    expect(page.page.items).toEqual([]);
  });

  it("the login action keeps the username, drops the password and shows the generic error", async () => {
    const operator = await newOperator();
    const response = (await loginAction(
      routeArgs(request("/admin/login", form({ ...captchaFields(), username: operator.username, password: "not-it-123", redirectTo: "/admin/settings" }))),
    )) as Response;
    expect(response.status).toBe(400);
    const body = JSON.stringify(await response.json());
    expect(body).toContain("用户名或密码错误");
    expect(body).toContain(operator.username);
    expect(body).not.toContain("not-it-123");

    const ok = (await loginAction(
      routeArgs(request("/admin/login", form({ ...captchaFields(), username: operator.username, password: operator.password, redirectTo: "/admin/settings" }))),
    )) as Response;
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/admin/settings");
    expect(ok.headers.get("Set-Cookie")).toMatch(/^__operator=/);

    // A redirectTo outside /admin (or off-site) falls back to the orders.
    for (const target of ["https://evil.example/admin/orders", "//evil.example", "/schedule", "/admin/login"]) {
      const again = (await loginAction(
        routeArgs(request("/admin/login", form({ ...captchaFields(), username: operator.username, password: operator.password, redirectTo: target }))),
      )) as Response;
      expect(again.headers.get("Location")).toBe("/admin/orders");
    }
  });

  it("the login action answers 429 with its own message when limited, and 400 for empty fields", async () => {
    const operator = await newOperator();
    for (let attempt = 0; attempt < 4; attempt++) {
      await loginAction(routeArgs(request("/admin/login", form({ ...captchaFields(), username: operator.username, password: "wrong-pass" })), "10.7.7.7"));
    }
    const limited = (await loginAction(
      routeArgs(request("/admin/login", form({ ...captchaFields(), username: operator.username, password: "wrong-pass" })), "10.7.7.7"),
    )) as Response;
    expect(limited.status).toBe(429);
    expect(JSON.stringify(await limited.json())).toContain(fillTemplate(msg.admin.tooManyAttempts, { wait: "30 秒" }));

    const empty = (await loginAction(routeArgs(request("/admin/login", form({ username: "", password: "" }))))) as Response;
    expect(empty.status).toBe(400);
    const body = JSON.stringify(await empty.json());
    expect(body).toContain(msg.admin.usernameRequired);
    expect(body).toContain(msg.admin.passwordRequired);
    expect(body).toContain(msg.admin.captchaRequired);
  });

  it("the login page sends a signed-in operator on, and the logout ends the session", async () => {
    const operator = await newOperator();
    const cookie = await loginCookie(operator.username, operator.password);
    const onward = await thrownResponse(loginLoader(routeArgs(request("/admin/login?redirectTo=%2Fadmin%2Fsettings", { cookie }))));
    expect(onward.headers.get("Location")).toBe("/admin/settings");

    const logout = (await logoutAction(
      routeArgs(request("/admin/logout", { method: "POST", cookie, headers: { Origin: "http://localhost" } })),
    )) as Response;
    expect(logout.headers.get("Location")).toBe("/admin/login");
    expect(await getOperator(request("/admin/orders", { cookie }))).toBeNull();
  });
});

describe("linking an operator's messenger account", () => {
  it("/admin/settings starts the OAuth with a link cookie that names this operator; the openid goes to the operator only", async () => {
    const operator = await newOperator();
    const cookie = await loginCookie(operator.username, operator.password);
    expect(await settingsLoader(routeArgs(request("/admin/settings", { cookie })))).toMatchObject({ linked: false, username: operator.username });

    const started = (await settingsAction(routeArgs(request("/admin/settings", { ...form({ intent: "link-messenger" }), cookie })))) as Response;
    expect(started.status).toBe(302);
    expect(started.headers.get("Location")).toBe("/api/wechat/auth?redirect_url=/admin/settings&purpose=operator");
    expect(started.headers.get("Location")).toBe(OPERATOR_LINK_PATH);
    const linkSetCookie = started.headers.get("Set-Cookie")!;
    expect(linkSetCookie).toMatch(/^__operator_link=/);
    expect(linkSetCookie).toMatch(/Path=\/api\/wechat/);
    const linkCookie = cookieValue(linkSetCookie);

    // What /api/wechat/auth and the callback see: the link cookie (the /admin cookie is not sent there).
    expect((await operatorForLink(request("/api/wechat/auth", { cookie: linkCookie })))?.id).toBe(operator.id);
    expect(await operatorForLink(request("/api/wechat/auth", { cookie }))).toBeNull();
    const student = await createStudent();
    expect(await operatorForLink(request("/api/wechat/auth", { cookie: await sessionCookieFor(student.id) }))).toBeNull();

    const messenger = await createMessengerUser({ openid: "oOPERATOR-openid-1" });
    expect(await linkOperatorOpenid(operator.id, "oOPERATOR-openid-1")).toEqual({ ok: true });
    const row = await db().selectFrom("operators").select("openid").where("id", "=", operator.id).executeTakeFirstOrThrow();
    expect(row.openid).toBe("oOPERATOR-openid-1");
    // The users rows are untouched: the student has no openid, the messenger user keeps theirs.
    const users = await db().selectFrom("users").select(["id", "openid"]).where("id", "in", [student.id, messenger.id]).execute();
    expect(Object.fromEntries(users.map((user) => [user.id, user.openid]))).toEqual({ [student.id]: null, [messenger.id]: "oOPERATOR-openid-1" });

    expect(await settingsLoader(routeArgs(request("/admin/settings?link=ok", { cookie })))).toMatchObject({ linked: true, status: "ok" });

    // One openid, one operator.
    const other = await newOperator();
    expect(await linkOperatorOpenid(other.id, "oOPERATOR-openid-1")).toEqual({ ok: false, reason: "openid_taken" });
    // Linking again to the same operator is fine.
    expect(await linkOperatorOpenid(operator.id, "oOPERATOR-openid-1")).toEqual({ ok: true });

    // After logout the link cookie no longer names anyone.
    await logoutOperator(request("/admin/logout", { method: "POST", cookie }));
    expect(await operatorForLink(request("/api/wechat/callback", { cookie: linkCookie }))).toBeNull();

    // A disabled operator cannot be linked.
    const disabled = await newOperator({ disabled: true });
    expect(await linkOperatorOpenid(disabled.id, "oOPERATOR-openid-2")).toEqual({ ok: false, reason: "operator_unavailable" });
  });

  it("unlinking clears the operator's openid", async () => {
    const operator = await newOperator();
    await linkOperatorOpenid(operator.id, "oUNLINK-openid");
    const cookie = await loginCookie(operator.username, operator.password);
    const response = (await settingsAction(routeArgs(request("/admin/settings", { ...form({ intent: "unlink-messenger" }), cookie })))) as Response;
    expect(response.headers.get("Location")).toBe("/admin/settings?link=unlinked");
    const row = await db().selectFrom("operators").select("openid").where("id", "=", operator.id).executeTakeFirstOrThrow();
    expect(row.openid).toBeNull();
  });
});

describe("management", () => {
  it("reset sets a new password, enables the operator and ends their sessions; disable ends them too", async () => {
    const operator = await newOperator();
    const cookie = await loginCookie(operator.username, operator.password);
    await resetOperator({ username: operator.username, password: "brand-new-pass" });
    expect(await getOperator(request("/admin/orders", { cookie }))).toBeNull();
    expect(await loginOperator(operator.username, operator.password, "10.5.0.1", proof())).toMatchObject({ reason: "invalid" });
    const fresh = await loginCookie(operator.username, "brand-new-pass", "10.5.0.1");
    await disableOperator(operator.username);
    expect(await getOperator(request("/admin/orders", { cookie: fresh }))).toBeNull();
    await resetOperator({ username: operator.username, password: "third-password" });
    expect(await loginOperator(operator.username, "third-password", "10.5.0.2", proof())).toMatchObject({ ok: true });
  });

  it("refuses short passwords, bad usernames and duplicates", async () => {
    await expect(createOperator({ username: uniqueName(), password: "short" })).rejects.toThrow(/at least 8/);
    await expect(createOperator({ username: "has space", password: "long-enough-1" })).rejects.toThrow(/username/);
    const operator = await newOperator();
    await expect(createOperator({ username: operator.username, password: "long-enough-1" })).rejects.toThrow(/already exists/);
    await expect(resetOperator({ username: "missing-op", password: "long-enough-1" })).rejects.toThrow(/No operator/);
  });
});

// ---------------------------------------------------------------------------------------------
// The command line, spawned as an operator would run it (plain node, through the server build), the password on stdin.

function runCli(args: string[], input: string | null, databaseUrl: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "scripts/admin-create.mjs"), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "test", LOG_LEVEL: "warn" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (input !== null) child.stdin.end(input);
    else child.stdin.end();
  });
}

// The command opens the database as the server does (createDatabase), which every PostgreSQL test
// exercises; its processes are spawned on SQLite only, where they cost the suite least.
describe.skipIf(process.env.TEST_DIALECT === "postgres")("npm run admin:create", () => {
  it("migrates a fresh database, creates the operator from a piped password and never prints it", async () => {
    const dir = path.join(TMP_DIR, "cli");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `cli-${uniqueSuffix()}.db`);
    const url = `file:${file}`;
    const password = "Piped-Secret-4821";
    try {
      const created = await runCli(["alice", "--display-name", "小李"], `${password}\n`, url);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toContain("Created operator alice");
      expect(created.stdout + created.stderr).not.toContain(password);

      const database = createDatabase(url);
      try {
        const row = await database.selectFrom("operators").selectAll().where("username", "=", "alice").executeTakeFirstOrThrow();
        expect(row).toMatchObject({ display_name: "小李", disabled: 0, role: "operator", openid: null });
        expect(row.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
        expect(await verifyPassword(password, row.password_hash)).toBe(true);
      } finally {
        await database.destroy();
      }
    } finally {
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    }
  }, 60_000);

  it("creates, resets (re-enabling) and disables on this test's database; refuses short and argument passwords", async () => {
    const url = process.env.DATABASE_URL!;
    const username = uniqueName("cli");
    const first = "First-Password-1";
    const second = "Second-Password-2";

    const created = await runCli([username], `${first}\r\n`, url);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout + created.stderr).not.toContain(first);
    const row = await db().selectFrom("operators").selectAll().where("username", "=", username).executeTakeFirstOrThrow();
    expect(row.display_name).toBe(username);
    expect(await loginOperator(username, first, "10.6.0.1", proof())).toMatchObject({ ok: true });

    const again = await runCli([username], `${first}\n`, url);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");

    const disabled = await runCli([username, "--disable"], null, url);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(await loginOperator(username, first, "10.6.0.2", proof())).toMatchObject({ reason: "invalid" });

    const reset = await runCli([username, "--reset", "--display-name", "夜班配送"], `${second}\n`, url);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout + reset.stderr).not.toContain(second);
    const after = await db().selectFrom("operators").selectAll().where("username", "=", username).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ disabled: 0, display_name: "夜班配送" });
    expect(await loginOperator(username, second, "10.6.0.3", proof())).toMatchObject({ ok: true });

    const short = await runCli([uniqueName("cli")], "short\n", url);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 8");
    expect(short.stdout + short.stderr).not.toContain("short\n");

    const asArgument = await runCli([uniqueName("cli"), "Argument-Password-9"], "", url);
    expect(asArgument.code).toBe(2);
    expect(asArgument.stderr).toContain("never an argument");
  }, 90_000);

  it("--role admin creates an admin (the reference-data pages); --reset --role promotes; an unknown role is refused", async () => {
    const url = process.env.DATABASE_URL!;
    const admin = uniqueName("cli");
    const created = await runCli([admin, "--role", "admin"], "Admin-Password-1\n", url);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain("role admin");
    expect(await db().selectFrom("operators").select("role").where("username", "=", admin).executeTakeFirst()).toEqual({ role: "admin" });

    const courier = uniqueName("cli");
    expect((await runCli([courier], "Courier-Password-1\n", url)).stdout).toContain("role operator");
    const promoted = await runCli([courier, "--reset", "--role", "admin"], "Courier-Password-2\n", url);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(await db().selectFrom("operators").select("role").where("username", "=", courier).executeTakeFirst()).toEqual({ role: "admin" });

    const unknown = uniqueName("cli");
    const refused = await runCli([unknown, "--role", "boss"], "Boss-Password-1\n", url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("The role must be one of: operator, admin, rider.");
    expect(await db().selectFrom("operators").select("id").where("username", "=", unknown).executeTakeFirst()).toBeUndefined();
    expect((await runCli([admin, "--disable", "--role", "admin"], null, url)).code).toBe(2);
  }, 90_000);
});

it("a hash made by the e2e helper path (hashPassword) logs in", async () => {
  const username = uniqueName("direct");
  await db()
    .insertInto("operators")
    .values({
      username,
      display_name: "直接插入",
      password_hash: await hashPassword("Direct-Insert-1"),
      role: "operator",
      openid: null,
      disabled: 0,
      created_at: new Date().toISOString(),
      last_login_at: null,
    })
    .execute();
  expect(await loginOperator(username, "Direct-Insert-1", "10.8.0.1", proof())).toMatchObject({ ok: true });
});
