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

server.use((req, res, next) => {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    if (settings.logLevel === "silent" || (settings.logLevel !== "debug" && req.path.startsWith("/build/"))) return;
    // Paths only: query strings may carry OAuth codes or tokens, so they are never logged.
    app.log("info", "request", {
      method: req.method,
      path: req.path,
      status: res.statusCode,
      ms: Number(process.hrtime.bigint() - started) / 1e6,
      ip: req.ip,
    });
  });
  next();
});

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
  listener.close(async () => {
    await app.shutdown();
    process.exit(0);
  });
  listener.closeIdleConnections?.();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));

// Which paths a route of the app claims (besides the catch-all 404 route). Unknown paths skip
// the login redirect so that everyone gets the real 404 page.
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
    const source = segments
      .join("/")
      .split("/")
      .filter(Boolean)
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment === "*" ? ".*" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    patterns.push(new RegExp(`^/${source}/?$`));
  }
  return patterns;
}
const patterns = routePatterns();
function routeExists(pathname) {
  const path = pathname.replace(/\/{2,}/g, "/");
  return patterns.some((pattern) => pattern.test(path));
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
