// public/ is served only under its own top-level names (server.mjs): its files still
// come with their types and cache headers, the built assets stay immutable, and a name that is
// not there falls through to the app's 404 page, never to a directory listing or another file.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startServer, type Server } from "./server";

let server: Server;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(() => server?.stop());

describe("files from public/", () => {
  it.each([
    ["/robots.txt", /^text\/plain/],
    ["/favicon.svg", /^image\/svg\+xml/],
    ["/share-card.js", /javascript/],
    ["/static/dialog.js", /javascript/],
    ["/assets/qr-customer-service.svg", /^image\/svg\+xml/],
  ])("%s is served with its type and an hour's cache", async (file, type) => {
    const response = await fetch(server.base + file);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(type);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await response.text()).toBe(fs.readFileSync(path.join(ROOT, "public", file), "utf8"));
  });

  it("built assets are immutable for a year", async () => {
    const built = fs.readdirSync(path.join(ROOT, "public/build")).find((name) => name.startsWith("entry.client-"))!;
    const response = await fetch(`${server.base}/build/${built}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it.each(["/robots.txt.bak", "/static/nothing.js", "/static/", "/build/../server.mjs", "/static/../../package.json"])(
    "%s is the app's 404 page",
    async (missing) => {
      const response = await fetch(server.base + missing);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).not.toContain('"dependencies"');
    },
  );
});
