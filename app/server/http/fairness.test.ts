// The fair share in front of the app, on a real listener: a stall of the event loop (a GC pause,
// a loaded host) must not refuse an ordinary browser's second request (Remix posts an action while
// a revalidation or a status poll is still running), while a client with several requests
// running is still shed, and a busy server still sheds a client's extra requests.
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { fairShare } from "./fairness";

let server: http.Server | undefined;
const held: (() => void)[] = [];

afterEach(async () => {
  for (const release of held.splice(0)) release();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function start(options: { busyInFlight?: number } = {}) {
  const app = express();
  app.set("trust proxy", false);
  app.use(fairShare({ maxInFlight: 16, busyInFlight: options.busyInFlight ?? 4, shedDelayMs: 150, ipv6Prefix: 64, uncounted: () => false }));
  app.get("/slow", (_req, res) => void held.push(() => res.end("slow")));
  app.get("/fast", (_req, res) => void res.end("fast"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

/** A GET from a given loopback address (the client), answered or not. */
function get(base: string, path: string, from = "127.0.0.2") {
  return new Promise<number>((resolve, reject) => {
    http
      .get(base + path, { agent: false, localAddress: from }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on("error", reject);
  });
}

/** Holds this process's event loop, as a GC pause or a starved CPU would. */
function stall(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the fair share", () => {
  it("serves a browser's second request after a stall of the event loop", async () => {
    const base = await start();
    void get(base, "/slow");
    await settle(100);
    stall(400);
    expect(await get(base, "/fast")).toBe(200);
  });

  it("sheds a client's third request running at once while the event loop is late", async () => {
    const base = await start();
    void get(base, "/slow");
    void get(base, "/slow");
    await settle(100);
    stall(400);
    expect(await get(base, "/fast")).toBe(503);
    // Another client's first request still gets in.
    expect(await get(base, "/fast", "127.0.0.3")).toBe(200);
  });

  it("sheds a client's second request while the server is busy with others", async () => {
    const base = await start({ busyInFlight: 3 });
    void get(base, "/slow", "127.0.0.4");
    void get(base, "/slow", "127.0.0.5");
    void get(base, "/slow");
    await settle(100);
    expect(await get(base, "/fast")).toBe(503);
    expect(await get(base, "/fast", "127.0.0.6")).toBe(200);
  });
});
