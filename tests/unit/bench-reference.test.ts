// `npm run bench` measures the app against a bare Remix v2 app kept in
// scripts/bench/reference. This smoke test proves that it still builds with the repository's
// node_modules and answers its page, and (on that build, in process) that the patched
// @remix-run/react and react-router-dom (patches/) build the server routes and the static
// router's data routes of a build once instead of once per render, with the same page as the answer.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
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

  it("renders a captured page as the same DOM (its /same-dom/:key page)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "same-dom-"));
    const body =
      '<main class="space-y-3 p-3"><label for="q" class="field-label">搜索</label><input id="q" name="q" value="图书馆" maxlength="40" disabled>' +
      '<svg class="h-4 w-4" viewBox="0 0 24 24" aria-hidden="true"><use href="/icon-sprite.svg#heart"></use></svg><p style="color:red">共 2 条</p></main>';
    fs.writeFileSync(path.join(dir, "circle.html"), body);
    const captured = await startReference({ env: { BENCH_SAME_DOM_DIR: dir } });
    try {
      const html = await (await fetch(`${captured.base}/same-dom/circle`)).text();
      expect(html).toContain('<main class="space-y-3 p-3"><label for="q" class="field-label">搜索</label>');
      expect(html).toContain('<input id="q" name="q" maxLength="40" disabled="" value="图书馆"/>');
      expect(html).toContain('viewBox="0 0 24 24"');
      expect(html).toContain('<p style="color:red">共 2 条</p>');
      expect((await fetch(`${captured.base}/same-dom/post`)).status).toBe(404);
    } finally {
      await captured.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
