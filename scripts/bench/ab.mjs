#!/usr/bin/env node
// A/B of two builds of the app on one seeded database (what a change gained): the server
// of this checkout and `node <other>/server.mjs` (another checkout with its own build and
// node_modules, e.g. `git archive <commit> | tar -x -C /tmp/before`, node_modules linked, built),
// both up at once, each page measured --rounds times per side, the sides alternating and the
// order flipping every round; medians of req/s, p99 and the server's CPU time per request.
// Usage: node scripts/bench/ab.mjs <other checkout> [--rounds 2] [--duration 5] [--pages floor,circle,post]
//   [--before-args a,b] [--after-args a,b]: node flags for either side (`ab.mjs . --after-args
//   --max-semi-space-size=32` compares one build under two settings)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { loginDemoStudent, startAppServer } from "../lib/app-server.mjs";
import { openDatabase } from "../lib/database.mjs";
import { seedCampus } from "../lib/seed.mjs";

const args = process.argv.slice(2);
const other = path.resolve(args[0]);
const opt = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const rounds = Number(opt("rounds", 2));
const duration = Number(opt("duration", 5));
const pages = opt("pages", "floor,circle,post").split(",");
const SECRET = "bench-session-secret-0123456789abcdef";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-ab-"));
const file = path.join(dir, "app.db");
const nodeArgsOf = (name) => (opt(name, "") || "").split(",").filter(Boolean);
const start = (script, nodeArgs = []) => startAppServer({ databaseUrl: `file:${file}`, sessionSecret: SECRET, encryptionKey: "7a".repeat(32), script, nodeArgs });
const cpu = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let servers = [];
try {
  console.log(`ab ${new Date().toISOString()} load average ${os.loadavg()[0].toFixed(1)}: this checkout vs ${other}`);
  // The other checkout creates the schema: this one adds its own newer migrations when it starts,
  // where an older server refuses a database holding a migration it does not know.
  const first = await start(path.join(other, "server.mjs"));
  await first.stop();
  const database = await openDatabase(file);
  await seedCampus(database, { students: 2000, posts: 20000, comments: 100000, likes: 200000, orders: 10000 });
  await database.close();
  servers = [
    { name: "before", server: await start(path.join(other, "server.mjs"), nodeArgsOf("before-args")) },
    { name: "after", server: await start("server.mjs", nodeArgsOf("after-args")) },
  ];
  const cookie = await loginDemoStudent(servers[1].server.base, `file:${file}`, SECRET, { openid: "bench-openid" });
  const db = new Database(file, { readonly: true });
  const postId = db.prepare("SELECT id FROM posts ORDER BY id DESC LIMIT 1").get().id;
  db.close();
  const paths = { floor: "/blog/article/1", circle: "/circle", post: `/post/${postId}`, schedule: "/schedule", market: "/market" };
  const results = {};
  for (const page of pages) {
    for (const { name, server } of servers) {
      const response = await fetch(server.base + paths[page], { headers: { Cookie: cookie }, redirect: "manual" });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${name} ${paths[page]}: ${response.status}`);
      await new Promise((resolve, reject) => autocannon({ url: server.base + paths[page], headers: { Cookie: cookie }, connections: 50, duration: 2 }, (e, r) => (e ? reject(e) : resolve(r))));
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const { name, server } of order) {
        const before = cpu(server.pid);
        const r = await new Promise((resolve, reject) => autocannon({ url: server.base + paths[page], headers: { Cookie: cookie }, connections: 50, duration }, (e, res) => (e ? reject(e) : resolve(res))));
        // No answer in the run (a machine too loaded): no CPU figure rather than an infinite one.
        const ms = r.requests.total > 0 ? ((cpu(server.pid) - before) * 1000) / r.requests.total : null;
        (results[`${page} ${name}`] ??= []).push({ rps: r.requests.average, p99: r.latency.p99, cpuMs: ms });
        console.log(`  ${page} ${name} round ${round + 1}: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms, cpu ${ms === null ? "—" : ms.toFixed(2)} ms/req`);
      }
    }
  }
  console.log("\n| page | req/s before | req/s after | CPU ms/req before | CPU ms/req after | CPU saved |\n| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const page of pages) {
    const [b, a] = ["before", "after"].map((name) => results[`${page} ${name}`]);
    const cpuOf = (list) => {
      const known = list.map((x) => x.cpuMs).filter((ms) => ms !== null);
      return known.length ? median(known) : null;
    };
    const [cb, ca] = [cpuOf(b), cpuOf(a)];
    const saved = cb !== null && ca !== null ? `${((1 - ca / cb) * 100).toFixed(0)}%` : "—";
    console.log(`| ${paths[page]} | ${median(b.map((x) => x.rps)).toFixed(0)} | ${median(a.map((x) => x.rps)).toFixed(0)} | ${cb?.toFixed(2) ?? "—"} | ${ca?.toFixed(2) ?? "—"} | ${saved} |`);
  }
  console.log(`load average at the end ${os.loadavg()[0].toFixed(1)}`);
} finally {
  for (const { server } of servers) await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
