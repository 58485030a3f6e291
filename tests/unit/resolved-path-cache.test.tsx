// Patches/react-router+6.30.4.patch makes useResolvedPath keep the route matches' JSON
// per matches array and the resolved path per (to, route pathnames, location pathname, relative),
// instead of stringifying, parsing and resolving for every call: three calls per <Link> on the
// server. The server loads React Router's UMD builds (dist/main.js: the production one under
// NODE_ENV=production, the development one here). This proves both are patched and that every href
// they draw, cold and from the cache, at several locations, equals the unpatched ESM build's.
import { createRequire } from "node:module";
import path from "node:path";
import { createElement as h, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const umd = path.join(path.dirname(require.resolve("react-router")), "umd");

type To = string | { pathname?: string; search?: string; hash?: string };
type Copy = {
  Router: (props: { location: string; navigator: typeof navigator; static: boolean; children: ReactNode }) => ReactNode;
  Routes: (props: { children: ReactNode }) => ReactNode;
  Route: (props: { path?: string; index?: boolean; element?: ReactNode; children?: ReactNode }) => ReactNode;
  useHref: (to: To, options?: { relative?: "route" | "path" }) => string;
  useResolvedPath: (to: To, options?: { relative?: "route" | "path" }) => { pathname: string; search: string; hash: string };
};

const copies: Record<string, Copy> = {
  "production UMD (what the server runs)": require(path.join(umd, "react-router.production.min.js")),
  "development UMD": require(path.join(umd, "react-router.development.js")),
};
const unpatched: Copy = require(path.join(path.dirname(require.resolve("react-router")), "index.js"));

const TOS: To[] = [".", "..", "../..", "comment", "./report?x=1", "../7#top", "?tab=hot", "#c", "/circle", "/post/9/", "", { pathname: "help", search: "?a=1" }, { hash: "#x" }];

function Probe({ copy }: { copy: Copy }) {
  const out: string[] = [];
  for (const to of TOS) {
    for (const relative of ["route", "path"] as const) {
      const resolved = copy.useResolvedPath(to, { relative });
      out.push(`${JSON.stringify(to)} ${relative} ${copy.useHref(to, { relative })} ${resolved.pathname}|${resolved.search}|${resolved.hash}`);
    }
  }
  return h("pre", null, out.join("\n"));
}

// What a static router's navigator does with a path (react-router-dom's createStaticRouter).
const navigator = {
  createHref: (to: To) => (typeof to === "string" ? to : `${to.pathname ?? ""}${to.search ?? ""}${to.hash ?? ""}`),
  encodeLocation: (to: To) => (typeof to === "string" ? { pathname: to, search: "", hash: "" } : { pathname: to.pathname ?? "", search: to.search ?? "", hash: to.hash ?? "" }),
  push() {},
  replace() {},
  go() {},
};

function render(copy: Copy, location: string) {
  const probe = h(Probe, { copy });
  return renderToStaticMarkup(
    h(copy.Router, { location, navigator, static: true },
      h(copy.Routes, null,
        h(copy.Route, { path: "/" },
          h(copy.Route, { index: true, element: probe }),
          h(copy.Route, { path: "circle", element: probe }),
          h(copy.Route, { path: "post/:id" }, h(copy.Route, { index: true, element: probe }), h(copy.Route, { path: "comment", element: probe })),
          h(copy.Route, { path: "blog/*", element: probe }),
        ),
      ),
    ),
  );
}

const LOCATIONS = ["/", "/circle", "/circle/", "/post/7", "/post/7/", "/post/8", "/post/7/comment", "/blog/article/1", "/blog/a/b/"];

describe("the resolved-path cache (patches/react-router+6.30.4.patch)", () => {
  it("is in both UMD builds the server may load", async () => {
    const fs = await import("node:fs");
    for (const file of ["react-router.production.min.js", "react-router.development.js"]) {
      expect(fs.readFileSync(path.join(umd, file), "utf8"), `${file}: run \`npx patch-package\``).toContain("campusResolveTo");
    }
  });

  it.each(Object.keys(copies))("%s draws every href as the unpatched build does, cold and cached, at every location", (name) => {
    const copy = copies[name];
    for (let pass = 0; pass < 2; pass++) {
      for (const location of LOCATIONS) {
        const expected = render(unpatched, location);
        expect(expected).toContain("post"); // the probe rendered
        expect(render(copy, location), `${location}, pass ${pass + 1}`).toBe(expected);
      }
    }
  });
});
