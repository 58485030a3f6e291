// The production server: Express in front of the Remix request handler. It adds what
// remix-serve lacks: security headers with a per-request CSP nonce, the access guard before
// any loader runs, JSON request logs, proxy trust, and a graceful shutdown.
import crypto from "node:crypto";
import path from "node:path";
import url from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const built = await import(url.pathToFileURL(path.join(here, "build/index.js")).href);
const build = withBodyErrorsAs400(built);
const app = build.entry.module;

let settings;
try {
  settings = await app.startup();
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

server.use("/build", express.static(path.join(here, "public/build"), { immutable: true, maxAge: "1y" }));
server.use(express.static(path.join(here, "public"), { maxAge: "1h" }));

server.use(async (req, res, next) => {
  try {
    const request = toWebRequest(req);
    if (app.rejectCrossSite(request)) {
      res.status(403).type("text/plain; charset=utf-8").send("跨站请求已被拒绝");
      return;
    }
    const location = await app.accessRedirect(request, routeExists(req.path));
    if (!location) return next();
    if ("_data" in req.query) {
      // Remix's client follows redirects of data requests only in this form.
      res.status(204).set({ "X-Remix-Redirect": location, "X-Remix-Status": "302" }).end();
      return;
    }
    res.redirect(302, location);
  } catch (error) {
    next(error);
  }
});

server.all(
  "*",
  createRequestHandler({
    build,
    mode: "production",
    // Remix strips ?_data before an action sees the request; dataRequest keeps that fact.
    getLoadContext: (req, res) => ({
      nonce: res.locals.nonce,
      clientIp: req.ip ?? "unknown",
      dataRequest: new URLSearchParams(req.url.split("?")[1] ?? "").has("_data"),
    }),
  }),
);

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
  const path = pathname.replace(/\/{2,}/g, "/");
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

function toWebRequest(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(", "));
  }
  // req.protocol is "https" behind a TLS proxy when TRUST_PROXY is on, so the origin check and
  // every absolute URL the app makes see the address the browser used.
  return new Request(new URL(req.originalUrl, `${req.protocol}://${req.headers.host ?? "localhost"}`), { method: req.method, headers });
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
function withBodyErrorsAs400(original) {
  const routes = {};
  for (const [id, route] of Object.entries(original.routes)) {
    const action = route.module.action;
    if (typeof action !== "function") {
      routes[id] = route;
      continue;
    }
    const guarded = async (args) => {
      try {
        return await action(args);
      } catch (error) {
        if (isBodyError(error)) {
          throw new Response("请求内容格式不对，请刷新页面后重试", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
        }
        throw error;
      }
    };
    routes[id] = { ...route, module: { ...route.module, action: guarded } };
  }
  return { ...original, routes };
}
