import crypto from "node:crypto";
import express, { type Express, type Request as ExpressRequest, type Response as ExpressResponse, type NextFunction } from "express";
import type { Config } from "../config.server";
import { log } from "../log.server";
import { metricsText } from "../metrics.server";

// Metrics: never public. With METRICS_TOKEN, /metrics on the app's port answers the bearer of the
// token only; with METRICS_PORT, a listener of its own (METRICS_HOST, loopback by default).

async function sendMetrics(res: ExpressResponse) {
  try {
    const { body, contentType } = await metricsText();
    res.status(200).set({ "Content-Type": contentType, "Cache-Control": "no-store" }).send(body);
  } catch (error) {
    log("error", "metrics", { error: String(error) });
    res.status(500).type("text/plain; charset=utf-8").send("metrics unavailable");
  }
}

/** GET /metrics on the app's port: only with METRICS_TOKEN, only for its bearer. */
export function metricsEndpoint(settings: Config["metrics"]) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!settings.token || req.method !== "GET" || req.path !== "/metrics") return next();
    const given = Buffer.from(/^Bearer (.+)$/.exec(req.get("Authorization") ?? "")?.[1] ?? "");
    const expected = Buffer.from(settings.token);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      res.status(401).set({ "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" }).type("text/plain; charset=utf-8").send("需要运维令牌");
      return;
    }
    void sendMetrics(res);
  };
}

/** The metrics listener's app (METRICS_PORT), or null when there is none. */
export function metricsApp(settings: Config["metrics"]): Express | null {
  if (!settings.port) return null;
  const app = express();
  app.disable("x-powered-by");
  app.get("/metrics", (_req, res) => void sendMetrics(res));
  return app;
}
