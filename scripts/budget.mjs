#!/usr/bin/env node
// `npm run budget`: what a first visit of each page downloads, measured on the production build.
// Builds, starts server.mjs on a free port with a throwaway SQLite database, logs in a student
// (a user + session row, as the e2e fixture does), fetches every page route's HTML and sums the
// gzip size (zlib level 9) of every script the page references: <link rel="modulepreload">,
// <script src> and the modules the inline bootstrap script imports.
// Fails (exit 1) when a route's JS is over 100 KB gzip or a static page's HTML is over 30 KB gzip
// (1 KB = 1024 bytes), or when a route cannot be measured (5xx, no response).
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { freePort } from "./lib/app-server.mjs";

const JS_LIMIT_KB = 100;
const STATIC_HTML_LIMIT_KB = 30;
const KB = 1024;

// Every page route of the app with a sample URL for its parameters. `anonymous` pages are measured
// logged out (a logged-in student opening the login page is sent to /schedule).
const ROUTES = [
  { url: "/market" },
  { url: "/market/promo-activity" },
  { url: "/market/promo-activity/invites" },
  { url: "/market/invite" },
  { url: "/market/campus" },
  { url: "/schedule" },
  { url: "/schedule/mutual-help?term=2026-2027-1&week=1&course=0" },
  { url: "/circle" },
  { url: "/post/1" },
  { url: "/post/1/comment?reply=1" },
  { url: "/post/1/images/1" },
  { url: "/post/1/report" },
  { url: "/post/1/delete" },
  { url: "/post/3/help" }, // the demo's mutual-help request
  { url: "/publish-post" },
  { url: "/treasure", static: true },
  { url: "/backpack" },
  { url: "/backpack/settings" },
  { url: "/backpack/profile" },
  { url: "/backpack/inbox" },
  { url: "/backpack/points" },
  { url: "/backpack/posts" },
  { url: "/about", static: true },
  { url: "/blog", static: true },
  { url: "/blog?read=1", static: true },
  { url: "/blog/article/1", static: true },
  { url: "/CustomerService", static: true },
  { url: "/crLogin", anonymous: true },
  { url: "/login", anonymous: true },
  { url: "/orders" },
  { url: "/express/orders/E20260101000001" },
  { url: "/express/orders/E20260101000001/cancel" },
  { url: "/express/orders/E20260101000001/refund" },
  { url: "/express/orders/E20260101000001/review" },
  { url: "/express/orders/E20260101000001/contact" },
  { url: "/market/pay/E20260101000001" },
  // Operator pages are measured with an operator session (a student would get the operator login).
  { url: "/admin/orders", operator: true },
  { url: "/admin/orders?order=E20260101000001", operator: true },
  { url: "/admin/orders?order=E20260101000001&panel=cancel", operator: true },
  { url: "/admin/refunds", operator: true },
  { url: "/admin/audit", operator: true },
  { url: "/admin/login", anonymous: true },
  { url: "/admin/settings", operator: true },
  { url: "/admin/moderation", operator: true },
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

try {
  await waitForHealth();
  const cookie = await loginStudent();
  const operatorCookie = await loginOperator();
  const rows = [];
  const sizes = new Map(); // script URL → gzip bytes, fetched once
  for (const route of ROUTES) rows.push(await measure(route, route.anonymous ? undefined : route.operator ? operatorCookie : cookie, sizes));
  printTable(rows);
  warnUnlistedRoutes();
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${serverOutput}`);
} finally {
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
        `INSERT INTO users (school_code, student_id, real_name, openid, wechat_authorized_at, student_bound_at, created_at, updated_at)
         VALUES ('demo', 'budget0001', '预算测试', 'oBudget000000000000000000001', ?, ?, ?, ?) RETURNING id`,
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
         VALUES ('budget-op', '预算配送员', 'x', 'operator', NULL, 0, ?, ?) RETURNING id`,
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

/** The scripts a page makes the browser download: modulepreloads, script src, inline imports. */
export function scriptUrls(html) {
  const urls = new Set();
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    if (/\brel=["']?modulepreload\b/i.test(tag)) {
      const href = /\bhref=["']([^"']+)["']/i.exec(tag)?.[1];
      if (href) urls.add(href);
    }
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = /\bsrc=["']([^"']+)["']/i.exec(match[1])?.[1];
    if (src) urls.add(src);
    if (/\btype=["']?module\b/i.test(match[1])) {
      for (const imported of match[2].matchAll(/\bimport\s*(?:[^"'()]*?\bfrom\s*)?\(?\s*["']([^"']+\.js)["']/g)) urls.add(imported[1]);
    }
  }
  return [...urls].map((url) => url.replaceAll("&amp;", "&"));
}

async function measure(route, cookie, sizes) {
  let url = route.url;
  const hops = [];
  let response;
  for (let hop = 0; hop < 5; hop++) {
    response = await fetch(new URL(url, base), { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
    if (response.status < 300 || response.status >= 400) break;
    const location = response.headers.get("location");
    if (!location) break;
    hops.push(response.status);
    url = new URL(location, new URL(url, base)).pathname + new URL(location, new URL(url, base)).search;
  }
  const html = await response.text();
  const row = { route: route.url, status: response.status, final: url !== route.url ? url : "", static: Boolean(route.static) };
  if (response.status >= 500) {
    row.error = `HTTP ${response.status}`;
    return row;
  }
  const scripts = scriptUrls(html);
  let js = 0;
  for (const script of scripts) {
    const absolute = new URL(script, base).href;
    if (!sizes.has(absolute)) {
      const asset = await fetch(absolute);
      if (!asset.ok) throw new Error(`${route.url}: ${script} answered ${asset.status}`);
      sizes.set(absolute, gzipSize(Buffer.from(await asset.arrayBuffer())));
    }
    js += sizes.get(absolute);
  }
  return { ...row, scripts: scripts.length, js, html: gzipSize(html) };
}

function printTable(rows) {
  const kb = (bytes) => (bytes / KB).toFixed(1);
  const lines = [["route", "status", "scripts", "JS gzip KB", "HTML gzip KB", ""]];
  for (const row of rows) {
    const notes = [];
    if (row.error) {
      notes.push(`✗ cannot measure (${row.error})`);
      fail(`${row.route}: ${row.error}`);
    } else {
      if (row.js > JS_LIMIT_KB * KB) {
        notes.push(`✗ JS over ${JS_LIMIT_KB} KB`);
        fail(`${row.route}: ${kb(row.js)} KB of JS (gzip) is over the ${JS_LIMIT_KB} KB budget`);
      }
      if (row.static && row.html > STATIC_HTML_LIMIT_KB * KB) {
        notes.push(`✗ HTML over ${STATIC_HTML_LIMIT_KB} KB`);
        fail(`${row.route}: ${kb(row.html)} KB of HTML (gzip) is over the ${STATIC_HTML_LIMIT_KB} KB budget of a static page`);
      }
    }
    if (row.final) notes.push(`→ ${row.final}`);
    if (row.status === 404 && row.route !== "/no-such-page") notes.push("(404: sample id not in the database, or the page is missing)");
    lines.push([
      row.route.length > 48 ? `${row.route.slice(0, 45)}…` : row.route,
      String(row.status),
      row.error ? "-" : String(row.scripts),
      row.error ? "-" : kb(row.js),
      row.error ? "-" : `${kb(row.html)}${row.static ? " (static)" : ""}`,
      notes.join(" "),
    ]);
  }
  const widths = lines[0].map((_, column) => Math.max(...lines.map((line) => line[column].length)));
  console.log("");
  for (const [index, line] of lines.entries()) {
    console.log(line.map((cell, column) => (column >= 1 && column <= 3 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join("  ").trimEnd());
    if (index === 0) console.log(widths.map((width) => "-".repeat(width)).join("  "));
  }
  const worst = rows.filter((row) => !row.error).reduce((max, row) => (row.js > max.js ? row : max), { js: 0 });
  console.log(
    `\nBudget: JS ≤ ${JS_LIMIT_KB} KB gzip per route (largest: ${worst.route ?? "-"} ${kb(worst.js)} KB); ` +
      `static pages' HTML ≤ ${STATIC_HTML_LIMIT_KB} KB gzip. 1 KB = ${KB} bytes, zlib level 9.`,
  );
  console.log(process.exitCode ? "✗ over budget" : "✓ within budget");
}

/** Page route files (app/routes, flat-routes names) that no URL in ROUTES reaches: add them. */
function warnUnlistedRoutes() {
  const dir = path.join(root, "app/routes");
  const files = fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      const file = ["route.tsx", "route.ts", "route.jsx", "route.js"].map((name) => path.join(entry.name, name)).find((name) => fs.existsSync(path.join(dir, name)));
      return file ? [{ name: entry.name, file }] : [];
    }
    if (!/\.(tsx?|jsx?)$/.test(entry.name) || /\.test\./.test(entry.name)) return [];
    return [{ name: entry.name.replace(/\.(tsx?|jsx?)$/, ""), file: entry.name }];
  });
  const paths = ROUTES.map((route) => route.url.split("?")[0]);
  const unlisted = [];
  for (const { name, file } of files) {
    if (!/export\s+default\b/.test(fs.readFileSync(path.join(dir, file), "utf8"))) continue; // resource route
    if (name === "$" || NOT_MEASURED[file]) continue; // the catch-all is measured through /no-such-page
    const pattern = name
      .split(".")
      .filter((segment) => segment !== "_index" && !/^_/.test(segment))
      .map((segment) => segment.replace(/_$/, ""))
      .map((segment) => (segment === "$" ? ".*" : segment.startsWith("$") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    const regex = new RegExp(`^/${pattern}$`);
    if (!paths.some((url) => regex.test(url))) unlisted.push(`app/routes/${file}`);
  }
  if (unlisted.length > 0) {
    console.log(`\n! Page routes not measured (add a sample URL to ROUTES in scripts/budget.mjs): ${unlisted.join(", ")}`);
  }
}
