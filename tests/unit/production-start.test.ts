// What the Docker image runs (CMD node server.mjs, NODE_ENV=production), run here since no
// Docker engine is available: the built server starts on an empty SQLite database, answers
// /healthz with the security headers, refuses to start without its secrets, and stops cleanly
// on SIGTERM. Needs the build (npm test builds first).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
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

function start(env: Record<string, string | undefined>): Started {
  // The test process's own settings (vitest sets NODE_ENV=test, the db projects DATABASE_URL) stay out.
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["NODE_ENV", "DATABASE_URL", "SESSION_SECRET", "APP_ENCRYPTION_KEY", "PORT", "VITEST"]) delete clean[key];
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete clean[key];
    else clean[key] = value;
  }
  const child = spawn(process.execPath, ["server.mjs"], { cwd: ROOT, env: clean, stdio: ["ignore", "pipe", "pipe"] });
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
});
