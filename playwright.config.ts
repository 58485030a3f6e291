import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS } from "./scripts/lib/chromium.mjs";
import { CHROMIUM_PATH, E2E_BASE_URL, E2E_DB_FILE, E2E_PORT, E2E_SESSION_SECRET, ROOT } from "./tests/e2e/env";

// Browser tests in the system Chromium (never a downloaded one) against the built app, served by
// the production server (server.mjs) on an empty SQLite database. `npm test` builds first;
// alone, run `npm run build && npx playwright test`.
if (!fs.existsSync(path.join(ROOT, "build/index.js"))) {
  throw new Error("build/index.js is missing: run `npm run build` (npm test does it) before Playwright");
}

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  // Three journeys at a time on 2 cores: in the headless shell, without a trace per journey, a
  // journey waits on the server and the browser more than it computes. Eight of the heaviest
  // files took 100 s with 3 workers against 142 s with 2 (decision 055). Files still run one
  // journey after another (fullyParallel: false), each file with students of its own.
  workers: 3,
  forbidOnly: Boolean(process.env.CI),
  // One retry in CI only, reported as "flaky" in the list and in npm test's summary: a timing
  // flake on a loaded 2-core machine must not hide a landing, but it is still shown.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: "list",
  use: {
    baseURL: E2E_BASE_URL,
    viewport: { width: 390, height: 844 },
    locale: "zh-CN",
    timezoneId: "Asia/Shanghai",
    // Recording a trace for every journey, to keep only the failures' ("retain-on-failure"),
    // cost a quarter of the stage's CPU and a third of its time (identity.spec.ts, one worker:
    // 22.7 against 16.6 CPU-seconds, 32 against 19 s). A failure keeps its screenshot and the
    // page's snapshot in error-context.md; in CI its retry records a trace; elsewhere run the
    // failing file again with `--trace on`.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [{ name: "chromium-phone" }],
  webServer: {
    command: "node tests/e2e/reset-db.mjs && node server.mjs",
    url: `${E2E_BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${E2E_DB_FILE}`,
      E2E_DB_FILE,
      NODE_ENV: "test",
      SESSION_SECRET: E2E_SESSION_SECRET,
      LOG_LEVEL: "warn",
      ALLOW_ANY_BROWSER: "true",
      // The login captcha's answer is fixed for browser tests (refused in production).
      CAPTCHA_FIXED_VALUE: "AB23",
      // Every browser of the suite is one loopback client: no fair-share shedding among them.
      CLIENT_MAX_IN_FLIGHT: "10000",
      BUSY_IN_FLIGHT: "100000",
      SHED_EVENT_LOOP_DELAY_MS: "60000",
    },
  },
});
