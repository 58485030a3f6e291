import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { pagePath } from "~/lib/request-kind";
import type { RouteHandle } from "~/root";

// Which route a path is, by the router's own matching over the build's routes (the same
// matchRoutes Remix runs), so the pipeline never disagrees with Remix about what exists.

export type RouteInfo = {
  /** A route of the app claims the path (the catch-all 404 route does not count). */
  exists: boolean;
  /** The route's path template ("/post/:id/comment"): what the request log and metrics name. */
  template: string;
  /** The route's handle says its POST keeps a draft without a session (RouteHandle.keepsDraft). */
  keepsDraft: boolean;
};

type Route = ServerBuild["routes"][string];
const UNMATCHED: RouteInfo = { exists: false, template: "(unmatched)", keepsDraft: false };

/** The route table of a build: `routeOf(pathname)` (a data request /x.data is judged as /x). */
export function routeTable(build: Pick<ServerBuild, "routes">) {
  const routes = Object.values(build.routes);
  const childrenOf = (parentId: string | undefined): AgnosticRouteObject[] =>
    routes
      .filter((route) => route.parentId === parentId)
      .map((route) => {
        const children = childrenOf(route.id);
        return route.index
          ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: children.length > 0 ? children : undefined };
      });
  const tree = childrenOf(undefined);
  const cache = new Map<string, RouteInfo>();

  function resolve(pathname: string): RouteInfo {
    const path = pagePath(pathname.replace(/\/{2,}/g, "/"));
    try {
      decodeURIComponent(path);
    } catch {
      return UNMATCHED; // the URL step answers these 400; the log still names them
    }
    const matches = matchRoutes(tree, path);
    const leaf = matches?.at(-1);
    if (!matches || !leaf || leaf.route.path === "*") return UNMATCHED;
    const segments = matches.map((match) => match.route.path ?? "").filter(Boolean);
    const template = `/${segments.join("/")}`.replace(/\/{2,}/g, "/");
    const handle = (build.routes[leaf.route.id!] as Route | undefined)?.module.handle as RouteHandle | undefined;
    return { exists: true, template, keepsDraft: handle?.keepsDraft === true };
  }

  return {
    routeOf(pathname: string): RouteInfo {
      // Paths repeat (pages, their data requests); an unbounded set of distinct ones is not kept.
      const known = cache.get(pathname);
      if (known) return known;
      const info = resolve(pathname);
      if (cache.size < 5000) cache.set(pathname, info);
      return info;
    },
  };
}

export type RouteTable = ReturnType<typeof routeTable>;
