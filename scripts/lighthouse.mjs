#!/usr/bin/env node
// `npm run lighthouse` (builds nothing: run `npm run build` first): Lighthouse 12 with
// its mobile defaults (a Moto G Power–sized screen, simulated throttling: slow 4G and a 4× slower
// CPU) on /circle, /schedule and /market of the production server (`node server.mjs`, the same
// start as the benchmark's) on a throwaway SQLite database seeded to campus size, as the demo
// student logged in through /crLogin (with a messenger identity, as inside the messenger; its
// timetable fetched once, so /schedule is the usual cache hit). Debian's Chromium
// (CHROME_PATH, default /usr/bin/chromium) runs headless with --no-sandbox.
//
// Prints the four category scores per page and fails (exit 1) when a page's performance is
// under 95. Flags: --runs <n> (default 1; the median performance run of n is reported),
// --pages /circle,/market (a subset), --json <file> (every report's scores and key metrics),
// --small (a small seed: 200 students, 2,000 posts; quicker on a busy machine), --reports <dir>
// (every full Lighthouse report as JSON, to open in the Lighthouse viewer), --appearance light,dark
// (each page in each appearance, through the appearance cookie; default light), --a11y (the
// accessibility category only, and fail unless every page scores 100).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { loginDemoStudent, startAppServer } from "./lib/app-server.mjs";
import { CHROMIUM_FLAGS } from "./lib/chromium.mjs";
import { openDatabase } from "./lib/database.mjs";
import { seedCampus } from "./lib/seed.mjs";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const RUNS = Math.max(1, Number(option("runs", "1")));
const PAGES = option("pages", "/circle,/schedule,/market").split(",");
const JSON_OUT = option("json", null);
const REPORTS = option("reports", null);
const SIZE = args.includes("--small")
  ? { students: 200, posts: 2000, comments: 10000, likes: 20000, orders: 1000 }
  : { students: 2000, posts: 20000, comments: 100000, likes: 200000, orders: 10000 };
const PERFORMANCE_MIN = 95;
const A11Y_ONLY = args.includes("--a11y");
const APPEARANCES = option("appearance", "light").split(",");
const CATEGORIES = A11Y_ONLY ? ["accessibility"] : ["performance", "accessibility", "best-practices", "seo"];
const SESSION_SECRET = "lighthouse-session-secret-0123456789abcdef";
const APP_ENCRYPTION_KEY = "5c".repeat(32);
const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_FLAGS];

function summary(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue;
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)])),
    fcp: audit("first-contentful-paint"),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
    si: audit("speed-index"),
    finalUrl: lhr.finalDisplayedUrl,
    // What Lighthouse says is wrong, for finding the cause of a low score.
    failing: Object.values(lhr.categories)
      .flatMap((category) => category.auditRefs)
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "notApplicable")
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`),
    // Which elements (for the accessibility check's report).
    nodes: Object.values(lhr.audits)
      .filter((a) => a.score === 0 && a.details?.type === "table")
      .flatMap((a) => (a.details.items ?? []).slice(0, 8).map((item) => `${a.id}: ${item.node?.snippet ?? ""} ${item.node?.explanation?.split("\n")[1] ?? ""}`.trim())),
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-lighthouse-"));
const file = path.join(dir, "app.db");
const serverOptions = { databaseUrl: `file:${file}`, sessionSecret: SESSION_SECRET, encryptionKey: APP_ENCRYPTION_KEY };
let server;
let chrome;
let failed = false;
try {
  // Migrate through the server, seed, start again.
  server = await startAppServer(serverOptions);
  await server.stop();
  const database = await openDatabase(file);
  const seeded = await seedCampus(database, SIZE);
  await database.close();
  console.log(`seeded ${JSON.stringify(SIZE)} in ${(seeded.ms / 1000).toFixed(1)} s`);
  server = await startAppServer(serverOptions);
  // Inside the messenger the student also has a messenger identity (the market's ordering needs it).
  const cookie = await loginDemoStudent(server.base, file, SESSION_SECRET, { openid: "lighthouse-openid", nickname: "小西瓜" });
  await fetch(`${server.base}/schedule`, { headers: { Cookie: cookie } });

  chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH || "/usr/bin/chromium", chromeFlags: CHROME_FLAGS });
  const baseFlags = {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: CATEGORIES,
    formFactor: "mobile",
    throttlingMethod: "simulate",
  };
  const results = [];
  for (const appearance of APPEARANCES)
  for (const page of PAGES) {
    const flags = { ...baseFlags, extraHeaders: { Cookie: `${cookie}; appearance=${appearance}` } };
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(`${server.base}${page}`, flags);
      if (!result) throw new Error(`no Lighthouse result for ${page}`);
      if (result.lhr.runtimeError) throw new Error(`${page}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
      runs.push(summary(result.lhr));
      if (REPORTS) {
        fs.mkdirSync(REPORTS, { recursive: true });
        fs.writeFileSync(path.join(REPORTS, `${page.slice(1).replace(/\W+/g, "-") || "root"}-${i + 1}.json`), result.report);
      }
    }
    runs.sort((a, b) => a.scores.performance - b.scores.performance);
    const median = runs[Math.floor(runs.length / 2)];
    if (!median.finalUrl.endsWith(page)) throw new Error(`${page} ended at ${median.finalUrl} (not logged in?)`);
    results.push({ page, appearance, ...median, runs: runs.map((run) => run.scores.performance) });
    const { scores } = median;
    if (A11Y_ONLY) {
      console.log(`${page.padEnd(10)} ${appearance.padEnd(6)} accessibility ${String(scores.accessibility).padStart(3)}`);
      if (median.failing.length > 0) console.log(`           below 0.9: ${median.failing.join(", ")}`);
      for (const node of median.nodes) console.log(`           ${node.slice(0, 300)}`);
      if (scores.accessibility < 100) failed = true;
      continue;
    }
    console.log(
      `${page.padEnd(10)} performance ${String(scores.performance).padStart(3)}  accessibility ${String(scores.accessibility).padStart(3)}  best-practices ${String(scores["best-practices"]).padStart(3)}  SEO ${String(scores.seo).padStart(3)}` +
        `   FCP ${Math.round(median.fcp)} ms  LCP ${Math.round(median.lcp)} ms  TBT ${Math.round(median.tbt)} ms  CLS ${median.cls.toFixed(3)}  SI ${Math.round(median.si)} ms${RUNS > 1 ? `  (runs: ${runs.map((run) => run.scores.performance).join(", ")})` : ""}`,
    );
    if (median.failing.length > 0) console.log(`           below 0.9: ${median.failing.join(", ")}`);
    if (scores.performance < PERFORMANCE_MIN) failed = true;
  }
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ date: new Date().toISOString(), size: SIZE, results }, null, 2));
  if (A11Y_ONLY) console.log(failed ? "\nFAIL: a page's accessibility is under 100" : "\nevery page's accessibility is 100");
  else console.log(failed ? `\nFAIL: a page's performance is under ${PERFORMANCE_MIN}` : `\nevery page's performance is at least ${PERFORMANCE_MIN}`);
} finally {
  if (chrome) await chrome.kill();
  if (server) await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
