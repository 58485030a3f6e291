import fs from "node:fs";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type Express, type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { isDataRequest } from "~/lib/request-kind";
import { checkUrl } from "~/lib/request-limits";
import { accessRedirect } from "../auth/guard.server";
import { hasVisited, visitCookieHeader } from "../auth/visit.server";
import { config } from "../config.server";
import { log } from "../log.server";
import { refusalAnswer } from "./bounds-answer";
import { securityHeaders } from "../security.server";
import { bodyLimits } from "./body";
import { rejectCrossSite } from "./csrf";
import { fairShare } from "./fairness";
import { metricsEndpoint } from "./metrics";
import { freshNonce } from "./nonce";
import { remixHandler, remixRequest } from "./remix";
import { requestLog } from "./request-log";
import { routeTable } from "./routes";
import { pipelineState } from "./state";

// The request pipeline in front of Remix, in order: the request's log line and id; a sane Host;
// load shedding and the client's share of requests in flight; metrics; security headers with the
// CSP nonce; the URL check; the one body-limit step; static files; the one cross-site check and
// the access table; then Remix. Everything a step learns is in the request's PipelineState.

/** A host name, IPv4 or [IPv6] literal with an optional port: anything else is a 400. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

function hostIsSane(req: ExpressRequest, trustProxy: boolean) {
  const hosts = [req.headers.host];
  if (trustProxy && req.headers["x-forwarded-host"]) hosts.push(String(req.headers["x-forwarded-host"]).split(",")[0]!.trim());
  return hosts.every((host) => host === undefined || HOST.test(host));
}

function text(res: ExpressResponse, status: number, body: string) {
  res.status(status).set("Cache-Control", "no-store").type("text/plain; charset=utf-8").send(body);
}

/** The whole HTTP app of a build; `root` is the folder of public/. */
export function createHttpApp(build: ServerBuild, root: string): Express {
  const settings = config();
  const limits = settings.requestLimits;
  const routes = routeTable(build);
  const app = express();
  app.disable("x-powered-by");
  // TRUST_PROXY=true (or a number of hops): req.ip is the address the nearest proxy saw (the right
  // end of X-Forwarded-For, never a value the client put further left) and req.protocol follows
  // X-Forwarded-Proto. Without it both headers are ignored.
  if (settings.trustProxy > 0) app.set("trust proxy", settings.trustProxy);
  // First, before any other work: each client network's fair share (fairness.ts).
  app.use(
    fairShare({
      maxInFlight: settings.http.clientMaxInFlight,
      busyInFlight: settings.http.busyInFlight,
      shedDelayMs: settings.http.shedDelayMs,
      ipv6Prefix: settings.clientIpv6Prefix,
      uncounted: (requestPath) => requestPath.startsWith("/build/"),
    }),
  );
  app.use(compression());
  app.use(requestLog(routes, settings.logLevel));
  app.use((req, res, next) => (hostIsSane(req, settings.trustProxy > 0) ? next() : text(res, 400, refusalMessages.badHost)));
  app.use(metricsEndpoint(settings.metrics));

  app.use((_req, res, next) => {
    const nonce = freshNonce();
    pipelineState(res).nonce = nonce;
    for (const [name, value] of Object.entries(securityHeaders(nonce))) res.setHeader(name, value);
    next();
  });

  // A URL over the limit or a path that cannot be decoded (/%ff) is the sender's fault: 414/400
  // before any route (or the static files) tries to decode it.
  app.use((req, res, next) => {
    const refusal = checkUrl(req.originalUrl, limits);
    if (!refusal) return next();
    const answer = refusalAnswer(req.originalUrl.split("?")[0]!, refusal);
    res.status(answer.status).type(answer.contentType).send(answer.body);
  });

  app.use(bodyLimits(limits));

  app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
  // public/ is fixed at deploy: only a path under one of its own entries reaches the disk, so a
  // page request costs no stat() and no ENOENT error.
  const publicDir = path.join(root, "public");
  const publicEntries = new Set(fs.readdirSync(publicDir).filter((name) => name !== "build"));
  const servePublic = express.static(publicDir, { maxAge: "1h" });
  app.use((req, res, next) => (publicEntries.has(req.path.slice(1).split("/", 1)[0]!) ? servePublic(req, res, next) : next()));

  app.use(async (req, res, next) => {
    try {
      const state = pipelineState(res);
      // One web Request for the guard and for Remix. The guard reads its URL and headers only.
      let request: Request;
      try {
        request = remixRequest(req, res, limits);
      } catch {
        return text(res, 400, refusalMessages.badHost);
      }
      state.webRequest = request;
      if (rejectCrossSite(request)) return text(res, 403, refusalMessages.crossSite);
      state.route = routes.routeOf(req.path);
      const location = await accessRedirect(request, state.route);
      if (!location) return next();
      // A single-fetch data request (/page.data) follows a redirect only as Remix encodes it:
      // its loaders and action throw it instead of running (remix.ts guardedBuild).
      if (isDataRequest(req.path)) {
        state.accessRedirect = location;
        return next();
      }
      res.redirect(302, location);
    } catch (error) {
      next(error);
    }
  });

  // A page shown to a browser without the pre-login cookie sets it (auth/visit.server).
  app.use(async (req, res, next) => {
    try {
      const page = req.method === "GET" && (req.headers.accept ?? "").includes("text/html") && !isDataRequest(req.path);
      if (page && pipelineState(res).route?.exists && !(await hasVisited(req.headers.cookie))) {
        res.append("Set-Cookie", await visitCookieHeader());
      }
      next();
    } catch (error) {
      next(error);
    }
  });

  app.all("*", remixHandler(build));

  app.use((error: unknown, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    log("error", "unhandled", { error: error instanceof Error ? error.stack : String(error) });
    if (res.headersSent) return res.end();
    text(res, 500, "服务器开小差了，请稍后重试");
  });
  return app;
}
