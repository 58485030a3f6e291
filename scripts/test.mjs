#!/usr/bin/env node
// `npm test`: the whole suite, as CI runs it.
//   1. a browser check: no Chromium is a failure, never a skip
//   2. remix build (Playwright and the production-start test run the built server)
//   3. alone, the two stages that measure CPU time or latency: the rendered-screenshot OCR corpus
//      (vitest.ocr.config.ts) and the load smoke (`node scripts/load.mjs --smoke`; `npm run
//      test:load` is the full 200 × 60 s)
//   4. then two lanes at once:
//      - vitest run (lib, unit, db-sqlite; a worker per core), then playwright test (browser
//        tests against `node server.mjs`): these keep the cores busy;
//      - the security suite (`npm run test:security`: malformed bodies, cross-origin posts,
//        access, headers, secrets, XSS and login brute force against the built app in production
//        mode) beside the fault suite (`npm run test:faults`: crashes, slow and failing outside
//        systems, two instances), then, when TEST_DATABASE_URL is set and the first lane's
//        vitest has ended, vitest's db-postgres project, which so runs beside Playwright (whose
//        journeys leave part of the cores idle) instead of lengthening the first lane or
//        starving beside its vitest. The fault suite mostly waits on the servers it
//        starts, its sleeps and its timeouts, so beside the security suite it costs that suite
//        about a quarter of its time and saves the lane the faults' own minute and a half; beside
//        db-postgres instead it slowed that stage by a third and its money property test ran past
//        its timeout (both suites' PostgreSQL work at once), so it is kept apart from it.
//      The first lane prints as it goes; the second lane's output is kept and printed whole when
//      each of its stages ends (tests/.tmp/reports/<stage>.log keeps it too).
// Every stage runs even when an earlier one failed; the exit code is non-zero if any failed.
// The last line is "N passed, M failed" (", K skipped" when some were), summed over all runners.
//
// `--full` (`npm run test:full`): the same stages with the long sweeps complete (TEST_FULL=1): every
// screenshot of the OCR corpus, all 200 malformed bodies to every action route and 100 served
// captchas to the captcha solver, where `npm test` takes a sample of each (docs/testing.md).
// `--serial`: no lanes, one stage after another.
// `--help` prints this and exits.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { browserTestsChromium, HEADLESS_SHELL } from "./lib/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (process.argv.includes("--help")) {
  console.log(
    "npm test: browser check, build, OCR corpus, load smoke; then vitest (lib, unit, db-sqlite) and Playwright,\n" +
      "  with security beside faults, then vitest's db-postgres (when PostgreSQL answers), beside them.\n" +
      "  --full   the long sweeps complete (npm run test:full): the whole OCR corpus, 200 malformed bodies per action route, 100 captchas to the solver\n" +
      "  --serial every stage after the other (security, faults and db-postgres no longer beside vitest and Playwright)\n" +
      "Stages, tiers and what each covers: docs/testing.md",
  );
  process.exit(0);
}
const full = process.argv.includes("--full");
const serial = process.argv.includes("--serial");
if (full) process.env.TEST_FULL = "1";
const reports = path.join(root, "tests/.tmp/reports");
const bin = {
  remix: path.join(root, "node_modules/@remix-run/dev/dist/cli.js"),
  vitest: path.join(root, "node_modules/vitest/vitest.mjs"),
  playwright: path.join(root, "node_modules/@playwright/test/cli.js"),
};

const stageTimes = [];
const suiteStarted = Date.now();

/**
 * Runs one stage. With `quiet`, the stage's output goes to tests/.tmp/reports/<label>.log and is
 * printed whole when it ends, so a stage running beside another does not interleave its lines.
 */
function run(label, args, env = {}, { quiet = false } = {}) {
  const command = `${label}: node ${args.map((arg) => path.relative(root, arg) || arg).join(" ")}`;
  const started = Date.now();
  const log = quiet ? path.join(reports, `${label}.log`) : null;
  if (log) console.log(`\n▷ ${command} (beside the other lane; its output follows when it ends)`);
  else console.log(`\n▶ ${command}`);
  return new Promise((resolve) => {
    const output = log ? fs.openSync(log, "w") : null;
    const stdio = output === null ? "inherit" : ["ignore", output, output];
    const child = spawn(process.execPath, args, { cwd: root, stdio, env: { ...process.env, ...env } });
    let finished = false;
    const finish = (text, code) => {
      if (finished) return;
      finished = true;
      const seconds = (Date.now() - started) / 1000;
      stageTimes.push([label, seconds]);
      if (output !== null) {
        fs.closeSync(output);
        console.log(`\n▶ ${command} (output of the run that just ended)`);
        process.stdout.write(fs.readFileSync(log, "utf8"));
      }
      console.log(`◀ ${label}: ${text} after ${seconds.toFixed(1)} s`);
      resolve(code);
    };
    child.on("error", (error) => {
      console.error(`✗ ${label} could not start: ${error.message}`);
      finish("could not start", 1);
    });
    child.on("exit", (code, signal) => finish(signal ? `killed by ${signal}` : `exit ${code}`, code ?? 1));
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
try {
  fs.accessSync(chromium, fs.constants.X_OK);
} catch {
  console.error(
    `✗ No Chromium at ${chromium}${process.env.CHROMIUM_PATH ? " (CHROMIUM_PATH)" : ""}.\n` +
      "  The browser tests need the system Chromium: `apt-get install chromium` (Debian) or set CHROMIUM_PATH.\n" +
      "  A missing browser fails the suite; it is never skipped. (Never `npx playwright install`.)",
  );
  process.exit(1);
}
// Playwright's journeys run in the headless shell when it is installed (scripts/lib/chromium.mjs);
// the OCR corpus draws its screenshots in the full Chromium checked above.
const browserTests = browserTestsChromium();
if (browserTests !== HEADLESS_SHELL && !process.env.CHROMIUM_PATH) {
  console.log(`⚠ No ${HEADLESS_SHELL} (Debian: \`apt-get install chromium-headless-shell\`): the browser tests run in the full Chromium, about 1.8 times the CPU`);
}
for (const [name, file] of Object.entries(bin)) {
  if (!fs.existsSync(file)) {
    console.error(`✗ ${name} is not installed (${path.relative(root, file)} missing): run \`npm ci\` first.`);
    process.exit(1);
  }
}

// Both dialects without any setting: with no TEST_DATABASE_URL, the local PostgreSQL the README
// names (postgres@127.0.0.1:5432, trust auth; its `test` database created when missing) is used
// when it answers. Without one the PostgreSQL half is skipped, said loudly, never silently.
if (!process.env.TEST_DATABASE_URL) {
  const local = await localPostgres();
  if (local) {
    process.env.TEST_DATABASE_URL = local;
    console.log(`PostgreSQL answers at ${local}: the db tests run on SQLite and on PostgreSQL`);
  } else {
    console.log("⚠ No PostgreSQL at 127.0.0.1:5432 and no TEST_DATABASE_URL: the db tests run on SQLite only (the PostgreSQL half is skipped)");
  }
}

fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedStages = [];

if ((await run("build", [bin.remix, "build"])) !== 0) {
  failedStages.push("build");
  console.error("✗ The build failed: the tests run against the built app, so they were not run.");
  console.log(`\n0 passed, 1 failed`);
  process.exit(1);
}

// --- Vitest runs (the projects of vitest.config.ts and the suites with their own config) ------
async function vitestStage(label, extraArgs, options) {
  const report = path.join(reports, `${label}.json`);
  const code = await run(
    label,
    [bin.vitest, "run", ...extraArgs, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    {},
    options,
  );
  const result = readJson(report);
  let failed = 0;
  if (result) {
    totals.passed += result.numPassedTests ?? 0;
    totals.skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
    failed = result.numFailedTests ?? 0;
    // A file that failed to load (syntax error, failing setup) has no failed test of its own.
    failed += (result.testResults ?? []).filter(
      (file) => file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed"),
    ).length;
  }
  if (code !== 0) {
    failedStages.push(label);
    if (failed === 0) failed = 1; // it failed without naming a test (crash, unhandled error)
  }
  totals.failed += failed;
}

// --- Load smoke: scripts/load.mjs at a small size (`npm run test:load` runs the full size) ----
// It writes {passed, failed} to its report: each check (no 5xx, no lost write, …) counts once.
async function loadSmoke() {
  const loadScript = path.join(root, "scripts/load.mjs");
  if (!fs.existsSync(loadScript)) return;
  const loadReport = path.join(reports, "load.json");
  const code = await run("load smoke", [loadScript, "--smoke", "--report", loadReport]);
  const result = readJson(loadReport);
  totals.passed += result?.passed ?? 0;
  let failed = result?.failed ?? 0;
  if (code !== 0) {
    failedStages.push("load smoke");
    if (failed === 0) failed = 1;
  }
  totals.failed += failed;
}

// --- Playwright -----------------------------------------------------------------------------
async function playwrightStage() {
  const playwrightReport = path.join(reports, "playwright.json");
  const playwrightCode = await run("playwright", [bin.playwright, "test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    CHROMIUM_PATH: browserTests,
  });
  const playwright = readJson(playwrightReport);
  let playwrightFailed = 0;
  if (playwright?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = playwright.stats;
    totals.passed += expected + flaky;
    if (flaky > 0) console.log(`⚠ ${flaky} Playwright test(s) passed only on retry (flaky): see the list above`);
    playwrightFailed = unexpected;
    totals.skipped += skipped;
    // Errors outside any test (the web server did not start, a spec failed to load).
    if (unexpected === 0 && (playwright.errors ?? []).length > 0) playwrightFailed += playwright.errors.length;
  }
  if (playwrightCode !== 0) {
    failedStages.push("playwright");
    if (playwrightFailed === 0) playwrightFailed = 1;
  }
  totals.failed += playwrightFailed;
}

// Alone first: the OCR corpus asserts CPU time per screenshot and the load smoke answers under
// load, figures that another stage beside them would skew.
await vitestStage("ocr-corpus", ["--config", "vitest.ocr.config.ts"]);
await loadSmoke();
// Then the two lanes (see the top of this file): the cores are kept busy by the first, and the
// second, which mostly waits, fills the gaps.
// `--serial` runs them one after another instead (slower; for telling whether a failure in a
// lane comes from running beside the other).
// With PostgreSQL, the dialect-sensitive db tests (db-postgres) are the second lane's last stage,
// started once the first lane's vitest has ended: Playwright leaves room beside it, where two
// vitest runs at once starve both (db-postgres' timing tests measured 3–5× their quiet figures).
// The security and fault suites before it run side by side (with `--serial`, one after the other).
const postgres = Boolean(process.env.TEST_DATABASE_URL);
let vitestEnded = () => {};
const vitestDone = new Promise((resolve) => (vitestEnded = resolve));
const lanes = [
  async () => {
    await vitestStage("vitest", postgres ? ["--project", "lib", "--project", "unit", "--project", "db-sqlite"] : []);
    vitestEnded();
    await playwrightStage();
  },
  async () => {
    const security = () => vitestStage("security", ["--config", "vitest.security.config.ts"], { quiet: !serial });
    const faults = () => vitestStage("faults", ["--config", "vitest.faults.config.ts"], { quiet: !serial });
    if (serial) {
      await security();
      await faults();
    } else await Promise.all([security(), faults()]);
    if (!postgres) return;
    await vitestDone;
    await vitestStage("vitest-postgres", ["--project", "db-postgres"], { quiet: !serial });
  },
];
if (serial) for (const lane of lanes) await lane();
else await Promise.all(lanes.map((lane) => lane()));

// --- Summary --------------------------------------------------------------------------------
console.log("");
console.log(
  `Stages${full ? " (--full)" : ""}${serial ? " (--serial)" : ""}, in the order they ended: ${stageTimes.map(([label, seconds]) => `${label} ${seconds.toFixed(0)} s`).join(", ")}; ` +
    `${((Date.now() - suiteStarted) / 1000).toFixed(0)} s in all`,
);
if (failedStages.length > 0) console.log(`✗ failed: ${failedStages.join(", ")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(failedStages.length > 0 || totals.failed > 0 ? 1 : 0);

async function localPostgres() {
  const { default: pg } = await import("pg");
  const server = "postgres://postgres@127.0.0.1:5432";
  const client = new pg.Client({ connectionString: `${server}/postgres`, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = 'test'");
    if (found.rowCount === 0) await client.query("CREATE DATABASE test");
    return `${server}/test`;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}
