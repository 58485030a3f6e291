// The production server for the scripts that measure the built app (bench.mjs, load.mjs):
// `node server.mjs` with NODE_ENV=production and ALLOW_ANY_BROWSER=true on a free loopback port,
// against the database the caller names; plus the signed cookies its sessions use, and the demo
// student logged in through the real login form.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCookie } from "@remix-run/node";
import { openDatabase } from "./database.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node server.mjs` (or `script`, with `nodeArgs` such as --cpu-prof before it) and waits for /healthz. `output()` is what it printed (the last
 * `keep` characters of stdout and stderr, in order), `stop()` ends it with SIGTERM (a graceful
 * shutdown; SIGKILL after 10 s).
 */
export async function startAppServer({ databaseUrl, sessionSecret, encryptionKey, env = {}, logLevel = "silent", keep = 200_000, timeoutMs = 60_000, script = "server.mjs", nodeArgs = [] }) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      TZ: "UTC",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: sessionSecret,
      APP_ENCRYPTION_KEY: encryptionKey,
      ALLOW_ANY_BROWSER: "true",
      SEED_DEMO_DATA: "true", // the demo school and campuses the measured journeys use
      LOG_LEVEL: logLevel,
      // The load and bench clients are one loopback address standing for many students: no
      // fair-share shedding among their connections.
      CLIENT_MAX_IN_FLIGHT: "10000",
      BUSY_IN_FLIGHT: "100000",
      SHED_EVENT_LOOP_DELAY_MS: "60000",
      ...env,
    },
  });
  let output = "";
  const collect = (chunk) => {
    output += chunk;
    if (output.length > keep * 2) output = output.slice(-keep);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output.slice(-4000)}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start: ${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    port,
    pid: child.pid,
    output: () => output.slice(-keep),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** "name=value" of the signed cookie the app sets (`__session` for students, `__operator`). */
export async function signedCookie(name, value, secret) {
  const cookie = createCookie(name, { secrets: [secret], path: "/", httpOnly: true, sameSite: "lax" });
  return (await cookie.serialize(value)).split(";")[0];
}

/**
 * A captcha token the server accepts for `answer`, signed with its session secret `secret` (the
 * format of app/server/auth/captcha.server.ts: `c1.<nonce>.<expiry ms>.<answer hash>.<signature>`).
 * Scripts and suites know the secret of the servers they start, so they answer captchas this way.
 */
export function captchaTokenFor(secret, answer, expiresAt = Date.now() + 5 * 60 * 1000) {
  const mac = (label, value) => crypto.createHmac("sha256", secret).update(`${label}|${value}`).digest("base64url");
  const nonce = crypto.randomBytes(16).toString("base64url");
  const body = `c1.${nonce}.${expiresAt}.${mac("captcha-answer", `${nonce}|${answer.trim().toUpperCase()}`)}`;
  return `${body}.${mac("captcha-token", body)}`;
}

/**
 * Logs the demo student (20230001) in through /crLogin with a captcha token signed with the
 * server's session secret `secret`. The student also gets the
 * messenger identity `messenger` (the market's recognition and ordering want one). Returns the
 * "__session=…" cookie.
 */
export async function loginDemoStudent(base, databaseUrl, secret, messenger) {
  const database = await openDatabase(databaseUrl);
  try {
    const response = await fetch(`${base}/crLogin`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ school: "demo", studentId: "20230001", password: "demo1234", captcha: "AB23", captchaId: captchaTokenFor(secret, "AB23") }),
    });
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith("__session="));
    if (!cookie) throw new Error(`the demo student's login failed: ${response.status}`);
    await database.run("UPDATE users SET openid = ?, wechat_nickname = ?, wechat_authorized_at = ? WHERE school_code = 'demo' AND student_id = '20230001'", [
      messenger.openid,
      messenger.nickname ?? null,
      new Date().toISOString(),
    ]);
    return cookie.split(";")[0];
  } finally {
    await database.close();
  }
}
