// The production server for the security suite: the built app (`node server.mjs`) on a fresh
// SQLite file, NODE_ENV=production with test secrets and ALLOW_ANY_BROWSER=true, on a free
// loopback port, like the e2e server. Everything it prints is kept for the secrets check.
import crypto from "node:crypto";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import { createChallenge, solveChallenge } from "altcha-lib";
import { captchaTokenFor } from "../../scripts/lib/app-server.mjs";
import { insertStudentSqlite, openSqlite, removeSqlite, scratchDir, startApp } from "../support/app-process";

export { ROOT } from "../support/app-process";
export const SESSION_SECRET = "security-suite-session-secret-7f3a9c1e5b";
export const APP_ENCRYPTION_KEY = "5e".repeat(16) + "c3".repeat(16);
/** The captcha answer of the tokens the suite signs (the real answer is random in production). */
export const CAPTCHA_ANSWER = "AB23";

export type Server = {
  base: string;
  pid: number;
  dbFile: string;
  output: () => string;
  stop: () => Promise<void>;
};

/** The process itself is started by tests/support/app-process.ts (shared with the fault suite). */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<Server> {
  const dir = scratchDir("security");
  const dbFile = path.join(dir, `app-${process.pid}-${crypto.randomBytes(4).toString("hex")}.db`);
  removeSqlite(dbFile);
  const app = await startApp({
    env: {
      NODE_ENV: "production",
      DATABASE_URL: `file:${dbFile}`,
      UPLOADS_DIR: path.join(dir, `uploads-${path.basename(dbFile, ".db")}`),
      SESSION_SECRET,
      APP_ENCRYPTION_KEY,
      ALLOW_ANY_BROWSER: "true",
      SEED_DEMO_DATA: "true", // the demo school and campuses the suite logs in and orders on
      LOG_LEVEL: "info",
      ...extraEnv,
    },
  });
  return { base: app.base, pid: app.pid, dbFile, output: app.output, stop: app.stop };
}

export function openDb(server: Server) {
  return openSqlite(server.dbFile);
}

export type Student = { userId: number; studentId: string; cookie: string };

/** A student with a bound account and an open session (the fault suite's insertStudentSqlite, signed with this suite's secret). */
export async function insertStudent(server: Server, nickname: string | null = null): Promise<Student> {
  const database = openDb(server);
  try {
    const { userId, studentId, cookie } = await insertStudentSqlite(database, { nickname, secret: SESSION_SECRET });
    return { userId, studentId, cookie };
  } finally {
    database.close();
  }
}

/** An unpaid order of the user, straight into the orders table; returns its order number. */
export function insertOrder(server: Server, userId: number): string {
  const database = openDb(server);
  try {
    const iso = new Date().toISOString();
    const number = `E${iso.slice(0, 10).replace(/-/g, "")}${crypto.randomInt(1e6).toString().padStart(6, "0")}`;
    database
      .prepare(
        `INSERT INTO orders (order_number, user_id, campus_code, campus_name, recipient_name, recipient_phone, package_counts,
           parcel_count, original_fen, amount_fen, status, payment_status, estimated_delivery_at, expires_at, created_at, updated_at)
         VALUES (?, ?, 'demo', '演示校区', '秘密收件人', '13800138000', '{"pocket":1,"small":0,"medium":0,"large":0}',
           1, 300, 300, 'created', 'pending', ?, ?, ?, ?)`,
      )
      .run(number, userId, iso, new Date(Date.now() + 15 * 60_000).toISOString(), iso, iso);
    return number;
  } finally {
    database.close();
  }
}

/** A captcha token for `answer` as the server signs it (the suite knows the session secret). */
export function captchaToken(answer = CAPTCHA_ANSWER, expiresAt?: number) {
  return captchaTokenFor(SESSION_SECRET, answer, expiresAt);
}

/** The keyed hash a login throttle key holds for an account or an address (rate-limit.server.ts). */
export function throttleHash(label: "throttle-account" | "throttle-address" | "throttle-device", value: string) {
  return crypto.createHmac("sha256", SESSION_SECRET).update(`${label}|${value}`).digest("base64url").slice(0, 22);
}

/** A trace of a thrown error: "at fn (file:line:col)" lines or a file path into the code. */
export function looksLikeStackTrace(body: string) {
  return /\n\s+at [^\n]*:\d+:\d+\)?/.test(body) || /(file:\/\/|\/node_modules\/|build\/index\.js|server\.mjs:\d)/.test(body);
}

/** Gives the user a messenger identity authorised now (what requireMessengerUser wants); returns the openid. */
export function makeMessengerUser(server: Server, userId: number): string {
  const database = openDb(server);
  try {
    const openid = `oSec${crypto.randomBytes(12).toString("hex")}`;
    const iso = new Date().toISOString();
    database.prepare("UPDATE users SET openid = ?, wechat_authorized_at = ?, wechat_nickname = '安全测试' WHERE id = ?").run(openid, iso, userId);
    return openid;
  } finally {
    database.close();
  }
}

const operatorCookie = createCookie("__operator", { secrets: [SESSION_SECRET], path: "/admin", httpOnly: true, sameSite: "lax" });

/**
 * An operator with an open session, inserted straight into the tables (as scripts/admin-create.mjs
 * would make one). The admin role, so the fuzz reaches the reference-data forms' actions too.
 */
export async function insertOperator(server: Server, username = `sec-op-${crypto.randomInt(1e6)}`): Promise<{ operatorId: number; cookie: string }> {
  const database = openDb(server);
  try {
    const iso = new Date().toISOString();
    const operator = database
      .prepare(
        `INSERT INTO operators (username, display_name, password_hash, role, openid, disabled, created_at, last_login_at)
         VALUES (?, '安全测试员', 'not-a-usable-hash', 'admin', NULL, 0, ?, NULL) RETURNING id`,
      )
      .get(username, iso) as { id: number };
    const sessionId = crypto.randomBytes(32).toString("base64url");
    database
      .prepare("INSERT INTO operator_sessions (id, operator_id, created_at, expires_at, ended_at) VALUES (?, ?, ?, ?, NULL)")
      .run(sessionId, operator.id, iso, new Date(Date.now() + 3_600_000).toISOString());
    const cookie = (await operatorCookie.serialize(sessionId)).split(";")[0]!;
    return { operatorId: operator.id, cookie };
  } finally {
    database.close();
  }
}

/** Runs one statement on the server's database and returns what it returns (rows for a SELECT/RETURNING). */
export function sql<T = Record<string, unknown>>(server: Server, statement: string, ...params: unknown[]): T[] {
  const database = openDb(server);
  try {
    const prepared = database.prepare(statement);
    if (prepared.reader) return prepared.all(...params) as T[];
    prepared.run(...params);
    return [];
  } finally {
    database.close();
  }
}

/**
 * A solved proof-of-work challenge, as the page's script sends it in `altcha`: signed with the
 * suite's session secret as the server signs its own (a small range, so it solves at once).
 */
export async function solvedProof(): Promise<string> {
  const challenge = await createChallenge({ hmacKey: `altcha|${SESSION_SECRET}`, maxNumber: 2000, expires: new Date(Date.now() + 5 * 60_000) });
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) throw new Error("no solution");
  const { algorithm, salt, signature } = challenge;
  return Buffer.from(JSON.stringify({ algorithm, challenge: challenge.challenge, number: solution.number, salt, signature })).toString("base64");
}
