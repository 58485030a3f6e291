// What the Docker image runs (CMD node server.mjs, NODE_ENV=production), run here since no
// Docker engine is available: the built server starts on an empty SQLite database, answers
// /healthz with the security headers, refuses to start without its secrets, and stops cleanly
// on SIGTERM. Needs the build (npm test builds first).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/app-process";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SECRETS = { SESSION_SECRET: "production-test-session-secret-0123", APP_ENCRYPTION_KEY: "cd".repeat(32) };

let tmp: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, "build/index.js"))) {
    throw new Error("build/index.js is missing: run `npm run build` first (npm test does)");
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "campus-prod-"));
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Started = { child: ChildProcess; output: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

function start(env: Record<string, string | undefined>, command: string[] = [process.execPath, "server.mjs"]): Started {
  // The test process's own settings (vitest sets NODE_ENV=test, the db projects DATABASE_URL) stay out.
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["NODE_ENV", "DATABASE_URL", "SESSION_SECRET", "APP_ENCRYPTION_KEY", "PORT", "VITEST"]) delete clean[key];
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete clean[key];
    else clean[key] = value;
  }
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env: clean, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function waitForHealth(url: string, started: Started) {
  const deadline = Date.now() + 20_000;
  let exited = false;
  void started.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited before it was healthy:\n${started.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return response;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not healthy within 20 s:\n${started.output()}`);
}

function productionEnv(port: number, name: string) {
  return {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${path.join(tmp, name, "app.db")}`,
    LOG_LEVEL: "warn",
  };
}

describe("the production server (what the Docker image runs)", () => {
  it("starts on an empty database, answers /healthz with the security headers and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const server = start({ ...productionEnv(port, "ok"), ...SECRETS });
    const health = await waitForHealth(`http://127.0.0.1:${port}/healthz`, server);

    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const csp = health.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");
    expect(health.headers.get("referrer-policy")).toBeTruthy();
    expect(health.headers.get("x-powered-by")).toBeNull();

    // A page in production: no stack traces, the headers on HTML too, a per-request nonce.
    const page = await fetch(`http://127.0.0.1:${port}/blog`);
    expect(page.status).toBe(200);
    const pageCsp = page.headers.get("content-security-policy") ?? "";
    expect(pageCsp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(pageCsp).not.toBe(csp); // a fresh nonce for every response
    expect(fs.existsSync(path.join(tmp, "ok", "app.db"))).toBe(true);

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it.each(["SESSION_SECRET", "APP_ENCRYPTION_KEY"] as const)(
    "refuses to start without %s, naming it",
    async (missing) => {
      const port = await freePort();
      const server = start({ ...productionEnv(port, `no-${missing}`), ...SECRETS, [missing]: undefined });
      const { code } = await server.exited;
      expect(code).not.toBe(0);
      expect(server.output()).toContain(missing);
      expect(server.output()).toMatch(/required in production/);
    },
  );

  it("starts a production database empty: no demo school, campus, post or user", async () => {
    const port = await freePort();
    const server = start({ ...productionEnv(port, "empty"), ...SECRETS });
    await waitForHealth(`http://127.0.0.1:${port}/healthz`, server);
    const database = new Database(path.join(tmp, "empty", "app.db"), { readonly: true });
    const count = (table: string) => (database.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    try {
      for (const table of ["schools", "campuses", "dorm_buildings", "package_types", "pickup_places", "posts", "users"]) {
        expect(count(table), table).toBe(0);
      }
      // What every installation needs is there: the forum's categories and the coupon rules.
      expect(count("forum_categories")).toBeGreaterThan(0);
      expect(count("coupon_templates")).toBeGreaterThan(0);
    } finally {
      database.close();
    }
    // Each capability that is off is one warning line at start (the admin pages show the same banner).
    const warnings = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: string; event: string })
      .filter((line) => line.event.startsWith("capability-off-"));
    expect(warnings.map((line) => [line.level, line.event])).toEqual([
      ["warn", "capability-off-payment"],
      ["warn", "capability-off-template-messages"],
      ["warn", "capability-off-academic-system"],
    ]);
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("seeds the demo school and campuses in production only when SEED_DEMO_DATA=true", async () => {
    const port = await freePort();
    const server = start({ ...productionEnv(port, "demo"), ...SECRETS, SEED_DEMO_DATA: "true" });
    await waitForHealth(`http://127.0.0.1:${port}/healthz`, server);
    const database = new Database(path.join(tmp, "demo", "app.db"), { readonly: true });
    try {
      expect(database.prepare("SELECT code FROM schools").all()).toEqual([{ code: "demo" }]);
      expect((database.prepare("SELECT COUNT(*) AS n FROM campuses").get() as { n: number }).n).toBeGreaterThan(0);
      expect((database.prepare("SELECT COUNT(*) AS n FROM posts").get() as { n: number }).n).toBeGreaterThan(0);
    } finally {
      database.close();
    }
    server.child.kill("SIGTERM");
    await server.exited;
  });

  it("names a busy port in one line, without a stack trace", async () => {
    const port = await freePort();
    const first = start({ ...productionEnv(port, "port-a"), ...SECRETS });
    await waitForHealth(`http://127.0.0.1:${port}/healthz`, first);
    const second = start({ ...productionEnv(port, "port-b"), ...SECRETS, LOG_LEVEL: "error" });
    const { code } = await second.exited;
    expect(code).toBe(1);
    const lines = second.output().trim().split("\n");
    expect(lines).toEqual([`[campus-app] cannot listen: port ${port} is already in use: stop what runs there or set PORT to a free port`]);
    first.child.kill("SIGTERM");
    await first.exited;
  });

  it("`npm start` passes SIGTERM on: the server stops and frees its port", async () => {
    const port = await freePort();
    const npm = start({ ...productionEnv(port, "npm-start"), ...SECRETS }, ["npm", "start", "--silent"]);
    await waitForHealth(`http://127.0.0.1:${port}/healthz`, npm);
    npm.child.kill("SIGTERM");
    await npm.exited;
    // The server shuts down gracefully and is forced out 10 s after its signal at the latest; on a
    // loaded machine (the whole suite on 2 cores) the graceful part alone has come close to that.
    const deadline = Date.now() + 20_000;
    let listening = true;
    while (listening && Date.now() < deadline) {
      listening = await fetch(`http://127.0.0.1:${port}/healthz`).then(() => true, () => false);
      if (listening) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(listening, "the server still answers after npm got SIGTERM").toBe(false);
  }, 60_000);

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))("names a PostgreSQL database that does not exist", async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = "/campus_no_such_database";
    const port = await freePort();
    const server = start({ ...productionEnv(port, "pg-missing"), ...SECRETS, DATABASE_URL: url.toString() });
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(server.output()).toContain('PostgreSQL database "campus_no_such_database" does not exist');
    expect(server.output()).not.toMatch(/Migration \? failed|\n\s+at /);
  });
});
