// The production server for the security suite: the built app (`node server.mjs`) on a fresh
// SQLite file, NODE_ENV=production with test secrets and ALLOW_ANY_BROWSER=true, on a free
// loopback port, like the e2e server. Everything it prints is kept for the secrets check.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SESSION_SECRET = "security-suite-session-secret-7f3a9c1e5b";
export const APP_ENCRYPTION_KEY = "5e".repeat(16) + "c3".repeat(16);
/** The captcha answer the suite writes into a challenge's row (the real answer is random in production). */
export const CAPTCHA_ANSWER = "AB23";

export type Server = {
  base: string;
  dbFile: string;
  output: () => string;
  stop: () => Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function startServer(extraEnv: Record<string, string> = {}): Promise<Server> {
  if (!fs.existsSync(path.join(ROOT, "build/index.js"))) throw new Error("build/index.js is missing: run `npm run build` first");
  const port = await freePort();
  const dir = path.join(ROOT, "tests/.tmp/security");
  fs.mkdirSync(dir, { recursive: true });
  const dbFile = path.join(dir, `app-${port}.db`);
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(dbFile + suffix, { force: true });
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["server.mjs"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      TZ: "UTC",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${dbFile}`,
      UPLOADS_DIR: path.join(dir, `uploads-${port}`),
      SESSION_SECRET,
      APP_ENCRYPTION_KEY,
      ALLOW_ANY_BROWSER: "true",
      LOG_LEVEL: "info",
      ...extraEnv,
    },
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer /healthz within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    dbFile,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const force = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

export function openDb(server: Server) {
  const database = new Database(server.dbFile, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  return database;
}

const sessionCookie = createCookie("__session", { secrets: [SESSION_SECRET], path: "/", httpOnly: true, sameSite: "lax" });

export type Student = { userId: number; studentId: string; cookie: string };

/** A student with a bound account and an open session, inserted as tests/e2e/fixtures.ts does. */
export async function insertStudent(server: Server, nickname: string | null = null): Promise<Student> {
  const database = openDb(server);
  try {
    const iso = new Date().toISOString();
    const studentId = `sec${crypto.randomInt(1e8).toString().padStart(8, "0")}`;
    const user = database
      .prepare(
        `INSERT INTO users (school_code, student_id, real_name, nickname, student_bound_at, created_at, updated_at)
         VALUES ('demo', ?, '安全测试', ?, ?, ?, ?) RETURNING id`,
      )
      .get(studentId, nickname, iso, iso, iso) as { id: number };
    const sessionId = crypto.randomBytes(32).toString("base64url");
    database
      .prepare(
        `INSERT INTO sessions (id, user_id, device_id, platform, created_at, expires_at, ended_at, end_reason)
         VALUES (?, ?, ?, 'web', ?, ?, NULL, NULL)`,
      )
      .run(sessionId, user.id, `sec-device-${user.id}`, iso, new Date(Date.now() + 86_400_000).toISOString());
    const cookie = (await sessionCookie.serialize(sessionId)).split(";")[0]!;
    return { userId: user.id, studentId, cookie };
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

/** The HMAC the app stores for a captcha answer (keyedHash in app/server/crypto.server.ts). */
export function captchaHash(answer: string) {
  return crypto.createHmac("sha256", SESSION_SECRET).update(answer).digest("base64url");
}

/** A trace of a thrown error: "at fn (file:line:col)" lines or a file path into the code. */
export function looksLikeStackTrace(body: string) {
  return /\n\s+at [^\n]*:\d+:\d+\)?/.test(body) || /(file:\/\/|\/node_modules\/|build\/index\.js|server\.mjs:\d)/.test(body);
}
