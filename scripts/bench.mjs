#!/usr/bin/env node
// `npm run bench` (builds first; not part of `npm test`): the production server on a throwaway
// SQLite database seeded to campus size and, in the same run, the reference app: a bare
// Remix v2 app kept in scripts/bench/reference, built here with the same node_modules and served
// the same way (express + compression). autocannon (50 connections) measures every target for
// --rounds rounds (3) of --duration s (8), the targets alternating and their order rotating each
// round so that the machine's drift falls on all of them alike; each figure is the median of its
// rounds. Each data page's <body> is captured first and served by the reference app as the same
// DOM (its /same-dom/:key page, React elements without the app's work), so each page is reported
// as × its own same-DOM page's requests/s (goal ≥ 0.85×: what the app's per-request work costs),
// and as × the bare reference's requests/s and p99 (floor ≥ 1.0×; p99 ≤ 2× on every page). Its
// loader data is captured too (the page's .data answer, decoded), and /same-data/:key serves the
// same DOM with that data returned by its loader: × that page is the app's work less the data's
// encoding (no goal; decision 056).
// Then, once each: an action (recognize-text) and the physical ceiling (a bare node:http server
// answering the same /circle HTML from memory), and the SMS parser. --write appends to
// docs/performance.md.
//
// Flags (defaults are the campus size of docs/performance.md): --students 2000 --posts 20000 --comments 100000
//   --likes 200000 --orders 10000 --connections 50 --duration 8 --warmup 3 --rounds 3 --write
//   --scale <n>          multiplies every size (--scale 10: 20,000 students … 100,000 orders)
//   --compare-scale <n>  the growth check: the floor and the data pages at 1× and at n×,
//                        each side on its own freshly seeded database and server, measured
//                        --rounds times (3) alternating between the sides; medians, then the loss
//                        per page (target: at most 5% at 10×, decision 046)
//   --pages a,b          only these of floor,circle,post,schedule,market,orders (with the reference;
//                        with circle, also the reference app's /cards: /circle's 10 post cards, no goal)
//   --no-extras          skip the one-off targets and the parser
//   --profile <dir>      run both servers under `node --cpu-prof`, profiles written to <dir> at exit
//   --parser-only        only the pickup-SMS parser's throughput (scripts/bench-parser.mjs), which
//                        every run also prints after the HTTP table
import { execSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { findAll, findOne, getInnerHTML, removeElement } from "domutils";
import { parseDocument } from "htmlparser2";
import { decode } from "turbo-stream";
import { createCookie } from "@remix-run/node";
import { buildReference, startReference } from "./bench/reference.mjs";
import { freePort, loginDemoStudent, startAppServer } from "./lib/app-server.mjs";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);
import { openDatabase } from "./lib/database.mjs";
import { seedCampus } from "./lib/seed.mjs";
import { benchParser, formatParserBench } from "./bench-parser.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
function flag(name, fallback) {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
}
function option(name) {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}
const baseSize = {
  students: flag("students", 2000),
  posts: flag("posts", 20000),
  comments: flag("comments", 100000),
  likes: flag("likes", 200000),
  orders: flag("orders", 10000),
};
const scaled = (factor) => Object.fromEntries(Object.entries(baseSize).map(([key, value]) => [key, Math.round(value * factor)]));
const compareScale = flag("compare-scale", 0);
const size = scaled(flag("scale", 1));
const connections = flag("connections", 50);
const duration = flag("duration", 8);
const warmup = flag("warmup", 3);
const SESSION_SECRET = "bench-session-secret-0123456789abcdef";
const APP_ENCRYPTION_KEY = "7a".repeat(32);
const startServer = (dbFile) => startAppServer({ databaseUrl: `file:${dbFile}`, sessionSecret: SESSION_SECRET, encryptionKey: APP_ENCRYPTION_KEY });
async function seed(dbFile, sizes = size) {
  const database = await openDatabase(dbFile);
  try {
    return (await seedCampus(database, sizes)).ms;
  } finally {
    await database.close();
  }
}

const loginStudent = (base, dbFile) => loginDemoStudent(base, `file:${dbFile}`, SESSION_SECRET, { openid: "bench-openid" });

async function operatorCookie(dbFile) {
  const db = new Database(dbFile);
  const iso = new Date().toISOString();
  const id = db
    .prepare("INSERT INTO operators (username, display_name, password_hash, role, created_at) VALUES ('bench', '压测运营', 'x', 'admin', ?) RETURNING id")
    .get(iso).id;
  const sessionId = crypto.randomBytes(32).toString("base64url");
  db.prepare("INSERT INTO operator_sessions (id, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(
    sessionId,
    id,
    iso,
    new Date(Date.now() + 86_400_000).toISOString(),
  );
  db.close();
  const cookie = createCookie("__operator", { secrets: [SESSION_SECRET], path: "/", httpOnly: true, sameSite: "lax" });
  return (await cookie.serialize(sessionId)).split(";")[0];
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, pipelining: 1, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (null where there is none). */
function cpuSecondsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/**
 * One autocannon run. With `pid` (the server's process), also the server's CPU time per answered
 * request: unlike requests/s it hardly moves when other processes load the machine.
 */
async function measure(label, options, { warmup: warm = warmup, pid } = {}) {
  if (warm > 0) await cannon({ ...options, duration: warm });
  const cpuBefore = pid ? cpuSecondsOf(pid) : null;
  const result = await cannon({ ...options, duration });
  const cpuAfter = pid ? cpuSecondsOf(pid) : null;
  const answered = result.requests.total;
  const row = {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: cpuBefore !== null && cpuAfter !== null && answered > 0 ? ((cpuAfter - cpuBefore) * 1000) / answered : null,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  console.log(`  ${label.padEnd(44)} ${row.rps.toFixed(0).padStart(7)} req/s  p50 ${String(row.p50).padStart(4)} ms  p99 ${String(row.p99).padStart(4)} ms${row.cpuMs === null ? "" : `  cpu ${row.cpuMs.toFixed(2)} ms/req`}${row.non2xx ? `  non-2xx ${row.non2xx}` : ""}${row.errors ? `  errors ${row.errors}` : ""}`);
  return row;
}

/**
 * The loader data of a page as the app's client receives it: its single-fetch answer (`<url>.data`,
 * turbo-stream), decoded with the client's own decoder; each route's data by route id.
 */
async function capturedData(url, cookie) {
  const response = await fetch(`${url}.data`, { headers: { Cookie: cookie } });
  if (!response.ok || !response.body) throw new Error(`${url}.data: ${response.status}`);
  const decoded = await decode(response.body);
  await decoded.done;
  return decoded.value;
}

/**
 * A page's <body> as the browser gets it, without its scripts (the reference app adds its own):
 * what the reference's /same-dom/:key page renders. Parsed with a real HTML parser.
 */
function capturedBody(html) {
  const document = parseDocument(html);
  const body = findOne((node) => node.name === "body", document.children);
  if (!body) throw new Error("the page has no <body>");
  for (const script of findAll((node) => node.name === "script", body.children)) removeElement(script);
  return getInnerHTML(body, { decodeEntities: false });
}

const SMS = [
  "【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。",
  "【丰巢】请凭取件码『62093517』至梨园9栋丰巢柜取申通快递的包裹。",
  "【兔喜生活】您的中通包裹已到桃园快递点，取件码 3-2-4417，营业时间 9:00-21:00。",
  "【菜鸟驿站】您的韵达包裹到了杏园驿站，凭 8-1-0923 取件。",
  "【邮政】您的邮件已到学校邮政所，取件码 11-3-2008，请携带学生证。",
].join("\n\n");

/**
 * One side of --compare-scale: a fresh database seeded to `sizes` and the server on it, with the
 * floor and the data pages to measure. The caller stops it (stop() also deletes the database).
 */
async function preparePhase(dir, name, sizes) {
  const file = path.join(dir, `${name}.db`);
  let phaseServer = await startServer(file);
  await phaseServer.stop();
  const seedMs = await seed(file, sizes);
  console.log(`${name}: seeded ${JSON.stringify(sizes)} in ${(seedMs / 1000).toFixed(1)} s (${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MB)`);
  phaseServer = await startServer(file);
  const student = await loginStudent(phaseServer.base, file);
  const operator = await operatorCookie(file);
  const db = new Database(file, { readonly: true });
  const postId = db.prepare("SELECT id FROM posts ORDER BY id DESC LIMIT 1").get().id;
  db.close();
  await fetch(`${phaseServer.base}/schedule`, { headers: { Cookie: student } });
  const headers = { Cookie: student };
  const at = (url, extra = {}) => ({ url: `${phaseServer.base}${url}`, ...extra });
  return {
    name,
    seedMs,
    targets: [
      at("/blog/article/1"),
      at("/circle", { headers }),
      at(`/post/${postId}`, { headers }),
      at("/schedule", { headers }),
      at("/market", { headers }),
      at("/admin/orders", { headers: { Cookie: operator } }),
    ],
    stop: async () => {
      await phaseServer.stop();
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * --compare-scale: both databases seeded and both servers up (an idle server costs nothing),
 * then every page measured `--rounds` times on each side, the sides alternating and the order
 * flipping every round, so that the machine's drift between runs (±20% here for the same page)
 * falls on both sides alike; each side's figure is the median of its rounds.
 */
async function compare(factor) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-bench-"));
  const loadAtStart = os.loadavg()[0].toFixed(1);
  const rounds = flag("rounds", 3);
  const phases = [];
  try {
    console.log(`bench --compare-scale ${factor} ${new Date().toISOString()} commit ${commit}, ${os.cpus().length} cores, node ${process.version}, load average ${loadAtStart}`);
    phases.push(await preparePhase(dir, "1×", scaled(1)));
    phases.push(await preparePhase(dir, `${factor}×`, scaled(factor)));
    const [one, many] = phases;
    console.log(`autocannon: ${connections} connections, ${warmup} s warm-up + ${duration} s each, ${rounds} rounds per page and side (alternating)`);
    const pages = ["/blog/article/1 (floor)", "/circle", "/post/:id (newest)", "/schedule (cache hit)", "/market", "/admin/orders"];
    const results = pages.map(() => ({ one: [], many: [] }));
    for (const [i, page] of pages.entries()) {
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? [["one", one], ["many", many]] : [["many", many], ["one", one]];
        for (const [side, phase] of order) results[i][side].push(await measure(`${phase.name} ${page} (round ${round + 1})`, phase.targets[i]));
      }
    }
    const summary = results.map(({ one: a, many: b }) => ({
      a: { rps: median(a.map((row) => row.rps)), p99: median(a.map((row) => row.p99)) },
      b: { rps: median(b.map((row) => row.rps)), p99: median(b.map((row) => row.p99)) },
    }));
    const floorOne = summary[0].a.rps;
    const floorMany = summary[0].b.rps;
    const loss = (before, after) => (1 - after / before) * 100;
    const lines = pages.map((page, i) => {
      const { a, b } = summary[i];
      const raw = loss(a.rps, b.rps);
      const relative = i === 0 ? null : loss(a.rps / floorOne, b.rps / floorMany);
      const verdict = i === 0 ? "" : raw <= 5 ? "ok" : "over 5%";
      return `| ${page} | ${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${raw.toFixed(0)}% | ${relative === null ? "—" : `${relative.toFixed(0)}%`} | ${a.p99} | ${b.p99} | ${verdict} |`;
    });
    const table = [
      `| page | req/s 1× | req/s ${factor}× | loss | loss vs floor | p99 ms 1× | p99 ms ${factor}× | ≤ 5% |`,
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
      ...lines,
    ].join("\n");
    console.log(`\n${table}`);
    if (args.includes("--write")) {
      const file = path.join(root, "docs/performance.md");
      const entry =
        `\n## ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit}: data grown ${factor}×\n\n` +
        `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), node ${process.version}; seeded 1× in ${(one.seedMs / 1000).toFixed(1)} s, ${factor}× ${JSON.stringify(scaled(factor))} in ${(many.seedMs / 1000).toFixed(1)} s; ` +
        `autocannon ${connections} connections, ${warmup} s warm-up + ${duration} s per run, ${rounds} runs per page and side, the sides alternating (medians shown); load average at the start ${loadAtStart}, at the end ${os.loadavg()[0].toFixed(1)}. ` +
        `"Loss" is the ${factor}× median over the 1× median; "loss vs floor" compares each page's requests/s over the floor's of the same side.\n\n${table}\n`;
      fs.appendFileSync(file, entry);
      console.log(`\nappended to ${path.relative(root, file)}`);
    }
  } finally {
    for (const phase of phases) await phase.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const commit = execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
if (args.includes("--parser-only")) {
  console.log(`bench --parser-only ${new Date().toISOString()} commit ${commit}, load average ${os.loadavg()[0].toFixed(1)}\n`);
  console.log(formatParserBench(await benchParser()));
  process.exit(0);
}
if (compareScale > 0) {
  await compare(compareScale);
  process.exit(0);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-bench-"));
const dbFile = path.join(dir, "app.db");
let server;
let reference;
let ceiling;
const loadAtStart = os.loadavg()[0].toFixed(1);
const rounds = flag("rounds", 3);
const profileDir = option("profile");
const only = option("pages")?.split(",");
try {
  console.log(`bench ${new Date().toISOString()} commit ${commit}, ${os.cpus().length} cores, node ${process.version}, load average ${loadAtStart}`);
  // 0. the reference: a bare Remix v2 app built with the same node_modules (scripts/bench/reference)
  const referenceBuildMs = await buildReference();
  console.log(`reference app built in ${(referenceBuildMs / 1000).toFixed(1)} s`);
  // 1. migrate and seed the demo data through the server itself, then stop it and seed to size
  server = await startServer(dbFile);
  await server.stop();
  const seedMs = await seed(dbFile);
  console.log(`seeded ${JSON.stringify(size)} in ${(seedMs / 1000).toFixed(1)} s (${(fs.statSync(dbFile).size / 1024 / 1024).toFixed(0)} MB)`);
  const profileArgs = (name) => (profileDir ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(profileDir), "--cpu-prof-name", `${name}-${Date.now()}.cpuprofile`] : []);
  server = await startAppServer({
    databaseUrl: `file:${dbFile}`,
    sessionSecret: SESSION_SECRET,
    encryptionKey: APP_ENCRYPTION_KEY,
    nodeArgs: profileArgs("app"),
  });
  const student = await loginStudent(server.base, dbFile);
  const operator = await operatorCookie(dbFile);
  const db = new Database(dbFile, { readonly: true });
  const postId = db.prepare("SELECT id FROM posts ORDER BY id DESC LIMIT 1").get().id;
  db.close();
  // /schedule once, so the runs below are cache hits
  await fetch(`${server.base}/schedule`, { headers: { Cookie: student } });
  const circleHtml = await (await fetch(`${server.base}/circle`, { headers: { Cookie: student } })).text();
  // Each data page's body, for the reference app to render as the same DOM.
  const sameDomDir = path.join(dir, "same-dom");
  fs.mkdirSync(sameDomDir);
  const samePages = { circle: "/circle", post: `/post/${postId}`, schedule: "/schedule", market: "/market" };
  for (const [key, url] of Object.entries(samePages)) {
    const html = await (await fetch(`${server.base}${url}`, { headers: { Cookie: student } })).text();
    fs.writeFileSync(path.join(sameDomDir, `${key}.html`), capturedBody(html));
    fs.writeFileSync(path.join(sameDomDir, `${key}.json`), JSON.stringify(await capturedData(`${server.base}${url}`, student)));
  }
  reference = await startReference({ nodeArgs: profileArgs("reference"), env: { BENCH_SAME_DOM_DIR: sameDomDir } });
  const referenceHtml = await (await fetch(`${reference.base}/`)).text();
  if (!referenceHtml.includes("条目 10")) throw new Error("the reference app does not render its 10 items");
  const referenceCards = await (await fetch(`${reference.base}/cards`)).text();
  if ((referenceCards.match(/<article/g) ?? []).length !== 10) throw new Error("the reference app does not render its 10 post cards");

  const headers = { Cookie: student };
  const targets = [
    { key: "reference", label: "reference: bare Remix v2, 10 items", options: { url: `${reference.base}/` }, pid: reference.pid },
    // No goal: what /circle's list markup costs on the bare reference app (React and Remix alone).
    { key: "cards", label: "reference: /circle's 10 post cards", options: { url: `${reference.base}/cards` }, pid: reference.pid, goal: null },
    // Each page's same DOM, then the same DOM with the page's loader data encoded into it (a
    // second reading of the app's own work, without the data's encoding; decision 056). No goals.
    ...[
      ["same", "same DOM", "same-dom"],
      ["data", "same DOM + data", "same-data"],
    ].flatMap(([prefix, what, route]) =>
      Object.entries(samePages).map(([key, url]) => ({
        key: `${prefix}-${key}`,
        label: `reference: ${what} as ${key === "post" ? "/post/:id" : url}`,
        options: { url: `${reference.base}/${route}/${key}` },
        pid: reference.pid,
        goal: null,
      })),
    ),
    { key: "floor", label: "floor: /blog/article/1", options: { url: `${server.base}/blog/article/1` } },
    { key: "circle", label: "/circle (student)", options: { url: `${server.base}/circle`, headers } },
    { key: "post", label: `/post/${postId} (student)`, options: { url: `${server.base}/post/${postId}`, headers } },
    { key: "schedule", label: "/schedule (student, cache hit)", options: { url: `${server.base}/schedule`, headers } },
    { key: "market", label: "/market (student)", options: { url: `${server.base}/market`, headers } },
    { key: "orders", label: "/admin/orders (operator)", options: { url: `${server.base}/admin/orders`, headers: { Cookie: operator } }, goal: 0.5 },
  ].filter(
    (target) =>
      target.key === "reference" ||
      !only ||
      only.includes(target.key) ||
      (target.key === "cards" && only.includes("circle")) ||
      (/^(same|data)-/.test(target.key) && only.includes(target.key.replace(/^(same|data)-/, ""))),
  );
  // Every target answers 200 before anything is measured (a redirect would measure the login page).
  for (const target of targets) {
    const response = await fetch(target.options.url, { headers: target.options.headers, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${target.label} answers ${response.status}, not 200`);
  }
  console.log(`autocannon: ${connections} connections, ${rounds} rounds of ${duration} s per target (a ${warmup} s warm-up before the first), the targets alternating and their order rotating every round; medians`);
  const runs = new Map(targets.map((target) => [target.key, []]));
  for (let round = 0; round < rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]);
    if (round % 2 === 1) order.reverse();
    for (const target of order) {
      const row = await measure(`${target.label} (round ${round + 1})`, target.options, { warmup: round === 0 ? warmup : 0, pid: target.pid ?? server.pid });
      runs.get(target.key).push(row);
    }
  }
  const summarize = (target) => {
    const list = runs.get(target.key);
    return {
      ...target,
      rps: median(list.map((row) => row.rps)),
      p50: median(list.map((row) => row.p50)),
      p99: median(list.map((row) => row.p99)),
      cpuMs: list.every((row) => row.cpuMs !== null) ? median(list.map((row) => row.cpuMs)) : null,
      non2xx: list.reduce((sum, row) => sum + row.non2xx, 0),
      errors: list.reduce((sum, row) => sum + row.errors, 0),
    };
  };
  const rows = targets.map(summarize);
  const ref = rows[0];
  const sameOf = (row) => rows.find((other) => other.key === `same-${row.key}`);
  const sameDataOf = (row) => rows.find((other) => other.key === `data-${row.key}`);
  // Goals: the floor ≥ 1.0× the bare reference; a data page ≥ 0.85× its own same-DOM page (the
  // app's per-request work, not its markup); p99 ≤ 2× the bare reference's on every page.
  const goalOf = (row) => (row.key === "floor" ? 1.0 : sameOf(row) ? 0.85 : null);
  const verdict = (row) => {
    const goal = goalOf(row);
    if (goal === null) return "";
    const base = row.key === "floor" ? ref : sameOf(row);
    const ok = row.rps / base.rps >= goal && row.p99 <= 2 * ref.p99;
    return ok ? "ok" : "missed";
  };

  // 2. once each, outside the rounds: an action, and the physical ceiling (the same /circle HTML from memory)
  const extras = [];
  if (!args.includes("--no-extras")) {
    extras.push(
      await measure("recognize-text, 5 SMS (student)", {
        url: `${server.base}/errands/pickup-code/recognize-text`,
        method: "POST",
        headers: { ...headers, Origin: server.base, "Content-Type": "application/json" },
        body: JSON.stringify({ text_data: SMS }),
      }),
    );
  }
  await server.stop();
  server = null;
  await reference.stop();
  reference = null;
  if (!args.includes("--no-extras")) {
    const ceilingPort = await freePort();
    ceiling = http.createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(circleHtml);
    });
    await new Promise((resolve) => ceiling.listen(ceilingPort, "127.0.0.1", resolve));
    extras.push(await measure("ceiling: node:http, /circle HTML from memory", { url: `http://127.0.0.1:${ceilingPort}/` }));
    await new Promise((resolve) => ceiling.close(resolve));
    ceiling = null;
  }

  const fmt = (value) => value.toLocaleString("en-US");
  const table = [
    "| target | req/s | p50 ms | p99 ms | × reference req/s | × same DOM req/s | × same DOM + data req/s | p99 × reference | CPU ms/req | same-DOM CPU ÷ page CPU | goal | non-2xx |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ...rows.map((row) => {
      const goal = goalOf(row);
      const goalText = goal === null ? "" : `≥ ${goal}× ${row.key === "floor" ? "reference" : "same DOM"}, p99 ≤ 2×: ${verdict(row)}`;
      const cpu = row.cpuMs === null ? "—" : row.cpuMs.toFixed(2);
      const same = sameOf(row);
      const sameRatio = same ? (row.rps / same.rps).toFixed(2) : "—";
      const sameData = sameDataOf(row);
      const sameDataRatio = sameData ? (row.rps / sameData.rps).toFixed(2) : "—";
      const cpuRatio = !same || row.cpuMs === null || same.cpuMs === null ? "—" : (same.cpuMs / row.cpuMs).toFixed(2);
      return `| ${row.label} | ${row.rps.toFixed(0)} | ${fmt(row.p50)} | ${fmt(row.p99)} | ${(row.rps / ref.rps).toFixed(2)} | ${sameRatio} | ${sameDataRatio} | ${(row.p99 / ref.p99).toFixed(1)} | ${cpu} | ${cpuRatio} | ${goalText} | ${row.non2xx} |`;
    }),
    ...extras.map((row) => `| ${row.label} (one run) | ${row.rps.toFixed(0)} | ${fmt(row.p50)} | ${fmt(row.p99)} | ${(row.rps / ref.rps).toFixed(2)} | — | — | ${(row.p99 / ref.p99).toFixed(1)} | — | — |  | ${row.non2xx} |`),
  ].join("\n");
  console.log(`\n${table}`);
  const loadAtEnd = os.loadavg()[0].toFixed(1);
  console.log(`\nload average at the start ${loadAtStart}, at the end ${loadAtEnd}`);
  // 3. the pickup-SMS parser alone (a 20 KB paste in at most 20 ms)
  const parserTable = args.includes("--no-extras") ? "" : formatParserBench(await benchParser());
  if (parserTable) console.log(`\n${parserTable}`);
  if (args.includes("--write")) {
    const file = path.join(root, "docs/performance.md");
    const entry =
      `\n## ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit}: against the reference app\n\n` +
      `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), node ${process.version}; seeded ${JSON.stringify(size)} in ${(seedMs / 1000).toFixed(1)} s; ` +
      `autocannon ${connections} connections, ${rounds} rounds of ${duration} s per target, alternating (medians shown); load average at the start ${loadAtStart}, at the end ${loadAtEnd} ` +
      `(other processes on the machine share its cores).\n\n${table}\n${parserTable ? `\n${parserTable}\n` : ""}`;
    fs.appendFileSync(file, entry);
    console.log(`\nappended to ${path.relative(root, file)}`);
  }
} finally {
  if (server) await server.stop();
  if (reference) await reference.stop();
  if (ceiling) ceiling.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
