// Patches/@remix-run+router+1.23.4.patch (applied by `npm ci` through the postinstall
// `patch-package`) keeps @remix-run/router's flattened and ranked route branches per routes
// tree shape, the branch each pathname matched, and compiled paths, instead of rebuilding them on
// every matchRoutes call (26–31% of the server's CPU under load). This proves the patched copy is
// the one the server runs, that the cache is used (also by fresh copies of a tree, as Remix makes
// for every render, answering with the copy's own routes), that a tree changed by patchRoutes is
// seen, and that every answer equals the unpatched router's (its UMD build, which the patch leaves
// alone) on the app's own routes. The phones get the ESM build (the package's "module" entry, which
// esbuild bundles for the browser): the patch leaves it alone too, and its answers must equal the
// server's, or a page rendered on the server would hydrate against other matches.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

type RouteObject = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteObject[] };
type Match = { params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: RouteObject };
type Router = {
  matchRoutes: (routes: RouteObject[], location: string, basename?: string) => Match[] | null;
  createRouter: (init: Record<string, unknown>) => { initialize(): unknown; patchRoutes(routeId: string | null, children: RouteObject[]): void; routes: RouteObject[]; dispose(): void };
  createMemoryHistory: (options?: { initialEntries?: string[] }) => unknown;
  UNSAFE_routeBranchCacheStats?: { flattens: number; shapeHits: number; arrayHits: number; matchHits: number };
};

const router: Router = require("@remix-run/router");
const unpatched: Router = require(path.join(path.dirname(require.resolve("@remix-run/router")), "router.umd.js"));
const ESM_BUILD = path.join(path.dirname(require.resolve("@remix-run/router")), "router.js");

/** The ESM build as the browser gets it. Its package has no "type": "module", so Node reads it from a copy named .mjs (the build imports nothing). */
async function esmBuild(): Promise<Router> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "router-esm-"));
  const copy = path.join(dir, "router.mjs");
  fs.copyFileSync(ESM_BUILD, copy);
  try {
    return (await import(/* @vite-ignore */ pathToFileURL(copy).href)) as Router;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The app's route tree, as the Remix compiler reads app/routes (flat routes). */
function appRoutes(): RouteObject[] {
  const { flatRoutes } = require("@remix-run/dev/dist/config/flat-routes.js") as {
    flatRoutes: (dir: string, ignored: string[]) => Record<string, { id: string; path?: string; index?: boolean; caseSensitive?: boolean; parentId?: string }>;
  };
  const manifest = Object.values(flatRoutes(path.join(ROOT, "app"), ["**/.*", "**/*.test.{ts,tsx}"]));
  const build = (parentId: string): RouteObject[] =>
    manifest
      .filter((route) => route.parentId === parentId)
      .map((route) => {
        const children = build(route.id);
        return { id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, ...(children.length ? { children } : {}) };
      });
  return [{ id: "root", path: "", children: build("root") }];
}

/** Every route's path with its parameters filled in, plus paths no route has. */
function pathsOf(routes: RouteObject[], prefix = ""): string[] {
  return routes.flatMap((route) => {
    const own = [prefix, route.path ?? ""].filter(Boolean).join("/");
    const filled = own.replace(/:[\w-]+\??/g, "42").replace(/\*$/, "a/b");
    return [`/${filled}`, `/${filled}/`, ...pathsOf(route.children ?? [], own)];
  });
}

const summary = (matches: Match[] | null) =>
  matches?.map((match) => ({ id: match.route.id, params: { ...match.params }, pathname: match.pathname, pathnameBase: match.pathnameBase })) ?? null;

describe("the route-matching cache (patches/@remix-run+router+1.23.4.patch)", () => {
  it("is in the copy of @remix-run/router the server runtime and React Router load", () => {
    const own = require.resolve("@remix-run/router");
    for (const user of ["@remix-run/server-runtime", "react-router", "@remix-run/react"]) {
      const fromUser = createRequire(require.resolve(user)).resolve("@remix-run/router");
      expect(fromUser, user).toBe(own);
    }
    expect(router.UNSAFE_routeBranchCacheStats, "the patch is not applied: run `npx patch-package`").toBeDefined();
  });

  it("flattens and ranks a tree once, however often and in however many copies it is matched", () => {
    const stats = router.UNSAFE_routeBranchCacheStats!;
    // A shape no other test uses (the cache is per process).
    const routes = [{ id: "only-here", path: "/only-here-1", children: appRoutes() }];
    const before = { ...stats };
    expect(router.matchRoutes(routes, "/only-here-1/circle")?.length).toBeGreaterThan(1);
    router.matchRoutes(routes, "/only-here-1/post/7");
    router.matchRoutes(routes, "/only-here-1/nowhere/at/all");
    expect(stats.flattens - before.flattens).toBe(1);
    expect(stats.arrayHits - before.arrayHits).toBe(2);
    // A fresh copy of the same tree (what Remix builds for every render) reuses the branches...
    const copy = structuredClone(routes);
    const matches = router.matchRoutes(copy, "/only-here-1/circle")!;
    expect(stats.flattens - before.flattens).toBe(1);
    expect(stats.shapeHits - before.shapeHits).toBe(1);
    // ...and the pathname's branch, but answers with the copy's own route objects.
    expect(stats.matchHits - before.matchHits).toBe(1);
    expect(matches[0].route).toBe(copy[0]);
    expect(matches[1].route).toBe(copy[0].children!.find((route) => route.id === matches[1].route.id));
    // A tree of another shape is flattened on its own.
    router.matchRoutes([{ id: "only-here", path: "/only-here-2", children: appRoutes() }], "/only-here-2/circle");
    expect(stats.flattens - before.flattens).toBe(2);
  });

  it("answers exactly as the unpatched router on every path of the app", () => {
    const routes = appRoutes();
    const paths = [...new Set([...pathsOf(routes), "/", "//circle", "/CIRCLE", "/post/%E4%B8%AD", "/post/a%2Fb", "/admin/orders?x=1", "/x/y/z", "/blog/article/1/"])];
    expect(paths.length).toBeGreaterThan(150);
    for (const basename of ["/", "/app"]) {
      for (const pathname of paths) {
        const location = basename === "/" ? pathname : `/app${pathname}`;
        const expected = summary(unpatched.matchRoutes(routes, location, basename));
        // The first call fills the caches, the second reads them, the third reads them for a copy.
        expect(summary(router.matchRoutes(routes, location, basename)), location).toEqual(expected);
        expect(summary(router.matchRoutes(routes, location, basename)), location).toEqual(expected);
        const copy = structuredClone(routes);
        const copied = router.matchRoutes(copy, location, basename);
        expect(summary(copied), location).toEqual(expected);
        if (copied) expect(copied[0].route, location).toBe(copy[0]);
      }
    }
  });

  it("leaves the ESM build the phones get unpatched, and it answers as the server's build on every path of the app", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(ESM_BUILD), "..", "package.json"), "utf8")) as { module?: string };
    expect(path.resolve(path.dirname(ESM_BUILD), "..", manifest.module ?? ""), "the browser bundle's entry").toBe(ESM_BUILD);
    expect(fs.readFileSync(ESM_BUILD, "utf8")).not.toContain("routeBranchCache");
    const esm = await esmBuild();
    expect(esm.UNSAFE_routeBranchCacheStats).toBeUndefined();
    const routes = appRoutes();
    const paths = [...new Set([...pathsOf(routes), "/", "//circle", "/CIRCLE", "/post/%E4%B8%AD", "/post/a%2Fb", "/x/y/z", "/blog/article/1/"])];
    for (const basename of ["/", "/app"]) {
      for (const pathname of paths) {
        const location = basename === "/" ? pathname : `/app${pathname}`;
        // The server's answer comes from its cache here (the test above filled it for these paths).
        expect(summary(esm.matchRoutes(routes, location, basename)), location).toEqual(summary(router.matchRoutes(routes, location, basename)));
      }
    }
    // Unpatched, every call flattens and ranks the whole tree again: on a loaded machine that takes a while.
  }, 120_000);

  it("sees routes patched into a tree in place (lazy route discovery)", () => {
    const history = router.createMemoryHistory({ initialEntries: ["/"] });
    const instance = router.createRouter({ routes: [{ id: "root", path: "/", children: [{ id: "home", index: true }] }], history });
    instance.initialize();
    try {
      expect(router.matchRoutes(instance.routes, "/late")?.map((match) => match.route.id) ?? null).toBeNull();
      instance.patchRoutes("root", [{ id: "late", path: "late" }]);
      expect(router.matchRoutes(instance.routes, "/late")?.map((match) => match.route.id)).toEqual(["root", "late"]);
    } finally {
      instance.dispose();
    }
  });
});
