// Every npm script runs: each one in package.json is started here the cheapest way that proves it
// loads and accepts its settings (its `--help`, a listing, a dry start, or a real run on a throwaway
// database), and every `npm run …` the README documents exists. A script that stops starting
// (a refused setting, a moved file, a broken import) fails here, not on a newcomer's machine.
// `remix build`, which several scripts run first, is npm test's own second stage; this file needs
// its output for the scripts that start the built server.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const node = (...args: string[]) => [process.execPath, ...args];

let tmp: string;
beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, "build/index.js"))) throw new Error("build/index.js is missing: run `npm run build` first (npm test does)");
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "campus-scripts-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A script npm test itself runs as a stage (or npm ci runs) is proved by that; the others are started here. */
type Proof = { stage: string } | { command: () => string[]; env?: () => Record<string, string>; output: RegExp };
const sqlite = (name: string) => () => ({ DATABASE_URL: `file:${path.join(tmp, name)}`, NODE_ENV: "development" });

/**
 * How each script is proved. A started command is what the script runs after any `remix build &&`,
 * started cheaply; `output` must appear in what it prints.
 */
const PROOFS: Record<string, Proof> = {
  postinstall: { stage: "npm ci (patch-package applies patches/)" },
  build: { stage: "npm test, stage 2" },
  test: { stage: "npm test itself" },
  "test:unit": { stage: "npm test, the vitest stage (the same `vitest run`)" },
  "test:security": { stage: "npm test, the security stage" },
  "test:faults": { stage: "npm test, the fault stage" },
  "test:e2e": { stage: "npm test, the Playwright stage" },
  start: { stage: "tests/unit/production-start.test.ts (`npm start` builds when needed and serves)" },
  serve: { stage: "tests/unit/production-start.test.ts (`node server.mjs` on the build)" },
  "test:full": { command: () => node("scripts/test.mjs", "--full", "--help"), output: /--full/ },
  dev: { command: () => [bin("remix"), "dev", "--help"], output: /--manual/ },
  "db:migrate": { command: () => [bin("tsx"), "scripts/db-migrate.ts"], env: sqlite("migrate.db"), output: /Applied .*|up to date/ },
  "db:seed": { command: () => [bin("tsx"), "scripts/db-seed.ts"], env: sqlite("seed.db"), output: /./ },
  "admin:create": { command: () => node("scripts/admin-create.mjs", "--help"), output: /operator/ },
  typecheck: { command: () => [bin("tsc"), "--noEmit", "--showConfig"], output: /"strict": true/ },
  "test:load": { command: () => node("scripts/load.mjs", "--dry-run"), output: /dry run \(full size settings\): \/healthz answered 200/ },
  budget: { command: () => node("scripts/budget.mjs", "--help"), output: /npm run budget/ },
  "db:backup": { command: () => node("scripts/db-backup.mjs", "--help"), output: /npm run db:backup/ },
  "uploads:backup": { command: () => node("scripts/uploads-backup.mjs", "--help"), output: /npm run uploads:backup/ },
  bench: { command: () => node("scripts/bench.mjs", "--help"), output: /npm run bench/ },
  "test:money": { command: () => node("scripts/test-money.mjs", "--help"), output: /npm run test:money/ },
  "eval:recognition": { command: () => [bin("tsx"), "scripts/eval-recognition.ts", "--skip-screenshots"], output: /screenshots: skipped/ },
  lighthouse: { command: () => node("scripts/lighthouse.mjs", "--help"), output: /npm run lighthouse/ },
};
const STARTED = Object.entries(PROOFS).flatMap(([name, proof]) => ("command" in proof ? [[name, proof] as const] : []));

function run(command: string[], env: Record<string, string> = {}) {
  // The test process's own settings (vitest's NODE_ENV=test and the rest) stay out.
  const clean: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, TZ: "UTC", ...env };
  if (process.env.CHROMIUM_PATH) clean.CHROMIUM_PATH = process.env.CHROMIUM_PATH;
  for (const key of Object.keys(clean)) if (clean[key] === undefined) delete clean[key];
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env: clean as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("npm scripts", () => {
  it("every script in package.json has a proof below, and every `npm run` in the README is a script", () => {
    expect(Object.keys(pkg.scripts).sort()).toEqual(Object.keys(PROOFS).sort());
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const documented = [...readme.matchAll(/npm run ([a-z][\w:-]*)/g)].map((match) => match[1]!);
    expect(documented.length).toBeGreaterThan(10);
    for (const name of documented) expect(pkg.scripts, `README documents npm run ${name}`).toHaveProperty(name);
  });

  // The image's Node major is the one npm scripts run on (the `node` dev dependency), so the suite
  // tests what production runs, whatever Node the machine has.
  it("npm scripts, this suite included, run on the image's Node major, which engines names", async () => {
    const image = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8").match(/ARG NODE_IMAGE=node:(\d+)-/)![1]!;
    const engines = (pkg as unknown as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`>=${image}`);
    expect(process.versions.node.split(".")[0]).toBe(image);
    const { code, output } = await run(["npm", "exec", "--offline", "--", "node", "-p", "process.versions.node"], {});
    expect(code).toBe(0);
    expect(output.trim().split(".")[0]).toBe(image);
  }, 60_000);

  it("every file a script runs exists", () => {
    for (const [name, script] of Object.entries(pkg.scripts)) {
      for (const match of script.matchAll(/(?:node|tsx) ((?:scripts\/|server)[\w./-]+)/g)) {
        expect(fs.existsSync(path.join(ROOT, match[1]!)), `${name}: ${match[1]}`).toBe(true);
      }
    }
  });

  it.concurrent.each(STARTED)("%s starts", async (name, proof) => {
    const { code, output } = await run(proof.command(), proof.env?.() ?? {});
    expect(code, `${name}: ${proof.command().join(" ")}\n${output.slice(-2000)}`).toBe(0);
    expect(output).toMatch(proof.output);
  }, 120_000);
});
