// Fair service under a flood: one client with many keep-alive connections asking as fast as it can
// (pages, the login page, /healthz) delays another client by at most a second. The two clients
// are two loopback addresses (127.0.0.2 floods, 127.0.0.3 measures), so the server tells them
// apart by the socket alone. The flood runs in a process of its own, bounded in time.
import { spawn } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCTION_FAIR_SHARE } from "../support/app-process";
import { startServer, type Server } from "./server";

let server: Server;

beforeAll(async () => {
  server = await startServer(PRODUCTION_FAIR_SHARE);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/**
 * The flood's keep-alive connections. 16 here: with 200, the other client's first NEW connection
 * waited for the whole flood on this host whatever the app did (a bare Node http server shows
 * the same: its accept waits while hundreds of sockets keep the event loop busy), which is why
 * connections per client are bounded at the reverse proxy (README: limit_conn). FLOOD_CONNECTIONS
 * sets another number for a trial.
 */
const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 16);

const FLOODER = `
const http = require("node:http");
const [base, seconds] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(process.argv[3] ?? 200), localAddress: "127.0.0.2" });
const paths = ["/crLogin", "/circle", "/healthz", "/market"];
const until = Date.now() + Number(seconds) * 1000;
const counts = {};
let open = 0;
function one(i) {
  if (Date.now() > until) { if (--open === 0) finish(); return; }
  const req = http.get(base + paths[i % paths.length], { agent }, (res) => {
    counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
    res.resume();
    res.on("end", () => one(i + 1));
    res.on("error", () => one(i + 1));
  });
  req.on("error", () => { counts.error = (counts.error ?? 0) + 1; setTimeout(() => one(i + 1), 10); });
}
for (let c = 0; c < Number(process.argv[3] ?? 200); c++) { open++; one(c); }
function finish() { process.stdout.write(JSON.stringify(counts)); agent.destroy(); }
`;

/** One GET from another client (127.0.0.3), timed. */
function timedGet(path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(server.base + path, { agent: false, localAddress: "127.0.0.3" }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error("no answer")));
  });
}

/** The 95th percentile of a list of times. */
function p95(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

describe("one client's flood of connections", () => {
  it("delay another client by at most 1 s, and the flood's excess is refused at once", async () => {
    const idle: number[] = [];
    for (let i = 0; i < 8; i++) idle.push((await timedGet(i % 2 ? "/healthz" : "/crLogin")).ms);
    const flood = spawn(process.execPath, ["-e", FLOODER, server.base, "6", String(CONNECTIONS)], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    flood.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const done = new Promise<void>((resolve) => flood.on("exit", () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const times: number[] = [];
    const statuses: number[] = [];
    while (times.length < 20) {
      const answer = await timedGet(times.length % 2 ? "/healthz" : "/crLogin");
      times.push(answer.ms);
      statuses.push(answer.status);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await done;
    const counts = JSON.parse(output || "{}") as Record<string, number>;
    console.log(`[fair-service] other client idle p95 ${Math.round(p95(idle))} ms; during the flood max ${Math.round(Math.max(...times))} ms (${times.map(Math.round).join(",")}); flood answers ${JSON.stringify(counts)}`);
    expect(statuses.every((status) => status === 200)).toBe(true);
    // 1 s; on a shared test host slower than that when idle (the suite runs beside others on 2
    // cores), four times the same client's own idle 95th percentile. Before the fair share the
    // other client waited for the whole flood (6.6 s here).
    expect(Math.max(...times)).toBeLessThan(Math.max(1000, 4 * p95(idle)));
    expect((counts["429"] ?? 0) + (counts["503"] ?? 0)).toBeGreaterThan(0);
  });
});
