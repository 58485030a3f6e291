// The built app (`node server.mjs` after `remix build`) as a real process, for the suites that
// need one (tests/faults, and the spawn logic of tests/security/server.ts): a free loopback port,
// a clean environment (only what the caller passes, on top of PATH and TZ), everything it prints
// kept, and three ways to end it — SIGTERM (graceful), SIGKILL (a crash), or letting it run.
// Plus the small HTTP and database helpers the fault tests share.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { freePort as freePortOnLoopback } from "../../scripts/lib/app-server.mjs";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A free loopback port (one home for the scripts and the suites: scripts/lib/app-server.mjs). */
export const freePort: () => Promise<number> = freePortOnLoopback;

/** A scratch folder under tests/.tmp (created). */
export function scratchDir(name: string) {
  const dir = path.join(ROOT, "tests/.tmp", name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Removes a SQLite file with its WAL and shared-memory companions. */
export function removeSqlite(file: string) {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
}

export type AppProcess = {
  base: string;
  port: number;
  pid: number;
  output: () => string;
  /** True once the process has exited (any way). */
  exited: () => boolean;
  /** SIGTERM, then SIGKILL after 5 s; resolves when it has exited. */
  stop: () => Promise<void>;
  /** SIGKILL at once (a crash: no shutdown code runs); resolves when it has exited. */
  kill: () => Promise<void>;
};

export type StartOptions = {
  /** The environment of the process (PATH and TZ=UTC are added). */
  env: Record<string, string>;
  /** A fixed port (a restart on the same address); default a free one. */
  port?: number;
  /** How long to wait for /healthz. */
  startTimeoutMs?: number;
};

/**
 * The suites' client is one loopback address sending many requests at once on behalf of many
 * users: the fair share (app/server/http/fairness.ts) would shed them. A test of the fair share
 * itself passes PRODUCTION_FAIR_SHARE.
 */
const RELAXED_FAIR_SHARE = { CLIENT_MAX_IN_FLIGHT: "10000", BUSY_IN_FLIGHT: "100000", SHED_EVENT_LOOP_DELAY_MS: "60000" };
/** The production defaults of the fair share (config.server.ts), for the tests that measure it. */
export const PRODUCTION_FAIR_SHARE = { CLIENT_MAX_IN_FLIGHT: "16", BUSY_IN_FLIGHT: "4", SHED_EVENT_LOOP_DELAY_MS: "150" };

export async function startApp(options: StartOptions): Promise<AppProcess> {
  if (!fs.existsSync(path.join(ROOT, "build/index.js"))) throw new Error("build/index.js is missing: run `npm run build` first");
  const port = options.port ?? (await freePort());
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["server.mjs"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", TZ: "UTC", HOST: "127.0.0.1", ...RELAXED_FAIR_SHARE, ...options.env, PORT: String(port) } as unknown as NodeJS.ProcessEnv,
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exitedPromise = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (hasExited()) throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer /healthz within ${options.startTimeoutMs ?? 30_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    port,
    pid: child.pid!,
    output: () => output,
    exited: hasExited,
    stop: async () => {
      if (hasExited()) return;
      const force = setTimeout(() => child.kill("SIGKILL"), 5000);
      child.kill("SIGTERM");
      await exitedPromise;
      clearTimeout(force);
    },
    kill: async () => {
      if (hasExited()) return;
      child.kill("SIGKILL");
      await exitedPromise;
    },
  };
}

/** The environment every fault-suite server gets: NODE_ENV=test (simulated pay, fixed captcha allowed), quiet logs. */
export function baseEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "test",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: TEST_SESSION_SECRET,
    APP_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ALLOW_ANY_BROWSER: "true",
    LOG_LEVEL: "warn",
    ...extra,
  };
}

export const TEST_SESSION_SECRET = "faults-suite-session-secret-3c9e1a7b";
export const TEST_ENCRYPTION_KEY = "7a".repeat(16) + "b4".repeat(16);

/** The `__session=…` cookie (name=value) of a session id, signed as the app signs it. */
export async function sessionCookieFor(sessionId: string, secret = TEST_SESSION_SECRET): Promise<string> {
  const cookie = createCookie("__session", { secrets: [secret], path: "/", httpOnly: true, sameSite: "lax" });
  return (await cookie.serialize(sessionId)).split(";")[0]!;
}

// ---------------------------------------------------------------------------------------------
// HTTP

export type Answer = { status: number; headers: Headers; text: string; json: () => any; ms: number };

/**
 * One request to the app as a browser on its own origin would send it (Origin header on writes).
 * `form` is sent as application/x-www-form-urlencoded, `json` as JSON. Redirects are not followed.
 */
export async function request(
  base: string,
  pathname: string,
  options: { method?: string; cookie?: string; form?: Record<string, string>; json?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
  const method = options.method ?? (options.form || options.json !== undefined ? "POST" : "GET");
  const headers: Record<string, string> = { "User-Agent": "Mozilla/5.0 (faults suite)" };
  if (options.cookie) headers.Cookie = options.cookie;
  let body: string | undefined;
  if (options.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  if (method !== "GET" && method !== "HEAD") headers.Origin = base;
  const started = Date.now();
  const response = await fetch(base + pathname, {
    method,
    headers,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: () => JSON.parse(text),
    ms: Date.now() - started,
  };
}

/** The name=value pairs of an answer's Set-Cookie headers, as a Cookie header. */
export function cookiesOf(answer: Answer): string {
  return answer.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (then throws with `what`). */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// SQLite

export function openSqlite(file: string) {
  const database = new Database(file, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  return database;
}

export type InsertedStudent = { userId: number; studentId: string; openid: string | null; sessionId: string; cookie: string };

/**
 * A student with a bound account (demo school), optionally a messenger identity, a nickname and
 * a campus, and an open session — what a real login leaves behind (tests/e2e/fixtures.ts).
 */
export async function insertStudentSqlite(
  database: Database.Database,
  options: { openid?: string | null; nickname?: string | null; campusCode?: string | null; secret?: string } = {},
): Promise<InsertedStudent> {
  const iso = new Date().toISOString();
  const studentId = `flt${crypto.randomInt(1e8).toString().padStart(8, "0")}`;
  const openid = options.openid ?? null;
  const user = database
    .prepare(
      `INSERT INTO users (school_code, student_id, real_name, nickname, campus_code, openid, wechat_authorized_at, student_bound_at, created_at, updated_at)
       VALUES ('demo', ?, '故障测试', ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(studentId, options.nickname ?? null, options.campusCode ?? null, openid, openid ? iso : null, iso, iso, iso) as { id: number };
  const sessionId = crypto.randomBytes(32).toString("base64url");
  database
    .prepare(
      `INSERT INTO sessions (id, user_id, device_id, platform, created_at, expires_at, ended_at, end_reason)
       VALUES (?, ?, ?, 'web', ?, ?, NULL, NULL)`,
    )
    .run(sessionId, user.id, `faults-device-${user.id}`, iso, new Date(Date.now() + 86_400_000).toISOString());
  return { userId: user.id, studentId, openid, sessionId, cookie: await sessionCookieFor(sessionId, options.secret) };
}

/** The template ids the fault suite configures (the real provider sends only configured templates). */
export const TEMPLATE_ENV: Record<string, string> = {
  WECHAT_TEMPLATE_EXPRESS_ORDER: "tpl_express_order",
  WECHAT_TEMPLATE_NEW_ORDER: "tpl_new_order",
  WECHAT_TEMPLATE_DELIVERY_COMPLETED: "tpl_delivery_completed",
  WECHAT_TEMPLATE_COURSE_REMINDER: "tpl_course_reminder",
};

/**
 * What points a server at the fake messenger API (tests/fakes/messenger-api.ts): its app, the
 * templates, the send time-out and how often the outbox worker and the reminder job run.
 */
export function messengerEnv(
  fake: { appId: string; appSecret: string; url: string },
  options: { timeoutMs: number; workerIntervalMs: number; reminderIntervalMs?: number },
): Record<string, string> {
  return {
    ...TEMPLATE_ENV,
    WECHAT_APP_ID: fake.appId,
    WECHAT_APP_SECRET: fake.appSecret,
    WECHAT_API_BASE_URL: fake.url,
    WECHAT_HTTP_TIMEOUT_MS: String(options.timeoutMs),
    NOTIFY_WORKER_INTERVAL_MS: String(options.workerIntervalMs),
    NOTIFY_REMINDER_INTERVAL_MS: String(options.reminderIntervalMs ?? 3_600_000),
  };
}

/** An operator whose messenger openid receives NEW_ORDER messages. */
export function insertOperatorSqlite(database: Database.Database, username: string, openid: string) {
  database
    .prepare(
      `INSERT INTO operators (username, display_name, password_hash, role, openid, disabled, created_at)
       VALUES (?, '故障值班', 'x', 'admin', ?, 0, ?)`,
    )
    .run(username, openid, new Date().toISOString());
}

/** The JSON body of POST /api/express/order_create for a campus's first building. */
export function orderBody(campusCode: string, building: string, index: number) {
  return {
    campus_code: campusCode,
    recipient_name: "故障测试",
    recipient_phone: "13800138000",
    recipient_dorm: building,
    recipient_room: String(100 + (index % 500)),
    expressCheckoutList: [{ pickupCode: `8-${1000 + index}`, company: "顺丰速运", stationName: "菜鸟驿站" }],
    expressPackageCounts: { pocket: 1, small: 0, medium: 0, large: 0 },
  };
}

/** A fresh SQLite file for a fault test, under tests/.tmp/faults (an earlier run's removed). */
export function freshFaultDb(name: string) {
  const file = path.join(scratchDir("faults"), `${name}-${process.pid}.db`);
  removeSqlite(file);
  return file;
}

/** The order call as a customer's page makes it: the new order's number (any other answer than 200 throws). */
export async function orderOverHttp(base: string, cookie: string, body: unknown): Promise<string> {
  const created = await request(base, "/api/express/order_create", { cookie, json: body });
  if (created.status !== 200) throw new Error(`order_create answered ${created.status}: ${created.text}`);
  return created.json().data.order_id as string;
}

/** The pay params for an order (any other answer than 200 throws): the simulated payer pays 1.5 s later. */
export async function startPaymentOverHttp(base: string, cookie: string, number: string) {
  const payment = await request(base, "/api/pay/wechat/create-payment", { cookie, json: { order_id: number } });
  if (payment.status !== 200) throw new Error(`create-payment answered ${payment.status}: ${payment.text}`);
}

/** Ordered and paid as a customer's page does it: the order number and the status answer that first said paid. */
export async function orderAndPayOverHttp(base: string, cookie: string, body: unknown) {
  const number = await orderOverHttp(base, cookie, body);
  await startPaymentOverHttp(base, cookie, number);
  await sleep(1_600);
  const paid = await waitFor(
    `order ${number} paid`,
    async () => {
      const answer = await request(base, `/api/express/orders/${number}/payment-status`, { cookie });
      if (answer.status !== 200) throw new Error(`payment-status answered ${answer.status}: ${answer.text}`);
      return answer.json().data.paid ? answer : null;
    },
    10_000,
    300,
  );
  return { number, paid };
}
