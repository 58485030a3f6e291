#!/usr/bin/env node
// `npm run test:load` (builds first): load and soak. The production server on a
// throwaway database seeded with a few hundred students and posts; then `--connections` students
// (200), each on its own keep-alive connection and its own account, browse, like, comment,
// recognise SMS and order for `--duration` seconds (60) with no pause between requests. Every
// request goes through the app's own forms and endpoints, as its pages send them: likes and
// comments are the post page's actions (single fetch's `.data` requests, decoded from
// turbo-stream as the page's JavaScript decodes them), recognition is /errands/pickup-code/recognize-text, an order
// is the market's "recognize" form (it fills the server-side checkout), then
// POST /api/express/order_create and /api/pay/wechat/create-payment, paid through the messenger's
// pay API: tests/fakes/wechatpay-server.ts (loaded with tsx) plays the provider behind an https
// front (production insists on https; the certificate is made with openssl), the payer pays and
// the provider's signed notification is posted to /api/pay/wechat/notify.
//
// Each student is used by one connection only, one request at a time, so the driver knows the
// outcome of every write it had acknowledged. Afterwards, with the server stopped, the database
// is checked: every (student, post) like state is what the acknowledged toggles made it, every
// acknowledged comment and order is there (and every acknowledged payment made its order paid),
// every post's like_count and comment_count and every comment's like_count equal its rows, the
// view_count each post gained equals the post_views rows it gained, and the database is sound
// (SQLite: integrity_check and foreign_key_check; PostgreSQL: no orphan rows).
//
// Flags: --smoke (20 connections, 8 s, a smaller seed: `npm test` runs this), --connections N,
//   --duration S, --students N, --posts N, --report FILE (writes { passed, failed, checks, … }),
//   --database-url postgres://user@host:port/db (runs against PostgreSQL: a throwaway database
//   is created on that server and dropped afterwards), --dry-run (start the server with these
//   settings, check /healthz, stop; nothing else), --help. Exit code 1 when any check failed.
import { execFileSync, execSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { ROOT, startAppServer } from "./lib/app-server.mjs";
import { createThrowawayPostgres, isPostgresUrl, openDatabase } from "./lib/database.mjs";
import { seedCampus, studentSessions } from "./lib/seed.mjs";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
function option(name) {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}
function number(name, fallback) {
  const value = option(name);
  return value === undefined ? fallback : Number(value);
}
const smoke = args.includes("--smoke");
// --dry-run: start the production server with exactly this run's settings and stop it once it
// answers /healthz; nothing is seeded or sent. tests/unit/npm-scripts.test.ts proves with it that
// `npm run test:load` starts (the full size's settings were once refused by the configuration).
const dryRun = args.includes("--dry-run");
const connections = number("connections", smoke ? 20 : 200);
const duration = number("duration", smoke ? 8 : 60);
const students = Math.max(number("students", smoke ? 40 : 300), connections);
const posts = number("posts", smoke ? 40 : 300);
const size = { students, posts, comments: posts * 5, likes: posts * 10, orders: students };
const reportFile = option("report");
const postgresServer = option("database-url");
if (postgresServer && !isPostgresUrl(postgresServer)) {
  console.error("--database-url must be a postgres:// URL (the default is a throwaway SQLite file)");
  process.exit(2);
}
const SESSION_SECRET = "load-session-secret-0123456789abcdef";
const APP_ENCRYPTION_KEY = "3c".repeat(32);
/**
 * per-user,per-address/seconds: the defaults' per-user counts (app/lib/rate-limits.ts), addresses
 * as good as unbounded: 9,999,999 is the largest count the configuration accepts (7 digits), far
 * beyond what 200 connections send in a window.
 */
const UNBOUNDED = "9999999";
const FULL_LOAD_RATE_LIMITS = {
  RATE_LIMIT_COMMENT: `60,${UNBOUNDED}/60`,
  RATE_LIMIT_LIKE: `300,${UNBOUNDED}/60`,
  RATE_LIMIT_RECOGNIZE_TEXT: `300,${UNBOUNDED}/60`,
  RATE_LIMIT_ORDER: `120,${UNBOUNDED}/600`,
};
/** What a request may take before it counts as a transport error. */
const REQUEST_TIMEOUT_MS = 60_000;

// What a student does next, by weight: mostly reading, then liking, commenting, recognising, ordering.
const MIX = [
  ["circle", 16],
  ["post", 18],
  ["market", 5],
  ["orders", 5],
  ["like", 24],
  ["comment", 12],
  ["recognize", 10],
  ["order", 10],
];
/** Likes and comments go to one of the few newest posts this often: contention on one row. */
const HOT_SHARE = 0.3;
const HOT_POSTS = 5;
/** This share of orders is left unpaid. */
const UNPAID_SHARE = 0.25;

const SMS_SAMPLES = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/fixtures/pickup-sms-samples.json"), "utf8")).filter(
  (sample) => sample.expected.length > 0,
);

// ---------------------------------------------------------------------------------------------
// The HTTP client: one keep-alive socket per connection, every answer classified.

const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
let base = "";

function send(method, url, headers, body) {
  return new Promise((resolve) => {
    const started = performance.now();
    let socketAt = null;
    let connectedAt = null;
    let headersAt = null;
    const since = (at) => (at === null ? "-" : Math.round(at - started));
    const done = (result) => resolve({ ...result, ms: performance.now() - started, timing: `socket ${since(socketAt)} ms, connected ${since(connectedAt)}, headers ${since(headersAt)}` });
    const request = http.request(base + url, { method, agent, headers, timeout: REQUEST_TIMEOUT_MS }, (response) => {
      headersAt = performance.now();
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => done({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", (error) => done({ error: error.code ?? error.message }));
    });
    request.on("socket", (socket) => {
      socketAt = performance.now();
      if (socket.connecting) socket.once("connect", () => (connectedAt = performance.now()));
      else connectedAt = socketAt;
    });
    request.on("timeout", () => request.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    request.on("error", (error) => done({ error: error.code ?? error.message }));
    request.end(body);
  });
}

const stats = new Map();
function stat(kind) {
  let entry = stats.get(kind);
  if (!entry) {
    entry = { requests: 0, acked: 0, s5xx: 0, transport: 0, unexpected: 0, latencies: [] };
    stats.set(kind, entry);
  }
  return entry;
}
/** The slowest requests: [ms, sent at (s into the run), what]. */
const slowest = [];
let runStartedAt = 0;
function noteSlow(ms, sentAt, what) {
  if (slowest.length >= 5 && ms <= slowest[slowest.length - 1][0]) return;
  slowest.push([ms, (sentAt - runStartedAt) / 1000, what]);
  slowest.sort((a, b) => b[0] - a[0]);
  slowest.length = Math.min(slowest.length, 5);
}
const samples = [];
const sampledPerKind = new Map();
/** The first few failed requests of each kind, for the printout. */
function sample(kind, text) {
  const count = sampledPerKind.get(kind) ?? 0;
  if (count >= 3 || samples.length >= 30) return;
  sampledPerKind.set(kind, count + 1);
  samples.push(`${kind}: ${text}`);
}

/**
 * One request of `kind`. Returns the answer (with .json when the body is JSON) when `expected`
 * accepts it, else null after counting it as a 5xx, a transport error or an unexpected answer.
 */
/** tests/support/single-fetch.ts, loaded with tsx in main(). */
let singleFetch;

async function call(kind, method, url, { cookie, form, json, raw } = {}, expected = (answer) => answer.status === 200) {
  const entry = stat(kind);
  entry.requests += 1;
  const headers = { Accept: form || json ? "application/json" : "text/html" };
  if (cookie) headers.Cookie = cookie;
  let body;
  if (raw) {
    // A machine's request (the pay notification): its own headers, no browser's Origin.
    Object.assign(headers, raw.headers);
    body = raw.body;
  } else if (method !== "GET") headers.Origin = base;
  if (form) {
    body = new URLSearchParams(form).toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  } else if (json) {
    body = JSON.stringify(json);
    headers["Content-Type"] = "application/json";
  }
  const sentAt = performance.now();
  const answer = await send(method, url, headers, body);
  entry.latencies.push(answer.ms);
  noteSlow(answer.ms, sentAt, `${kind} ${method} ${url.replace(/\?.*/, "")} → ${answer.error ?? answer.status} (${answer.timing})`);
  if (answer.error) {
    entry.transport += 1;
    sample(kind, `${method} ${url}: ${answer.error}`);
    return null;
  }
  if (answer.status >= 500) {
    entry.s5xx += 1;
    sample(kind, `${method} ${url}: ${answer.status} ${answer.body.slice(0, 200)}`);
    return null;
  }
  const type = String(answer.headers["content-type"] ?? "");
  if (type.includes("application/json")) {
    try {
      answer.json = JSON.parse(answer.body);
    } catch {}
  } else if (type.includes("text/x-script") && method !== "GET") {
    // A single-fetch action answer: its data, or where it redirects.
    try {
      const decoded = await singleFetch.actionAnswer(answer.body);
      answer.json = decoded.data;
      answer.redirect = decoded.redirect?.redirect;
    } catch {}
  }
  if (!expected(answer)) {
    entry.unexpected += 1;
    sample(kind, `${method} ${url}: ${answer.status}${answer.headers["x-remix-redirect"] ? ` → ${answer.headers["x-remix-redirect"]}` : ""} ${answer.body.slice(0, 200)}`);
    return null;
  }
  return answer;
}

// ---------------------------------------------------------------------------------------------
// What the students do, and what the driver remembers of every acknowledged write.

/** "userId:postId" → liked after the last answer (null: the last toggle's outcome is unknown). */
const likeStates = new Map();
/** "userId:postId" of the seeded likes of the students. */
let initialLikes = new Set();
/** JSON answers that did not flip the state the driver expected. */
let likeFlipMismatches = 0;
/** post id → { views: view_count, rows: post_views rows } before the load. */
let viewsBefore = new Map();
const comments = [];
const orders = [];
const paidOrders = [];
let campus;
let pay;
let postIds = [];
let sequence = 0;

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const digits = (n) => String(Math.floor(Math.random() * 10 ** n)).padStart(n, "0");
const targetPost = () => (Math.random() < HOT_SHARE ? postIds[postIds.length - 1 - Math.floor(Math.random() * HOT_POSTS)] : pick(postIds));

const actions = {
  circle: (student) => call("page /circle", "GET", "/circle", { cookie: student.cookie }),
  post: (student) => call("page /post/:id", "GET", `/post/${pick(postIds)}`, { cookie: student.cookie }),
  market: (student) => call("page /market", "GET", "/market", { cookie: student.cookie }),
  orders: (student) => call("page /orders", "GET", "/orders", { cookie: student.cookie }),

  async like(student) {
    const postId = targetPost();
    const key = `${student.userId}:${postId}`;
    // The page's JavaScript gets the product rules' JSON answer (action: liked/unliked), never a redirect.
    const answer = await call(
      "like",
      "POST",
      `/post/${postId}.data`,
      { cookie: student.cookie, form: { intent: "like", via: "fetcher" } },
      (a) => a.status === 200 && a.json?.success === true && (a.json.action === "liked" || a.json.action === "unliked"),
    );
    const before = likeStates.has(key) ? likeStates.get(key) : initialLikes.has(key);
    if (!answer) {
      likeStates.set(key, null);
      return;
    }
    stat("like").acked += 1;
    // Only this student's connection toggles this student's likes, one at a time: each
    // acknowledged toggle flips the state, and the JSON answer, when there is one, says so too.
    const after = answer.json.action === "liked";
    if (before !== null && after === before) likeFlipMismatches += 1;
    likeStates.set(key, after);
  },

  async comment(student) {
    const postId = targetPost();
    const content = `压测评论 ${student.userId}-${++sequence}：同去！`;
    const answer = await call(
      "comment",
      "POST",
      `/post/${postId}/comment.data`,
      { cookie: student.cookie, form: { intent: "comment", content } },
      // The sheet closes on the new comment: a redirect to /post/:id?…#comment-<id>.
      (a) => a.status === 202 && /#comment-\d+$/.test(a.redirect ?? ""),
    );
    if (!answer) return;
    stat("comment").acked += 1;
    const id = Number(/#comment-(\d+)$/.exec(answer.redirect)[1]);
    comments.push({ id, postId, userId: student.userId, content });
  },

  recognize: (student) =>
    call(
      "recognize-text",
      "POST",
      "/errands/pickup-code/recognize-text",
      { cookie: student.cookie, json: { text_data: pick(SMS_SAMPLES).text } },
      (a) => a.status === 200 && a.json?.success === true && Array.isArray(a.json.data) && a.json.data.length > 0,
    ),

  async order(student) {
    const codes = Array.from({ length: 1 + Math.floor(Math.random() * 2) }, () => `${1 + Math.floor(Math.random() * 9)}-${1 + Math.floor(Math.random() * 9)}-${digits(4)}`);
    const sms = codes.map((code) => `【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 ${code}，请凭码取件。`).join("\n\n");
    // 1. The market's recognition form fills the student's checkout (a new checkout version).
    const filled = await call(
      "checkout (recognize)",
      "POST",
      "/market.data?index",
      { cookie: student.cookie, form: { intent: "recognize", text: sms } },
      (a) => a.status === 200 && a.json?.intent === "recognize" && !a.json.error,
    );
    if (!filled) return;
    stat("checkout (recognize)").acked += 1;
    // 2. The order, from that checkout version.
    const created = await call(
      "order_create",
      "POST",
      "/api/express/order_create",
      {
        cookie: student.cookie,
        json: {
          campus_code: campus.code,
          recipient_name: "压测同学",
          recipient_phone: "13800138000",
          recipient_campus: campus.name,
          recipient_dorm: pick(campus.buildings),
          recipient_room: String(100 + Math.floor(Math.random() * 500)),
          expressCheckoutList: codes.map((pickupCode) => ({ pickupCode, company: "菜鸟驿站", stationName: "梨园菜鸟驿站" })),
          expressPackageCounts: { pocket: 0, small: codes.length, medium: 0, large: 0 },
          remark: "",
        },
      },
      (a) => a.status === 200 && a.json?.success === true && a.json.data?.created === true && /^E\d{14}$/.test(a.json.data.order_id ?? ""),
    );
    if (!created) return;
    stat("order_create").acked += 1;
    const orderNumber = created.json.data.order_id;
    orders.push({ orderNumber, userId: student.userId });
    if (Math.random() < UNPAID_SHARE) return;
    // 3. The payment (the app asks the provider for a prepay id).
    const payment = await call(
      "create-payment",
      "POST",
      "/api/pay/wechat/create-payment",
      { cookie: student.cookie, json: { order_id: orderNumber } },
      (a) => a.status === 200 && a.json?.success === true && Boolean(a.json.data?.pay_params),
    );
    if (!payment) return;
    stat("create-payment").acked += 1;
    // 4. The payer pays; the provider posts its signed, encrypted notification (built by the
    //    fake, sent by this driver like every other request).
    pay.markPaid(orderNumber, { payerOpenid: student.openid });
    const notification = pay.transactionNotification(orderNumber);
    const notified = await call(
      "pay notify",
      "POST",
      "/api/pay/wechat/notify",
      { raw: { headers: { ...notification.headers, "User-Agent": "Mozilla/4.0" }, body: notification.body } },
      (a) => a.status >= 200 && a.status <= 299,
    );
    if (!notified) return;
    stat("pay notify").acked += 1;
    paidOrders.push(orderNumber);
  },
};

const totalWeight = MIX.reduce((sum, [, weight]) => sum + weight, 0);
function nextAction() {
  let roll = Math.random() * totalWeight;
  for (const [name, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return actions[name];
  }
  return actions[MIX[0][0]];
}

async function student(studentState, endAt) {
  while (performance.now() < endAt) await nextAction()(studentState);
}

// ---------------------------------------------------------------------------------------------
// The checks, on the database after the run.

/** post id → its view_count and its post_views rows (views are counted once per student and day). */
async function viewCounts(database) {
  const rows = await database.all("SELECT p.id, p.view_count, (SELECT count(*) FROM post_views v WHERE v.post_id = p.id) AS n FROM posts p");
  return new Map(rows.map((row) => [Number(row.id), { views: Number(row.view_count), rows: Number(row.n) }]));
}

async function verify(database) {
  const results = [];
  const check = (name, ok, detail) => results.push({ name, ok, detail });
  const found = {};

  const likeRows = new Set((await database.all("SELECT post_id, user_id FROM post_likes")).map((row) => `${row.user_id}:${row.post_id}`));
  let likesKnown = 0;
  let likesLost = 0;
  for (const [key, liked] of likeStates) {
    if (liked === null) continue;
    likesKnown += 1;
    if (likeRows.has(key) !== liked) likesLost += 1;
  }
  found.likes = `${likesKnown - likesLost}/${likesKnown} like states`;
  check(
    "no lost likes",
    likesLost === 0 && likeFlipMismatches === 0,
    `${likesKnown} (student, post) like states after the acknowledged toggles, ${likesLost} not so in the database` +
      (likeFlipMismatches > 0 ? `, ${likeFlipMismatches} answers that did not flip the state` : ""),
  );

  const commentRows = new Map((await database.all("SELECT id, post_id, user_id, content FROM comments")).map((row) => [Number(row.id), row]));
  const commentsLost = comments.filter((c) => {
    const row = commentRows.get(c.id);
    return !row || Number(row.post_id) !== c.postId || Number(row.user_id) !== c.userId || row.content !== c.content;
  }).length;
  found.comments = `${comments.length - commentsLost}/${comments.length}`;
  check("no lost comments", commentsLost === 0, `${comments.length} acknowledged, ${commentsLost} missing or different`);

  const orderRows = new Map((await database.all("SELECT order_number, user_id, status, payment_status FROM orders")).map((row) => [row.order_number, row]));
  const ordersLost = orders.filter((o) => Number(orderRows.get(o.orderNumber)?.user_id) !== o.userId).length;
  found.orders = `${orders.length - ordersLost}/${orders.length}`;
  check("no lost orders", ordersLost === 0, `${orders.length} acknowledged, ${ordersLost} missing`);
  const paymentsLost = paidOrders.filter((number) => {
    const row = orderRows.get(number);
    return !row || row.payment_status !== "paid" || row.status !== "paid";
  }).length;
  found.payments = `${paidOrders.length - paymentsLost}/${paidOrders.length} paid`;
  check("no lost payments", paymentsLost === 0, `${paidOrders.length} acknowledged pay notifications, ${paymentsLost} orders not paid`);

  const postCounters = await database.all(
    `SELECT p.id, p.like_count, p.comment_count,
       (SELECT count(*) FROM post_likes l WHERE l.post_id = p.id) AS likes,
       (SELECT count(*) FROM comments c WHERE c.post_id = p.id AND c.moderation = 'visible') AS comments
     FROM posts p`,
  );
  // view_count is a running total (the demo posts start with views and no rows): what it gained
  // during the load must equal the post_views rows added.
  const viewsAfter = await viewCounts(database);
  const wrongPosts = postCounters.filter((row) => {
    const before = viewsBefore.get(Number(row.id)) ?? { views: 0, rows: 0 };
    const after = viewsAfter.get(Number(row.id));
    if (after.views - before.views !== after.rows - before.rows) {
      row.views_gained = after.views - before.views;
      row.view_rows_added = after.rows - before.rows;
      return true;
    }
    return Number(row.like_count) !== Number(row.likes) || Number(row.comment_count) !== Number(row.comments);
  });
  const wrongComments = await database.all(
    "SELECT c.id, c.like_count, (SELECT count(*) FROM comment_likes l WHERE l.comment_id = c.id) AS likes FROM comments c WHERE c.like_count <> (SELECT count(*) FROM comment_likes l WHERE l.comment_id = c.id)",
  );
  found.counters = `${postCounters.length - wrongPosts.length}/${postCounters.length} posts`;
  check(
    "counters equal rows",
    wrongPosts.length === 0 && wrongComments.length === 0,
    `${postCounters.length} posts (like_count, comment_count, views gained), ${commentRows.size} comments (like_count): ${wrongPosts.length + wrongComments.length} wrong` +
      (wrongPosts.length > 0 ? `, e.g. post ${JSON.stringify(wrongPosts[0])}` : "") +
      (wrongComments.length > 0 ? `, e.g. comment ${JSON.stringify(wrongComments[0])}` : ""),
  );

  if (database.dialect === "sqlite") {
    const integrity = (await database.all("PRAGMA integrity_check")).map((row) => row.integrity_check);
    const foreignKeys = await database.all("PRAGMA foreign_key_check");
    const ok = integrity.length === 1 && integrity[0] === "ok" && foreignKeys.length === 0;
    found.integrity = ok ? "ok" : "FAILED";
    check("integrity check", ok, `integrity_check: ${integrity.slice(0, 3).join("; ")}; foreign_key_check: ${foreignKeys.length} rows`);
  } else {
    const orphans = await database.get(
      `SELECT
         (SELECT count(*) FROM comments c WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = c.post_id)) AS comments,
         (SELECT count(*) FROM post_likes l WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = l.post_id) OR NOT EXISTS (SELECT 1 FROM users u WHERE u.id = l.user_id)) AS likes,
         (SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = o.user_id)) AS orders,
         (SELECT count(*) FROM payments y WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = y.order_id)) AS payments`,
    );
    const total = Object.values(orphans).reduce((sum, value) => sum + Number(value), 0);
    found.integrity = total === 0 ? "ok" : "FAILED";
    check("integrity check", total === 0, `orphan rows: ${JSON.stringify(Object.fromEntries(Object.entries(orphans).map(([k, v]) => [k, Number(v)])))}`);
  }
  return { results, found };
}

// ---------------------------------------------------------------------------------------------

/**
 * The app insists on an https pay API in production: an https front for the fake (a certificate
 * for 127.0.0.1 made with openssl, which the server trusts through NODE_EXTRA_CA_CERTS).
 */
async function httpsFront(target, directory) {
  const keyFile = path.join(directory, "front-key.pem");
  const certFile = path.join(directory, "front-cert.pem");
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
      { stdio: "ignore" },
    );
  } catch (error) {
    throw new Error(`openssl (1.1.1 or later) is needed for the pay API's test certificate: ${error.code ?? error.message}`);
  }
  const front = https.createServer({ key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) }, (req, res) => {
    const upstream = http.request(target + req.url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise((resolve) => front.listen(0, "127.0.0.1", resolve));
  return { url: `https://127.0.0.1:${front.address().port}`, certFile, close: () => new Promise((resolve) => front.close(resolve)) };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join("  ")).join("\n");
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-load-"));
let commit = "?";
try {
  commit = execSync("git rev-parse --short HEAD", { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
} catch {}
const report = { passed: 0, failed: 0, checks: [], connections, duration, size, dialect: postgresServer ? "postgres" : "sqlite", commit };
let server;
let front;
let throwaway;
let exitCode = 1;
// `run:` labels the whole measured run so that --dry-run can leave it after the server started.
run: try {
  if (!fs.existsSync(path.join(ROOT, "build/index.js"))) throw new Error("build/index.js is missing: run `npm run build` first");
  const startedAt = Date.now();
  console.log(
    `load ${new Date().toISOString()} commit ${commit}, ${os.cpus().length} cores, node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}` +
      ` (the machine is shared: other processes use its cores)`,
  );

  // The messenger's pay API: the fake provider, in this process (it is TypeScript: tsx loads it).
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(ROOT, "tsconfig.json") });
  singleFetch = await import(pathToFileURL(path.join(ROOT, "tests/support/single-fetch.ts")).href);
  const fakePay = await import(pathToFileURL(path.join(ROOT, "tests/fakes/wechatpay-server.ts")).href);
  const merchant = fakePay.fakeMerchant();
  pay = await fakePay.startFakeWechatPay({ merchant: fakePay.fakePayMerchantOption(merchant) });
  front = await httpsFront(pay.url, dir);

  let databaseUrl = `file:${path.join(dir, "app.db")}`;
  if (postgresServer) {
    throwaway = await createThrowawayPostgres(postgresServer);
    databaseUrl = throwaway.url;
  }
  const serverOptions = {
    databaseUrl,
    sessionSecret: SESSION_SECRET,
    encryptionKey: APP_ENCRYPTION_KEY,
    logLevel: "warn",
    env: {
      ...fakePay.fakePayEnv(pay, merchant),
      WECHAT_PAY_BASE_URL: front.url,
      NODE_EXTRA_CA_CERTS: front.certFile,
      WECHAT_APP_SECRET: "load-test-app-secret",
      // The messenger API itself is not part of this test: its calls (messages) fail at once.
      WECHAT_API_BASE_URL: "http://127.0.0.1:9",
      WECHAT_OAUTH_AUTHORIZE_URL: "http://127.0.0.1:9/connect/oauth2/authorize",
      // Every student of this test comes from one loopback address, with no pause between
      // requests: at full size that is far beyond a campus NAT, so the per-address rate limits
      // (decision 016) are raised for it; the per-user limits stay at their defaults. The smoke
      // size runs with every default.
      ...(smoke ? {} : FULL_LOAD_RATE_LIMITS),
    },
  };

  // 1. The server (its start migrates the empty database); then, beside it, the seed: students
  //    with a session, a messenger identity and a campus, posts, comments, likes, orders.
  server = await startAppServer(serverOptions);
  base = server.base;
  if (dryRun) {
    const health = await fetch(`${base}/healthz`);
    report.checks = [{ name: "the server starts with this run's settings", ok: health.ok, detail: `/healthz answered ${health.status}` }];
    report.passed = health.ok ? 1 : 0;
    report.failed = 1 - report.passed;
    console.log(`${health.ok ? "✓" : "✗"} dry run (${smoke ? "smoke" : "full"} size settings): /healthz answered ${health.status}`);
    exitCode = health.ok ? 0 : 1;
    break run;
  }
  const database = await openDatabase(databaseUrl);
  let cookies;
  let seeded;
  try {
    seeded = await seedCampus(database, size);
    postIds = seeded.postIds;
    const campuses = await database.all(
      `SELECT c.code, c.name FROM campuses c
       WHERE c.status = 'activate' AND EXISTS (SELECT 1 FROM dorm_buildings b WHERE b.campus_code = c.code)
         AND EXISTS (SELECT 1 FROM package_types t WHERE t.campus_code = c.code)
       ORDER BY c.sort_order, c.code`,
    );
    if (campuses.length === 0) throw new Error("no active campus with dorm buildings and package types in the seed");
    const chosen = campuses[0];
    const buildings = (await database.all("SELECT name FROM dorm_buildings WHERE campus_code = ? ORDER BY sort_order", [chosen.code])).map((row) => row.name);
    campus = { code: chosen.code, name: chosen.name, buildings };
    const at = new Date().toISOString();
    await database.transaction(async () => {
      for (const userId of seeded.userIds) {
        await database.run("UPDATE users SET openid = ?, wechat_nickname = ?, wechat_authorized_at = ?, campus_code = ? WHERE id = ?", [
          `load-openid-${userId}`,
          `压测${userId}`,
          at,
          campus.code,
          userId,
        ]);
      }
    });
    cookies = await studentSessions(database, seeded.userIds, SESSION_SECRET);
    initialLikes = new Set((await database.all("SELECT post_id, user_id FROM post_likes")).map((row) => `${row.user_id}:${row.post_id}`));
    viewsBefore = await viewCounts(database);
  } finally {
    await database.close();
  }
  const studentStates = seeded.userIds.map((userId, index) => ({ userId, cookie: cookies[index], openid: `load-openid-${userId}` }));
  console.log(
    `${report.dialect}: seeded ${JSON.stringify(size)} in ${(seeded.ms / 1000).toFixed(1)} s; campus ${campus.code}; ` +
      `${connections} connections for ${duration} s (setup ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`,
  );

  // 2. The load. First every connection is opened (GET /healthz on each, all at once, while the
  //    server is idle): a Node process that is busy accepts waiting connections only slowly
  //    (here about one per event-loop turn, and a turn takes a second or more at 200 connections
  //    on two shared cores), so connections opened in the same instant as the load could wait
  //    until it ends before the server reads their first request. Real students arrive spread
  //    out, and behind the reverse proxy the app sees the proxy's pooled connections.
  const warm = await Promise.all(Array.from({ length: connections }, () => send("GET", "/healthz", {}, undefined)));
  const cold = warm.filter((answer) => answer.status !== 200);
  if (cold.length > 0) throw new Error(`${cold.length} of ${connections} connections could not be opened: ${cold[0].error ?? cold[0].status}`);
  // The driver's own event loop: if it lags, the latencies below are partly the driver's.
  const driverLag = monitorEventLoopDelay({ resolution: 20 });
  driverLag.enable();
  const loadStarted = performance.now();
  runStartedAt = loadStarted;
  const endAt = loadStarted + duration * 1000;
  await Promise.all(Array.from({ length: connections }, (_, index) => student(studentStates[index % studentStates.length], endAt)));
  const elapsed = (performance.now() - loadStarted) / 1000;
  driverLag.disable();
  agent.destroy();
  const serverOutput = () => server.output();
  await server.stop();
  const output = serverOutput();
  server = null;
  await pay.close();
  pay = null;
  await front.close();
  front = null;

  // 3. The figures.
  const rows = [["kind", "requests", "acked writes", "5xx", "transport", "unexpected", "p50 ms", "p99 ms"]];
  const all = { requests: 0, acked: 0, s5xx: 0, transport: 0, unexpected: 0, latencies: [] };
  const kinds = {};
  for (const [kind, entry] of stats) {
    const sorted = entry.latencies.sort((a, b) => a - b);
    const writes = ["like", "comment", "checkout (recognize)", "order_create", "create-payment", "pay notify"].includes(kind);
    rows.push([kind, entry.requests, writes ? entry.acked : "-", entry.s5xx, entry.transport, entry.unexpected, Math.round(percentile(sorted, 50)), Math.round(percentile(sorted, 99))]);
    kinds[kind] = { requests: entry.requests, acked: entry.acked, s5xx: entry.s5xx, transport: entry.transport, unexpected: entry.unexpected, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    for (const key of ["requests", "acked", "s5xx", "transport", "unexpected"]) all[key] += entry[key];
    all.latencies.push(...sorted);
  }
  all.latencies.sort((a, b) => a - b);
  rows.push(["all", all.requests, all.acked, all.s5xx, all.transport, all.unexpected, Math.round(percentile(all.latencies, 50)), Math.round(percentile(all.latencies, 99))]);
  const longest = all.latencies[all.latencies.length - 1] ?? 0;
  console.log(
    `\n${table(rows)}\n\n${all.requests} requests in ${elapsed.toFixed(1)} s = ${(all.requests / elapsed).toFixed(0)} req/s; slowest ${(longest / 1000).toFixed(1)} s; ` +
      `driver event-loop delay p99 ${(driverLag.percentile(99) / 1e6).toFixed(0)} ms, max ${(driverLag.max / 1e6).toFixed(0)} ms; load average now ${os.loadavg()[0].toFixed(1)}`,
  );
  report.kinds = kinds;
  report.driverLagMs = { p99: driverLag.percentile(99) / 1e6, max: driverLag.max / 1e6 };
  report.total = { slowest: longest, requests: all.requests, acked: all.acked, s5xx: all.s5xx, transport: all.transport, unexpected: all.unexpected, rps: all.requests / elapsed, p50: percentile(all.latencies, 50), p99: percentile(all.latencies, 99) };
  console.log(`slowest: ${slowest.map(([ms, at, what]) => `${(ms / 1000).toFixed(1)} s (sent at ${at.toFixed(1)} s) ${what}`).join("; ")}`);
  if (samples.length > 0) console.log(`\nfirst failed requests:\n  ${samples.join("\n  ")}`);
  const errors = output.split("\n").filter((line) => line.includes('"level":"error"') || /"event":"(wechatpay|pay)-/.test(line));
  if (errors.length > 0) console.log(`\nserver errors and pay warnings (${errors.length}):\n  ${errors.slice(0, 10).join("\n  ")}`);

  // 4. The database.
  const checked = await openDatabase(databaseUrl);
  let verified;
  try {
    verified = await verify(checked);
  } finally {
    await checked.close();
  }
  const writeKinds = ["like", "comment", "order_create"];
  report.checks = [
    { name: "no 5xx", ok: all.s5xx === 0, detail: `${all.s5xx} answers ≥ 500` },
    { name: "no transport errors", ok: all.transport === 0, detail: `${all.transport} resets, refusals or timeouts (${REQUEST_TIMEOUT_MS / 1000} s)` },
    {
      name: "answers as expected",
      ok: all.unexpected === 0 && writeKinds.every((kind) => (stats.get(kind)?.acked ?? 0) > 0),
      detail: `${all.unexpected} unexpected answers; acknowledged ${writeKinds.map((kind) => `${kind} ${stats.get(kind)?.acked ?? 0}`).join(", ")}`,
    },
    ...verified.results,
  ];
  report.found = verified.found;
  console.log(`\nrows found: ${Object.entries(verified.found).map(([name, value]) => `${name} ${value}`).join(", ")}\n`);
  for (const item of report.checks) console.log(`${item.ok ? "✓" : "✗"} ${item.name}: ${item.detail}`);
  report.passed = report.checks.filter((item) => item.ok).length;
  report.failed = report.checks.length - report.passed;
  console.log(`\n${report.passed} checks passed, ${report.failed} failed (${((Date.now() - startedAt) / 1000).toFixed(1)} s in all)`);
  exitCode = report.failed === 0 ? 0 : 1;
} catch (error) {
  console.error(`load test could not run: ${error instanceof Error ? error.stack : String(error)}`);
  report.error = String(error instanceof Error ? error.message : error);
  report.failed = Math.max(1, report.failed);
  exitCode = 1;
} finally {
  if (server) await server.stop();
  if (pay) await pay.close();
  if (front) await front.close();
  if (throwaway) await throwaway.drop().catch((error) => console.error(`could not drop ${throwaway.name}: ${error.message}`));
  fs.rmSync(dir, { recursive: true, force: true });
  if (reportFile) {
    fs.mkdirSync(path.dirname(path.resolve(reportFile)), { recursive: true });
    fs.writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
  }
}
process.exit(exitCode);
