import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { LogLevel } from "../log.server";
import { log, requestIdFrom, runWithRequestContext } from "../log.server";
import { observeRequest } from "../metrics.server";
import type { RouteTable } from "./routes";

// Every request runs in a log context with its id (the proxy's X-Request-Id when it is a sane
// token, else a fresh one; echoed in the answer), so every line it logs carries the id. Its
// request line names the route's path template (/schedule/calendar/:file, never the path
// itself: paths carry tokens and people's identifiers), the status, the duration and who asked
// (kind and internal id), never a query string.

/** The name a request is logged and counted under: a route template, "(static)" or "(unmatched)". */
export function routeName(routes: RouteTable, pathname: string, status: number): string {
  if (pathname.startsWith("/build/")) return "/build/*";
  if (pathname === "/metrics") return "/metrics";
  const route = routes.routeOf(pathname);
  if (route.exists) return route.template;
  return status === 404 ? "(unmatched)" : "(static)";
}

export function requestLog(routes: RouteTable, logLevel: LogLevel) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const reqId = requestIdFrom(req.get("X-Request-Id"));
    res.setHeader("X-Request-Id", reqId);
    runWithRequestContext(reqId, (context) => {
      res.on("finish", () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const route = routeName(routes, req.path, res.statusCode);
        observeRequest(req.method, route, res.statusCode, seconds);
        if (logLevel === "silent" || (logLevel !== "debug" && req.path.startsWith("/build/"))) return;
        log("info", "request", {
          reqId,
          method: req.method,
          route,
          status: res.statusCode,
          ms: Math.round(seconds * 10_000) / 10,
          ip: req.ip,
          user: context.user?.kind ?? "anonymous",
          userId: context.user?.id,
          ua: (req.get("User-Agent") ?? "").slice(0, 200) || undefined,
        });
      });
      next();
    }, { reads: req.method === "GET" || req.method === "HEAD" });
  };
}
