#!/usr/bin/env node
// npm run test:money — the long run of the money properties (decision 030): about ten minutes of
// generated sequences on SQLite and, when TEST_DATABASE_URL is set (or the local PostgreSQL
// answers, as npm test finds it), on PostgreSQL. A fresh seed each run, printed first; replay a
// failure with MONEY_SEED=<seed> npm run test:money (MONEY_PATH narrows it to fast-check's path).
import { spawnSync } from "node:child_process";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);

const seed = process.env.MONEY_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
const pg = process.env.TEST_DATABASE_URL ?? (spawnSync("pg_isready", ["-h", "127.0.0.1", "-p", "5432"]).status === 0 ? "postgres://postgres@127.0.0.1:5432/test" : "");
console.log(`money properties: MONEY_SEED=${seed}${pg ? "" : " (no PostgreSQL: SQLite only)"}`);
const env = {
  ...process.env,
  MONEY_SEED: seed,
  MONEY_RUNS: process.env.MONEY_RUNS ?? (pg ? "700" : "1400"),
  MONEY_STEPS: process.env.MONEY_STEPS ?? "40",
  MONEY_TIMEOUT_MS: process.env.MONEY_TIMEOUT_MS ?? String(15 * 60_000),
  ...(pg ? { TEST_DATABASE_URL: pg } : {}),
};
const projects = ["--project", "db-sqlite", ...(pg ? ["--project", "db-postgres"] : [])];
const run = spawnSync("npx", ["vitest", "run", ...projects, "app/server/orders/money-properties.db.test.ts"], { stdio: "inherit", env });
console.log(`money properties: MONEY_SEED=${seed} ${run.status === 0 ? "passed" : "FAILED (replay with this seed)"}`);
process.exit(run.status ?? 1);
