// `npm run bench` measures the app against a bare Remix v2 app kept in
// scripts/bench/reference. This smoke test proves that it still builds with the repository's
// node_modules and answers its page, and (on that build, in process) that the patched
// @remix-run/react and react-router-dom (patches/) build the server routes and the static
// router's data routes of a build once instead of once per render, with the same page as the answer.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REFERENCE_DIR, buildReference, startReference } from "../../scripts/bench/reference.mjs";

const require = createRequire(import.meta.url);

let server: { base: string; stop: () => Promise<void> } | undefined;

beforeAll(async () => {
  await buildReference();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("the bench's reference app", () => {
  it("builds and answers its page with its 10 items", async () => {
    server = await startReference();
    const response = await fetch(`${server.base}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("条目 1<");
    expect(html).toContain("条目 10<");
  });

  it("renders from server routes and data routes built once per build (the @remix-run/react and react-router-dom patches)", async () => {
    const routes = require("@remix-run/react/dist/routes.js") as { createServerRoutes: (...args: unknown[]) => unknown };
    const router = require("@remix-run/router") as { UNSAFE_convertRoutesToDataRoutes: (...args: unknown[]) => unknown };
    const spy = vi.spyOn(routes, "createServerRoutes");
    const convert = vi.spyOn(router, "UNSAFE_convertRoutesToDataRoutes");
    const { createRequestHandler } = require("@remix-run/server-runtime") as {
      createRequestHandler: (build: unknown, mode: string) => (request: Request) => Promise<Response>;
    };
    const build = await import(/* @vite-ignore */ pathToFileURL(path.join(REFERENCE_DIR, "build/index.js")).href);
    const handle = createRequestHandler(build, "production");
    const pages = [];
    for (let i = 0; i < 3; i++) pages.push(await (await handle(new Request("http://localhost/"))).text());
    expect(spy).toHaveBeenCalledTimes(1);
    expect(convert).toHaveBeenCalledTimes(1);
    expect(pages[1]).toBe(pages[0]);
    expect(pages[2]).toBe(pages[0]);
    expect(pages[0]).toContain("条目 10<");
    spy.mockRestore();
    convert.mockRestore();
  });
});
