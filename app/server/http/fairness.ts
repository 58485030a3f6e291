import type { Server } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { clientNetwork } from "~/lib/client-network";
import { isDataRequest } from "~/lib/request-kind";
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { config } from "../config.server";
import { log } from "../log.server";
import { observeRequest } from "../metrics.server";
import { singleFetchRefusal } from "./data-refusal";
import { pipelineState } from "./state";

// Fair service under floods: one client must not make the others wait. Before any work on the
// request: a client network's share of requests in flight (the excess gets 429 at once), load
// shedding while the event loop lags (503 with Retry-After, for the clients that cause it), and
// the server's own bounds on connections, header and request time (configureServer). The reverse proxy in front
// holds the first line (README: limit_conn, limit_req); these hold when it does not.

/**
 * The refusal, as cheap as an answer can be: under a flood most answers are these. Not logged
 * line by line (a flood would fill the disk; the "shedding" line says when it starts), counted in
 * the metrics.
 */
function refuse(res: ExpressResponse, status: 429 | 503, message: string) {
  const req = res.req;
  observeRequest(req.method, "(refused)", status, 0);
  const send = (body: Buffer, type: string) => {
    res.writeHead(status, { "Content-Type": type, "Content-Length": body.length, "Retry-After": "1", "Cache-Control": "no-store" });
    res.end(body);
  };
  if (!isDataRequest(req.path)) return send(Buffer.from(message), "text/plain; charset=utf-8");
  // The Remix client decodes a data request's answer: the refusal is encoded as Remix would.
  const search = req.url.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
  singleFetchRefusal(req.method, search, status, message).then(
    (body) => send(Buffer.from(body), "text/x-script"),
    () => send(Buffer.from(message), "text/plain; charset=utf-8"),
  );
}

/** How late the event loop runs now (ms): a timer that should tick every SAMPLE_MS, measured. */
const SAMPLE_MS = 50;
function eventLoopDelay() {
  let expected = performance.now() + SAMPLE_MS;
  let last = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    last = Math.max(0, now - expected);
    expected = now + SAMPLE_MS;
  }, SAMPLE_MS);
  timer.unref();
  // A tick still overdue counts too: the loop is late right now.
  return () => Math.max(last, performance.now() - expected);
}

/**
 * Each client network's share. A client's first request gets in. Further requests of a client
 * with one already running get in only while the server is not busy (fewer than `busyInFlight`
 * requests running in all), and from its third on only while the event loop is on time
 * (`shedDelayMs`); else they get 503 with
 * Retry-After before any work, so a flood slows its sender, not everyone else. A client shed in
 * the last second has no free first request either while anyone else's request runs. Past
 * `maxInFlight` running at once a client's next request gets 429 at once. A health checker asks
 * one request at a time, so it is never shed. `uncounted` paths (compiled assets) are left alone.
 */
export function fairShare(options: {
  maxInFlight: number;
  busyInFlight: number;
  shedDelayMs: number;
  ipv6Prefix: number;
  uncounted: (path: string) => boolean;
}) {
  const inFlight = new Map<string, number>();
  /** Clients shed in the last second: no free first request while others are being served. */
  const shedUntil = new Map<string, number>();
  let total = 0;
  const delay = eventLoopDelay();
  let shedding = false;
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (options.uncounted(req.path)) return next();
    const client = clientNetwork(req.ip, options.ipv6Prefix);
    pipelineState(res).client = client;
    const count = inFlight.get(client) ?? 0;
    if (count >= options.maxInFlight) return refuse(res, 429, refusalMessages.tooManyInFlight);
    const now = performance.now();
    const penalised = (shedUntil.get(client) ?? 0) > now;
    if (count > 0 || (penalised && total > 0)) {
      // A late event loop alone (a GC pause, a starved CPU) sheds only a client with two or more
      // running: a browser's action posted while its revalidation or status poll runs is normal.
      const lag = count >= 2 ? delay() : 0;
      if (penalised || total >= options.busyInFlight || lag > options.shedDelayMs) {
        if (!shedding) log("warn", "shedding", { lagMs: Math.round(lag), inFlight: total });
        shedding = true;
        shedUntil.set(client, now + 1000);
        if (shedUntil.size > 10_000) shedUntil.clear();
        return refuse(res, 503, refusalMessages.overloaded);
      }
      shedding = false;
    }
    inFlight.set(client, count + 1);
    total++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      total--;
      const left = (inFlight.get(client) ?? 1) - 1;
      if (left <= 0) inFlight.delete(client);
      else inFlight.set(client, left);
    };
    res.once("finish", release);
    res.once("close", release);
    next();
  };
}

/**
 * The listener's own bounds: open connections in all, time to send the headers and the whole
 * request. Connections per client are the reverse proxy's to bound (limit_conn; README): held or
 * closed here, a script's excess connections still cost the event loop (closed, it reconnects).
 */
export function configureServer(server: Server) {
  const { http: settings } = config();
  server.maxConnections = settings.maxConnections;
  server.headersTimeout = settings.headersTimeoutMs;
  server.requestTimeout = settings.requestTimeoutMs;
  // Idle keep-alive connections go before the proxy's own idle timeout would reuse them.
  server.keepAliveTimeout = 5_000;
}
