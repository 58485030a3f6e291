// The fair share in front of the app, on a real listener: a stall of the event loop (a GC pause,
// a loaded host) must not refuse an ordinary browser's second request (Remix posts an action while
// a revalidation or a status poll is still running), while a client with several requests
// running is still shed, and a busy server still sheds a client's extra requests.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { UNSAFE_ErrorResponseImpl as ErrorResponse, isRouteErrorResponse } from "@remix-run/router";
import express from "express";
import { decode } from "turbo-stream";
import { afterEach, describe, expect, it } from "vitest";
import { refusals } from "~/lib/messages/refusals";
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

  // The Remix client decodes a data request's answer as a turbo-stream; a plain-text refusal
  // failed to decode and the student saw the generic "出了点问题" instead of "服务器正忙".
  it("refuses a single-fetch data request in the encoding the Remix client reads", async () => {
    const base = await start({ busyInFlight: 1 });
    void get(base, "/slow");
    await settle(100);
    const loaders = await fetchFrom(base, "/circle.data?_routes=root,routes%2Fcircle._index");
    expect(loaders.status).toBe(503);
    expect(loaders.type).toBe("text/x-script");
    const results = (await decodeAsRemix(loaders.body)) as Record<string, { error: unknown }>;
    expect(Object.keys(results).sort()).toEqual(["root", "routes/circle._index"]);
    const error = results.root!.error;
    expect(isRouteErrorResponse(error) && error.status === 503 && error.data === refusals.overloaded).toBe(true);

    const action = await fetchFrom(base, "/orders/new.data", "POST");
    expect(action.status).toBe(503);
    const result = (await decodeAsRemix(action.body)) as { error: unknown };
    expect(isRouteErrorResponse(result.error) && result.error.data === refusals.overloaded).toBe(true);

    // A page (a document request) is still refused in plain text.
    const page = await fetchFrom(base, "/circle");
    expect([page.status, page.type, page.body]).toEqual([503, "text/plain; charset=utf-8", refusals.overloaded]);
  });
});

/** A request from the client 127.0.0.2 with its status, content type and body. */
function fetchFrom(base: string, path: string, method = "GET") {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const request = http.request(base + path, { method, agent: false, localAddress: "127.0.0.2" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** Decodes as the Remix client's single fetch does (its ErrorResponse plugin). */
async function decodeAsRemix(body: string) {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(body));
      controller.close();
    },
  });
  const decoded = await decode(stream, {
    plugins: [(type: string, ...rest: unknown[]) => (type === "ErrorResponse" ? { value: new ErrorResponse(rest[1] as number, rest[2] as string, rest[0]) } : undefined)],
  });
  await decoded.done;
  return decoded.value;
}
