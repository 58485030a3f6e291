#!/usr/bin/env node
// `npm run budget`: what a first visit of each page route downloads, measured on the production
// build in the system Chromium. Builds, starts server.mjs on a free port with a throwaway SQLite
// database, logs in a student and an operator (session rows, as the e2e fixtures do), opens each
// sample URL in a fresh browser context and records every script the browser fetches until the
// network is idle: the modulepreloads and the entry, and whatever lazy route discovery or a
// prefetch pulls in after hydration. Each script counts once per page, gzip level 9.
// The rules (scripts/lib/budget-rules.mjs, decision 027): every page route of app/routes is
// measured (a page route without a sample fails the gate; resource routes are skipped); at most
// 110 KB of first-visit JS on an interactive route, 5 KB on a static one (handle.hydrate = false);
// a static page's HTML at most 30 KB gzip. Exit 1 on any failure.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { chromium } from "@playwright/test";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { freePort } from "./lib/app-server.mjs";
import { CHROMIUM_FLAGS } from "./lib/chromium.mjs";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);
import { evaluate, KB, LIMITS, pageRoutes, readRouteFiles } from "./lib/budget-rules.mjs";

const STATIC_HTML_LIMIT_KB = 30;

// A sample URL for every page route. `anonymous`: measured logged out (a logged-in student
// opening the login page is sent on); `operator`: with an admin operator's session; `redirects`:
// a page that only redirects (measured where it lands).
const SAMPLES = [
  { url: "/market" },
  { url: "/market/checkout" },
  { url: "/market/checkout/coupon" }, // the coupon detail dialog over the checkout (its quote of the seeded parcel)
  { url: "/market/address" },
  { url: "/market/address/9001" },
  { url: "/market/parcel/budget-1" },
  { url: "/market/promo-activity" },
  { url: "/market/promo-activity/invites" },
  { url: "/market/invite" },
  { url: "/market/pay/E20260101000001" },
  { url: "/schedule" },
  { url: "/schedule/mutual-help?term=2026-2027-1&week=1&course=0" },
  { url: "/schedule/courses/new?term=2026-2027-1&week=1" },
  { url: "/schedule/import?term=2026-2027-1&week=1" },
  { url: "/schedule/courses/edit?term=2026-2027-1&week=1&edit=9001" }, // the budget student's own course
  { url: "/admin/school-calendar", operator: true },
  { url: "/circle" },
  { url: "/circle?sort=hot" },
  { url: "/circle/search?q=%E9%A3%9F%E5%A0%82" },
  { url: "/post/1" },
  { url: "/post/1/comment?reply=1" },
  { url: "/post/1/images/1" },
  { url: "/post/1/report" },
  { url: "/post/1/delete" },
  { url: "/post/9001/help" }, // the mutual-help request loginStudent() adds
  { url: "/publish-post" },
  { url: "/treasure" },
  { url: "/backpack" },
  { url: "/backpack/settings" },
  { url: "/backpack/profile" },
  { url: "/backpack/inbox" },
  { url: "/backpack/grades" },
  { url: "/backpack/exams" },
  { url: "/backpack/posts" },
  { url: "/backpack/favourites" },
  { url: "/about" },
  { url: "/blog" },
  { url: "/blog?read=1" },
  { url: "/blog/article/1" },
  { url: "/CustomerService" },
  { url: "/crLogin", anonymous: true },
  { url: "/orders" },
  { url: "/express/orders/E20260101000001" },
  { url: "/express/orders/E20260101000001/cancel" },
  { url: "/express/orders/E20260101000001/refund" },
  { url: "/express/orders/E20260101000001/review" },
  { url: "/express/orders/E20260101000001/contact" },
  { url: "/admin/orders", operator: true },
  { url: "/admin/orders?order=E20260101000001", operator: true },
  { url: "/admin/orders?order=E20260101000001&panel=cancel", operator: true },
  { url: "/admin/refunds", operator: true },
  { url: "/admin/recognition", operator: true },
  { url: "/admin/audit", operator: true },
  { url: "/admin/login", anonymous: true },
  { url: "/admin/settings", operator: true },
  { url: "/admin/moderation", operator: true },
  { url: "/admin/schools", operator: true },
  { url: "/admin/campuses", operator: true },
  { url: "/admin/campuses/jinpenling", operator: true },
  { url: "/admin/delivery-slots", operator: true },
  { url: "/admin/riders", operator: true },
  { url: "/admin/pick-list", operator: true },
  { url: "/admin/run", operator: true },
  { url: "/admin/reconciliation", operator: true },
  { url: "/wx/callback?error=access_denied&message=cancelled" },
  { url: "/no-such-page" },
];

// Page route files deliberately not measured, with the reason.
const NOT_MEASURED = {
  "api.wechat.simulate.tsx": "the simulated messenger provider: development only, 404 in production",
  "api.wechat.simulate-subscribe.tsx": "the simulated subscribe confirm page: development only, 404 in production",
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

function fail(message) {
  console.error(`✗ ${message}`);
  process.exitCode = 1;
}

// --- build ----------------------------------------------------------------------------------
if (!process.argv.includes("--no-build")) {
  console.log("▶ remix build");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error("✗ the build failed");
    process.exit(1);
  }
}

// --- server ---------------------------------------------------------------------------------
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "campus-budget-"));
const dbFile = path.join(tmp, "app.db");
const secret = crypto.randomBytes(24).toString("hex");
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let serverOutput = "";
const server = spawn(process.execPath, ["server.mjs"], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"],
  env: {
    ...process.env,
    NODE_ENV: "production",
    ALLOW_ANY_BROWSER: "true", // measure the pages themselves, not the outside-messenger redirect
    SEED_DEMO_DATA: "true", // the demo school and campuses the measured pages show
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${dbFile}`,
    SESSION_SECRET: secret,
    APP_ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"),
    LOG_LEVEL: "warn",
  },
});
server.stdout.on("data", (chunk) => (serverOutput += chunk));
server.stderr.on("data", (chunk) => (serverOutput += chunk));

function cleanup() {
  if (server.exitCode === null) server.kill("SIGTERM");
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on("exit", cleanup);
process.on("SIGINT", () => process.exit(130));

let browser;
try {
  await waitForHealth();
  const cookie = await loginStudent();
  const operatorCookie = await loginOperator();
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_FLAGS });
  const sizes = new Map(); // script URL → gzip bytes, fetched once
  const measurements = [];
  for (const sample of SAMPLES) {
    measurements.push(await measure(sample, sample.anonymous ? undefined : sample.operator ? operatorCookie : cookie, sizes));
  }
  const routes = pageRoutes(readRouteFiles(path.join(root, "app/routes")));
  const { rows, failures } = evaluate({ routes, samples: SAMPLES, notMeasured: NOT_MEASURED, measurements });
  for (const row of rows) {
    if (row.static && row.html > STATIC_HTML_LIMIT_KB * KB) failures.push(`${row.url}: ${(row.html / KB).toFixed(1)} KB of HTML (gzip) is over the ${STATIC_HTML_LIMIT_KB} KB budget of a static page`);
  }
  printTable(rows, failures);
  if (process.argv.includes("--json")) fs.writeFileSync(process.argv[process.argv.indexOf("--json") + 1], JSON.stringify(rows, null, 2));
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${serverOutput}`);
} finally {
  await browser?.close();
  cleanup();
}

// --- helpers --------------------------------------------------------------------------------

async function waitForHealth() {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (code ${server.exitCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not become healthy within 30 s");
}

async function loginStudent() {
  const database = new Database(dbFile, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    const now = new Date();
    const iso = now.toISOString();
    const user = database
      .prepare(
        // A nickname of their own: /publish-post asks for one first otherwise.
        `INSERT INTO users (school_code, student_id, real_name, nickname, nickname_key, openid, campus_code, wechat_authorized_at, student_bound_at, created_at, updated_at)
         VALUES ('demo', 'budget0001', '预算测试', '预算测试', '预算测试', 'oBudget000000000000000000001', 'jinpenling', ?, ?, ?, ?) RETURNING id`,
      )
      .get(iso, iso, iso, iso);
    // The sample order of the order pages (/express/orders/…, /market/pay/…), unpaid: every action shows.
    database
      .prepare(
        `INSERT INTO orders (order_number, user_id, campus_code, campus_name, recipient_name, recipient_phone, recipient_dorm, recipient_room,
           delivery_address, pickup_codes, package_counts, parcel_count, original_fen, amount_fen, status, payment_status,
           estimated_delivery_at, expires_at, created_at, updated_at)
         VALUES ('E20260101000001', ?, 'jinpenling', '金盆岭校区', '预算测试', '13800138000', '西苑1栋', '101', '金盆岭校区 西苑1栋101',
           '[{"company":"中通快递","pickupCode":"5-5-1201","stationName":"梨园菜鸟驿站"}]', '{"pocket":1}', 1, 120, 120, 'created', 'pending', ?, ?, ?, ?)`,
      )
      .run(user.id, iso, new Date(now.getTime() + 86_400_000).toISOString(), iso, iso);
    // A course of the student's own: the timetable's edit screen answers itself.
    database
      .prepare(
        `INSERT INTO timetable_edits (id, user_id, term, kind, name, teacher, location, weekday, start_period, end_period, weeks, note, created_at, updated_at)
         VALUES (9001, ?, '2026-2027-1', 'own', '考研英语', '', '图书馆', 1, 1, 2, '[1,2,3]', '', ?, ?)`,
      )
      .run(user.id, iso, iso);
    // A checkout with one parcel and a saved address: the market's sheets (checkout, parcel,
    // address list and form) answer themselves instead of sending the student back to /market.
    database
      .prepare(`INSERT INTO checkouts (user_id, campus_code, entries, created_at, updated_at) VALUES (?, 'jinpenling', ?, ?, ?)`)
      .run(
        user.id,
        JSON.stringify([{ id: "budget-1", company: "中通快递", trackingNumber: null, pickupCode: "5-5-1201", stationName: "梨园菜鸟驿站", pickupType: "code", source: "text" }]),
        iso,
        iso,
      );
    // Another student's open mutual-help request (category 3): /post/:id/help answers it.
    const asker = database
      .prepare(`INSERT INTO users (school_code, student_id, real_name, nickname, created_at, updated_at) VALUES ('demo', 'budget0002', '求助同学', '求助同学', ?, ?) RETURNING id`)
      .get(iso, iso);
    database
      .prepare(
        `INSERT INTO posts (id, user_id, category_id, title, content, status, visibility, is_anonymous, view_count, comment_count, like_count, moderation, created_at, updated_at)
         VALUES (9001, ?, 3, '求带饭', '今晚求带一份饭', 'ongoing', 'public', 0, 0, 0, 0, 'visible', ?, ?)`,
      )
      .run(asker.id, iso, iso);
    const building = database.prepare(`SELECT name FROM dorm_buildings WHERE campus_code = 'jinpenling' ORDER BY sort_order LIMIT 1`).get();
    database
      .prepare(`INSERT INTO addresses (id, user_id, name, phone, campus_code, building, room, is_default, created_at, updated_at) VALUES (9001, ?, '预算测试', '13800138000', 'jinpenling', ?, '101', 1, ?, ?)`)
      .run(user.id, building?.name ?? "西苑1栋", iso, iso);
    const sessionId = crypto.randomBytes(32).toString("base64url");
    database
      .prepare(
        `INSERT INTO sessions (id, user_id, device_id, platform, created_at, expires_at)
         VALUES (?, ?, 'budget-device', 'web', ?, ?)`,
      )
      .run(sessionId, user.id, iso, new Date(now.getTime() + 365 * 86_400_000).toISOString());
    const setCookie = await createCookie("__session", { secrets: [secret] }).serialize(sessionId);
    return setCookie.split(";")[0];
  } finally {
    database.close();
  }
}

/** An operator and an open operator session (what `npm run admin:create` and a login leave behind). */
async function loginOperator() {
  const database = new Database(dbFile, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    const now = new Date();
    const iso = now.toISOString();
    const operator = database
      .prepare(
        `INSERT INTO operators (username, display_name, password_hash, role, openid, disabled, created_at, last_login_at)
         VALUES ('budget-op', '预算管理员', 'x', 'admin', NULL, 0, ?, ?) RETURNING id`,
      )
      .get(iso, iso);
    const sessionId = crypto.randomBytes(32).toString("base64url");
    database
      .prepare(`INSERT INTO operator_sessions (id, operator_id, created_at, expires_at, ended_at) VALUES (?, ?, ?, ?, NULL)`)
      .run(sessionId, operator.id, iso, new Date(now.getTime() + 3_600_000).toISOString());
    const setCookie = await createCookie("__operator", { secrets: [secret], path: "/admin" }).serialize(sessionId);
    return setCookie.split(";")[0];
  } finally {
    database.close();
  }
}

function gzipSize(text) {
  return zlib.gzipSync(text, { level: 9 }).length;
}

/** One sample in a fresh browser context: every same-origin script fetched until the network is idle. */
async function measure(sample, cookie, sizes) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", timezoneId: "Asia/Shanghai" });
  try {
    if (cookie) {
      const [name, value] = cookie.split("=");
      await context.addCookies([{ name, value: cookie.slice(name.length + 1) || value, url: base }]);
    }
    const page = await context.newPage();
    const scripts = new Set();
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.origin === new URL(base).origin && (request.resourceType() === "script" || url.pathname.endsWith(".js"))) scripts.add(url.href);
    });
    const response = await page.goto(new URL(sample.url, base).href, { waitUntil: "networkidle", timeout: 30_000 });
    if (!response) return { url: sample.url, error: "no response" };
    const html = await response.text().catch(() => "");
    const final = new URL(page.url());
    let js = 0;
    for (const script of scripts) {
      if (!sizes.has(script)) {
        const asset = await fetch(script);
        if (!asset.ok) throw new Error(`${sample.url}: ${script} answered ${asset.status}`);
        sizes.set(script, gzipSize(Buffer.from(await asset.arrayBuffer())));
      }
      js += sizes.get(script);
    }
    // BUDGET_SCRIPTS=1 lists each page's scripts by size: where a page's kilobytes come from.
    if (process.env.BUDGET_SCRIPTS === "1") {
      const list = [...scripts].map((script) => `${(sizes.get(script) / KB).toFixed(1).padStart(6)} ${new URL(script).pathname}`);
      console.log(`${sample.url}\n${list.sort().reverse().join("\n")}`);
    }
    return { url: sample.url, status: response.status(), finalUrl: final.pathname + final.search, scripts: scripts.size, js, html: gzipSize(html) };
  } catch (error) {
    return { url: sample.url, error: error instanceof Error ? error.message.split("\n")[0] : String(error) };
  } finally {
    await context.close();
  }
}

function printTable(rows, failures) {
  const kb = (bytes) => (bytes / KB).toFixed(1);
  const lines = [["sample", "route", "status", "scripts", "JS gzip KB", "limit", "HTML gzip KB", ""]];
  for (const row of rows) {
    const final = row.finalUrl && row.finalUrl !== row.url ? `→ ${row.finalUrl}` : "";
    lines.push([
      row.url.length > 44 ? `${row.url.slice(0, 41)}…` : row.url,
      row.route ?? "-",
      String(row.status ?? "-"),
      row.error ? "-" : String(row.scripts),
      row.error ? "-" : kb(row.js),
      `${row.limitKb}${row.static ? " (static)" : ""}`,
      row.error ? "-" : kb(row.html),
      row.error ? `✗ ${row.error}` : final,
    ]);
  }
  const widths = lines[0].map((_, column) => Math.max(...lines.map((line) => line[column].length)));
  console.log("");
  for (const [index, line] of lines.entries()) {
    console.log(line.map((cell, column) => (column >= 2 && column <= 6 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join("  ").trimEnd());
    if (index === 0) console.log(widths.map((width) => "-".repeat(width)).join("  "));
  }
  const measured = rows.filter((row) => !row.error && typeof row.js === "number");
  const worst = (list) => list.reduce((max, row) => (row.js > (max?.js ?? -1) ? row : max), null);
  const interactive = worst(measured.filter((row) => !row.static));
  const still = worst(measured.filter((row) => row.static));
  console.log(
    `\nBudget: first-visit JS ≤ ${LIMITS.interactiveKb} KB gzip on an interactive route (largest: ${interactive?.url ?? "-"} ${interactive ? kb(interactive.js) : "-"} KB), ` +
      `≤ ${LIMITS.staticKb} KB on a static one (largest: ${still?.url ?? "-"} ${still ? kb(still.js) : "-"} KB); static HTML ≤ ${STATIC_HTML_LIMIT_KB} KB. 1 KB = ${KB} bytes, zlib level 9.`,
  );
  for (const failure of failures) fail(failure);
  console.log(failures.length > 0 ? "✗ over budget or not measured" : "✓ within budget, every page route measured");
}
