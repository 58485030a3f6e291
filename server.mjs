// The production server: Express in front of the Remix request handler. It adds what
// remix-serve lacks: security headers with a per-request CSP nonce, bounded requests (body limits
// by route class before anything parses a body, URL checks; decision 016), the access guard before
// any loader runs, JSON request logs, proxy trust, and a graceful shutdown.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { createRequestHandler, redirect, writeReadableStreamToWritable } from "@remix-run/node";
import compression from "compression";
import express from "express";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const built = await import(url.pathToFileURL(path.join(here, "build/index.js")).href);
const build = withBodyChecks(built);
const app = build.entry.module;

let settings;
/** Body, URL, multipart and JSON limits (app/lib/request-limits.ts, configured in config.server.ts). */
let limits;
try {
  settings = await app.startup();
  limits = settings.requestLimits;
} catch (error) {
  console.error(`[campus-app] cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const server = express();
server.disable("x-powered-by");
// TRUST_PROXY=true (or a number of hops): req.ip is the address the nearest proxy saw (the right
// end of X-Forwarded-For, never a value the client put further left) and req.protocol follows
// X-Forwarded-Proto. Without it both headers are ignored.
if (settings.trustProxy > 0) server.set("trust proxy", settings.trustProxy);
server.use(compression());

// Every request runs in a log context with its id (the proxy's X-Request-Id when it is a sane
// token, else a fresh one; echoed in the answer), so every line it logs carries the id. Its
// request line names the route pattern, status, duration and who asked (kind and internal id),
// never a query string (OAuth codes, tokens) nor a person's data in the path.
server.use((req, res, next) => {
  const started = process.hrtime.bigint();
  const reqId = app.requestIdFrom(req.get("X-Request-Id"));
  res.setHeader("X-Request-Id", reqId);
  app.runWithRequestContext(reqId, (context) => {
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(req.path, res.statusCode);
      app.observeRequest(req.method, route.name, res.statusCode, seconds);
      if (settings.logLevel === "silent" || (settings.logLevel !== "debug" && req.path.startsWith("/build/"))) return;
      app.log("info", "request", {
        reqId,
        method: req.method,
        route: route.name,
        path: route.path,
        status: res.statusCode,
        ms: Math.round(seconds * 10_000) / 10,
        ip: req.ip,
        user: context.user?.kind ?? "anonymous",
        userId: context.user?.id,
        ua: (req.get("User-Agent") ?? "").slice(0, 200) || undefined,
      });
    });
    next();
  });
});

// Metrics: never public. With METRICS_TOKEN, /metrics on this port answers the bearer of the
// token only; with METRICS_PORT, a listener of its own (METRICS_HOST, loopback by default).
const metricsToken = settings.metrics.token;
async function sendMetrics(res) {
  try {
    const { body, contentType } = await app.metricsText();
    res.status(200).set({ "Content-Type": contentType, "Cache-Control": "no-store" }).send(body);
  } catch (error) {
    app.log("error", "metrics", { error: String(error) });
    res.status(500).type("text/plain; charset=utf-8").send("metrics unavailable");
  }
}
server.get("/metrics", (req, res, next) => {
  if (!metricsToken) return next();
  const given = Buffer.from(/^Bearer (.+)$/.exec(req.get("Authorization") ?? "")?.[1] ?? "");
  const expected = Buffer.from(metricsToken);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    res.status(401).set({ "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" }).type("text/plain; charset=utf-8").send("需要运维令牌");
    return;
  }
  void sendMetrics(res);
});
let metricsListener;
if (settings.metrics.port) {
  const metricsServer = express();
  metricsServer.disable("x-powered-by");
  metricsServer.get("/metrics", (_req, res) => void sendMetrics(res));
  metricsListener = metricsServer.listen(settings.metrics.port, settings.metrics.host, () => {
    app.log("info", "metrics-listening", { host: settings.metrics.host, port: settings.metrics.port });
  });
}

server.use((req, res, next) => {
  const nonce = crypto.randomBytes(16).toString("base64");
  res.locals.nonce = nonce;
  for (const [name, value] of Object.entries(app.securityHeaders(nonce))) res.setHeader(name, value);
  next();
});

// A URL over the limit or a path that cannot be decoded (/%ff) is the sender's fault: 414/400
// before any route (or the static files) tries to decode it.
server.use((req, res, next) => {
  const refusal = app.checkUrl(req.originalUrl, limits);
  if (!refusal) return next();
  const answer = app.refusalAnswer(req.originalUrl.split("?")[0], refusal);
  res.status(answer.status).type(answer.contentType).send(answer.body);
});

// Bounded bodies (issue 18): a declared length over the route's limit is refused before a byte is
// read (the action answers 413 without touching the body; the rest is never read: closeAfterAnswer);
// a streamed body is counted as the action reads it (countedBody below).
server.use((req, res, next) => {
  if (!hasBody(req)) return next();
  closeAfterAnswer(req, res);
  res.locals.bodyRule = app.bodyRule(req.path, req.headers["content-type"], limits);
  if (app.declaredTooLarge(req.headers["content-length"], res.locals.bodyRule)) refuseBody(res, { status: 413, reason: "too_large" });
  next();
});

server.use("/build", express.static(path.join(here, "public/build"), { immutable: true, maxAge: "1y" }));
// public/ is fixed at deploy: only a path under one of its own entries reaches the disk, so a page
// request costs no stat() and no ENOENT error (2.7% of a loaded /circle's CPU, issue 20).
const publicDir = path.join(here, "public");
const publicEntries = new Set(fs.readdirSync(publicDir).filter((name) => name !== "build"));
const servePublic = express.static(publicDir, { maxAge: "1h" });
/** "favicon.svg" for /favicon.svg, "static" for /static/x.png; the decoded path's first name. */
const firstSegment = (requestPath) => requestPath.slice(1).split("/", 1)[0];
server.use((req, res, next) => (publicEntries.has(firstSegment(req.path)) ? servePublic(req, res, next) : next()));

server.use(async (req, res, next) => {
  try {
    // One web Request for the guard and for Remix (building a second cost every page ~3% of its
    // CPU, issue 20). The guard reads its URL and headers only, never its body.
    const request = remixRequest(req, res);
    res.locals.webRequest = request;
    if (app.rejectCrossSite(request)) {
      res.status(403).type("text/plain; charset=utf-8").send("跨站请求已被拒绝");
      return;
    }
    const location = await app.accessRedirect(request, routeExists(app.pagePath(req.path)));
    if (!location) return next();
    if (app.isDataRequest(req.path)) {
      // A single-fetch data request (/page.data) follows a redirect only as Remix encodes it:
      // its loaders and action throw it instead of running (withBodyChecks below).
      res.locals.accessRedirect = location;
      return next();
    }
    res.redirect(302, location);
  } catch (error) {
    next(error);
  }
});

const handleRemix = createRequestHandler(build, "production");
server.all("*", async (req, res, next) => {
  try {
    const request = res.locals.webRequest; // made by the guard above, which every request here passed
    const context = {
      nonce: res.locals.nonce,
      clientIp: req.ip ?? "unknown",
      accessRedirect: res.locals.accessRedirect,
      bodyRefusal: () => res.locals.refusal ?? null,
    };
    const response = await handleRemix(request, context);
    if (res.headersSent) {
      await response.body?.cancel();
      return;
    }
    if (response.status === 429 && context.retryAfter && !response.headers.has("Retry-After")) res.setHeader("Retry-After", context.retryAfter);
    await sendRemixResponse(res, response);
  } catch (error) {
    next(error);
  }
});

server.use((error, _req, res, _next) => {
  app.log("error", "unhandled", { error: error instanceof Error ? error.stack : String(error) });
  res.status(500).type("text/plain; charset=utf-8").send("服务器开小差了，请稍后重试");
});

const listener = server.listen(settings.port, settings.host, () => {
  app.log("info", "listening", { url: `http://localhost:${settings.port}`, env: settings.env });
});
listener.on("error", async (error) => {
  const reason =
    error.code === "EADDRINUSE"
      ? `port ${settings.port} is already in use: stop what runs there or set PORT to a free port`
      : error.code === "EACCES"
        ? `port ${settings.port} needs privileges: set PORT to 1024 or above`
        : error.message;
  console.error(`[campus-app] cannot listen: ${reason}`);
  await app.shutdown().catch(() => {});
  process.exit(1);
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  app.log("info", "shutdown", { signal });
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  metricsListener?.close();
  listener.close(async () => {
    await app.shutdown();
    process.exit(0);
  });
  listener.closeIdleConnections?.();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));

// Which paths a route of the app claims (besides the catch-all 404 route), with each route's
// pattern (/post/:id) for the request line and the metrics. Unknown paths skip the login redirect
// so that everyone gets the real 404 page.
function routePatterns() {
  const routes = Object.values(build.routes);
  const byId = new Map(routes.map((route) => [route.id, route]));
  const patterns = [];
  for (const route of routes) {
    if (route.path === "*" || route.id === "root") continue;
    const segments = [];
    for (let current = route; current; current = byId.get(current.parentId)) {
      if (current.path) segments.unshift(current.path);
    }
    const parts = segments.join("/").split("/").filter(Boolean);
    const source = parts
      .map((segment) => (segment.startsWith(":") ? "([^/]+)" : segment === "*" ? ".*" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    // Path segments that are a person's identifier are masked in the log (issue 18: openids).
    const masked = parts.filter((segment) => segment.startsWith(":")).map((segment) => PERSONAL_PARAM.test(segment));
    patterns.push({ regex: new RegExp(`^/${source}/?$`), name: `/${parts.join("/")}`, masked });
  }
  // A path both a fixed and a parameter route match is named by the fixed one.
  const dynamicParts = (pattern) => pattern.name.split("/").filter((part) => part.startsWith(":") || part === "*").length;
  return patterns.sort((a, b) => dynamicParts(a) - dynamicParts(b));
}
const PERSONAL_PARAM = /openid|unionid|phone|name|token/i;
const patterns = routePatterns();
function routeExists(pathname) {
  const path = pathname.replace(/\/{2,}/g, "/");
  return patterns.some((pattern) => pattern.regex.test(path));
}
/** The route pattern of a path ("(static)" for files, "(unmatched)" for the rest) and the path as logged. */
function routeOf(pathname, status) {
  if (pathname.startsWith("/build/")) return { name: "/build/*", path: pathname };
  if (pathname === "/metrics") return { name: "/metrics", path: pathname };
  // A single-fetch data request (/post/12.data) is logged and counted as its page.
  const path = app.pagePath(pathname.replace(/\/{2,}/g, "/"));
  for (const pattern of patterns) {
    const match = pattern.regex.exec(path);
    if (!match) continue;
    let index = 0;
    const logged = pattern.masked.some(Boolean)
      ? pattern.name.replace(/:[^/]+/g, (param) => (pattern.masked[index++] ? param : match[index]))
      : path;
    return { name: pattern.name, path: logged };
  }
  return { name: status === 404 ? "(unmatched)" : "(static)", path: path.length > 200 ? `${path.slice(0, 200)}…` : path };
}

// A body that is not what an action reads (JSON or text to a form, a broken multipart body, no
// body at all) makes request.formData()/json() throw. That is the sender's fault: answer 400
// with a message instead of a 500. Only these parse errors are translated; any other error of
// an action stays a 500 (tests/security/security.test.ts sends such bodies to every action).
function isBodyError(error) {
  const BODY_ERRORS = [
    /^Content-Type was not one of/,
    /^Failed to parse body as FormData/,
    /^Could not parse content as FormData/,
    /^malformed multipart-form data/,
  ];
  if (error instanceof SyntaxError) return /JSON/.test(error.message) || /in JSON at position/.test(error.message);
  return error instanceof Error && BODY_ERRORS.some((pattern) => pattern.test(error.message));
}
function withBodyChecks(original) {
  const routes = {};
  for (const [id, route] of Object.entries(original.routes)) {
    const { action, loader } = route.module;
    if (typeof action !== "function" && typeof loader !== "function") {
      routes[id] = route;
      continue;
    }
    // The access guard's answer to a data request (see accessRedirect above), before any loader reads data.
    const guardedLoader = async (args) => {
      if (args.context?.accessRedirect) throw redirect(args.context.accessRedirect);
      return loader(args);
    };
    const guarded = async (args) => {
      if (args.context?.accessRedirect) throw redirect(args.context.accessRedirect);
      const refused = () => args.context?.bodyRefusal?.() ?? null;
      const pathname = () => new URL(args.request.url).pathname;
      if (refused()) throw app.refusalResponse(pathname(), refused());
      let result;
      try {
        result = await action(args);
      } catch (error) {
        if (refused()) throw app.refusalResponse(pathname(), refused());
        if (isBodyError(error)) throw app.refusalResponse(pathname(), { status: 400, reason: "too_deep" });
        throw error;
      }
      // The action may have handled the broken body itself: the refusal still wins.
      if (refused()) throw app.refusalResponse(pathname(), refused());
      // A rate-limited action's Retry-After reaches the browser on a document request too, where
      // Remix sends the page's headers instead of the action's.
      if (result instanceof Response && result.status === 429 && args.context) args.context.retryAfter = result.headers.get("Retry-After");
      return result;
    };
    const module = { ...route.module };
    if (typeof action === "function") module.action = guarded;
    if (typeof loader === "function") module.loader = guardedLoader;
    routes[id] = { ...route, module };
  }
  return { ...original, routes };
}

function hasBody(req) {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

function refuseBody(res, refusal) {
  res.locals.refusal ??= refusal;
}

// How long a connection whose body nobody reads stays open after the answer.
const LINGER_MS = 500;

/**
 * A body left unread (refused, or not wanted by the route) is never read on: once the answer is
 * out, the socket stops reading (the excess waits in the client's own buffers, flow control stops
 * it) and after LINGER_MS the connection is closed. Closing at once would reset it while the
 * client still writes, and the client could lose the answer; discarding what arrives would cost
 * the server the very work the limit saves.
 */
function closeAfterAnswer(req, res) {
  if (res.locals.lingering) return;
  res.locals.lingering = true;
  const socket = req.socket;
  let timer;
  const linger = () => {
    if (timer) return;
    socket.pause();
    timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
  // Node ends a "Connection: close" exchange with socket.destroySoon() right after the answer,
  // which resets a connection with unread bytes: our side is closed (FIN) and it lingers instead.
  const destroySoon = socket.destroySoon;
  socket.destroySoon = function destroyAfterLinger() {
    if (req.complete) return destroySoon.call(this);
    this.end();
    linger();
  };
  res.on("finish", () => {
    if (!req.complete) linger();
  });
}

function remixHeaders(requestHeaders) {
  const headers = new Headers();
  for (const [key, values] of Object.entries(requestHeaders)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

async function sendRemixResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/** What @remix-run/express's createRequestHandler builds, with the body read through countedBody (and none once refused). */
function remixRequest(req, res) {
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = Number.parseInt(hostPort, 10);
  const url = new URL(`${req.protocol}://${req.hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.originalUrl}`);
  let controller = new AbortController();
  const init = { method: req.method, headers: remixHeaders(req.headers), signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD" && !res.locals.refusal) {
    init.body = hasBody(req) ? countedBody(req, res) : null;
    init.duplex = "half";
  }
  // Abort loaders and actions once no response can be written (close without finish).
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  return new Request(url.href, init);
}

/**
 * The request body as the action reads it, counted on the way (app/lib/request-limits.ts
 * BodyScanner): bytes against the route's limit, multipart parts, JSON nesting. At the first
 * refusal the stream errors and reading stops; nothing past the limit is read or kept.
 */
function countedBody(req, res) {
  const scanner = new app.BodyScanner(res.locals.bodyRule ?? app.bodyRule(req.path, req.headers["content-type"], limits), req.headers["content-type"], limits);
  let stopped = false;
  return new ReadableStream(
    {
      start(controller) {
        req.on("data", (chunk) => {
          if (stopped) return;
          const bytes = new Uint8Array(chunk);
          const refusal = scanner.push(bytes);
          if (refusal) {
            stopped = true;
            req.pause();
            refuseBody(res, refusal);
            controller.error(new Error(`request body refused: ${refusal.reason}`));
            return;
          }
          controller.enqueue(bytes);
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.on("end", () => {
          if (stopped) return;
          stopped = true;
          controller.close();
        });
        req.on("error", (error) => {
          if (stopped) return;
          stopped = true;
          controller.error(error);
        });
        req.pause();
      },
      pull() {
        if (!stopped) req.resume();
      },
      cancel() {
        stopped = true;
        req.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}
