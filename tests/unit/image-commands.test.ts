// The production image's commands, run the way the image runs them, since no Docker engine runs
// here: a folder laid out as the Dockerfile's runtime stage copies it (its COPY --from=build lines
// are read from the Dockerfile itself), with only the production dependencies in node_modules
// (package-lock entries not marked dev), then plain `node` for the server, the first operator and
// a backup. Needs the build (npm test builds first).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/app-process";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let image: string;
let server: ChildProcess | undefined;

/** The runtime stage's `COPY --from=build … /app/<src…> <dest>` lines: [source, destination] pairs. */
function runtimeCopies(dockerfile: string) {
  const runtime = dockerfile.slice(dockerfile.search(/^FROM \S+ AS runtime$/m));
  const copies: { sources: string[]; destination: string }[] = [];
  for (const line of runtime.split("\n")) {
    const match = /^COPY --from=build(?: --chown=\S+)? (.+)$/.exec(line.trim());
    if (!match) continue;
    const parts = match[1]!.split(/\s+/);
    copies.push({ sources: parts.slice(0, -1).map((source) => source.replace(/^\/app\//, "")), destination: parts.at(-1)! });
  }
  return copies;
}

/** Top-level packages a production install has: package-lock entries not marked dev. */
function productionPackages() {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([key, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) && !entry.dev)
    .map(([key]) => key.slice("node_modules/".length))
    .filter((name) => fs.existsSync(path.join(ROOT, "node_modules", name)));
}

function layOutImage(dir: string) {
  for (const { sources, destination } of runtimeCopies(fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8"))) {
    for (const source of sources) {
      const target = destination.endsWith("/") ? path.join(dir, destination, path.basename(source)) : path.join(dir, destination);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (source === "node_modules") {
        for (const name of productionPackages()) {
          fs.mkdirSync(path.dirname(path.join(target, name)), { recursive: true });
          fs.symlinkSync(path.join(ROOT, "node_modules", name), path.join(target, name), "dir");
        }
      } else if (fs.statSync(path.join(ROOT, source)).isDirectory()) {
        fs.symlinkSync(path.join(ROOT, source), target, "dir");
      } else {
        fs.copyFileSync(path.join(ROOT, source), target);
      }
    }
  }
}

function imageEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    TZ: "UTC",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${path.join(image, "data/app.db")}`,
    SESSION_SECRET: "image-test-session-secret-0123456789",
    APP_ENCRYPTION_KEY: "ef".repeat(32),
    LOG_LEVEL: "warn",
    ...extra,
  };
}

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, "build/index.js"))) throw new Error("build/index.js is missing: run `npm run build` first");
  image = fs.mkdtempSync(path.join(os.tmpdir(), "campus-image-"));
  layOutImage(image);
});

afterAll(() => {
  if (server && server.exitCode === null) server.kill("SIGKILL");
  fs.rmSync(image, { recursive: true, force: true });
});

describe("the production image's commands, with plain node and production dependencies only", () => {
  it("has the runtime stage's files and no development tools", () => {
    for (const file of ["server.mjs", "build/index.js", "scripts/admin-create.mjs", "scripts/db-backup.mjs", "scripts/uploads-backup.mjs", "workers"]) {
      expect(fs.existsSync(path.join(image, file)), file).toBe(true);
    }
    expect(fs.existsSync(path.join(image, "node_modules/better-sqlite3"))).toBe(true);
    for (const devTool of ["tsx", "@remix-run/dev", "vitest"]) {
      expect(fs.existsSync(path.join(image, "node_modules", devTool)), devTool).toBe(false);
    }
    expect(fs.existsSync(path.join(image, "app"))).toBe(false);
  });

  it("starts the server, creates the first operator, takes a 0600 backup and stops on SIGTERM", async () => {
    const port = await freePort();
    let output = "";
    const child = spawn(process.execPath, ["server.mjs"], { cwd: image, env: imageEnv({ PORT: String(port) }), stdio: ["ignore", "pipe", "pipe"] });
    server = child;
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 60_000; // other test files run beside it, one per core
    let healthy = false;
    while (!healthy && Date.now() < deadline && child.exitCode === null) {
      healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then((response) => response.ok, () => false);
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(healthy, output).toBe(true);

    const created = spawnSync(process.execPath, ["scripts/admin-create.mjs", "alice", "--display-name", "小周"], {
      cwd: image,
      env: imageEnv(),
      input: "first-operator-password\n",
      encoding: "utf8",
    });
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("Created operator alice");
    expect(created.status).toBe(0);

    const backup = spawnSync(process.execPath, ["scripts/db-backup.mjs", "--out", path.join(image, "backups")], {
      cwd: image,
      env: imageEnv(),
      encoding: "utf8",
    });
    expect(backup.status, backup.stderr).toBe(0);
    const [file] = fs.readdirSync(path.join(image, "backups"));
    const copy = path.join(image, "backups", file!);
    expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
    const database = new Database(copy, { readonly: true });
    expect(database.prepare("SELECT username, display_name FROM operators").all()).toEqual([{ username: "alice", display_name: "小周" }]);
    database.close();

    // The uploads' backup runs the same way (no uploads yet), and the server is ready.
    const uploads = spawnSync(process.execPath, ["scripts/uploads-backup.mjs", "--out", path.join(image, "upload-backups")], { cwd: image, env: imageEnv(), encoding: "utf8" });
    expect(uploads.status, uploads.stderr).toBe(0);
    expect(uploads.stdout).toMatch(/backed up 0 upload files/);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    // The operator can log in through the running server's login page.
    const login = await fetch(`http://127.0.0.1:${port}/admin/login`);
    expect(login.status).toBe(200);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 90_000);
});
