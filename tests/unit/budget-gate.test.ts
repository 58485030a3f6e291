// The JS budget gate itself (scripts/lib/budget-rules.mjs, decision 027): fed a fake route list and
// fake measurements, it must fail on a page route without a sample, on a sample that ends on
// another route, on a sample that answers an error, and on JS over either limit.
import { describe, expect, it } from "vitest";
import { evaluate, isStaticSource, KB, pageRoutes, routeFor, routeRegex } from "../../scripts/lib/budget-rules.mjs";

type Failures = { failures: string[] };

const files = [
  { file: "root-layout-less.tsx", name: "market._shell", source: "export default function L() {}" },
  { file: "market._shell._index.tsx", name: "market._shell._index", source: "export default function M() {}" },
  { file: "market._shell.checkout.tsx", name: "market._shell.checkout", source: "export async function loader() {}\nexport default function C() {}" },
  { file: "about.tsx", name: "about", source: "export const handle: RouteHandle = { hydrate: false };\nexport default function A() {}" },
  { file: "api.thing.tsx", name: "api.thing", source: "export async function loader() { return null; }" },
  { file: "$.tsx", name: "$", source: "export const handle = { hydrate: false };\nexport default function NotFound() {}" },
];
const routes = pageRoutes(files);
const ok = (url: string, js: number) => ({ url, finalUrl: url, status: 200, js, html: 1000 });
const samples = [{ url: "/market" }, { url: "/market/checkout" }, { url: "/about" }, { url: "/no-such-page" }];
const within = [ok("/market", 90 * KB), ok("/market/checkout", 100 * KB), ok("/about", 0), { ...ok("/no-such-page", 0), status: 404 }];

describe("the budget gate", () => {
  it("passes when every page route is measured within its limit; resource routes are skipped", () => {
    expect(routes.map((route: { file: string }) => route.file)).not.toContain("api.thing.tsx");
    expect((evaluate({ routes, samples, measurements: within }) as Failures).failures).toEqual([]);
  });

  it("fails on a page route that no sample reaches (a new route without a sample URL)", () => {
    const { failures } = evaluate({ routes, samples: samples.filter((sample) => sample.url !== "/market/checkout"), measurements: within }) as Failures;
    expect(failures).toEqual([expect.stringContaining("app/routes/market._shell.checkout.tsx is a page route the gate does not measure")]);
  });

  it("fails on a sample that ends on another route (the child sheet redirected to its layout)", () => {
    const measurements = within.map((item) => (item.url === "/market/checkout" ? { ...item, finalUrl: "/market", js: 90 * KB } : item));
    const { failures } = evaluate({ routes, samples, measurements }) as Failures;
    expect(failures.some((failure) => failure.includes("ended on /market"))).toBe(true);
    expect(failures.some((failure) => failure.includes("market._shell.checkout.tsx is a page route the gate does not measure"))).toBe(true);
  });

  it("fails on a sample answering an error screen (4xx besides the catch-all, 5xx, no answer)", () => {
    for (const broken of [{ status: 404 }, { status: 500 }, { error: "timeout" }]) {
      const measurements = within.map((item) => (item.url === "/market/checkout" ? { ...item, ...broken } : item));
      expect((evaluate({ routes, samples, measurements }) as Failures).failures.length).toBeGreaterThan(0);
    }
  });

  it("fails over 110 KB on an interactive route and over 5 KB on a static one", () => {
    const heavy = within.map((item) => (item.url === "/market/checkout" ? { ...item, js: 110 * KB + 1 } : item));
    expect((evaluate({ routes, samples, measurements: heavy }) as Failures).failures).toEqual([expect.stringContaining("over the 110 KB budget of an interactive route")]);
    const scripted = within.map((item) => (item.url === "/about" ? { ...item, js: 5 * KB + 1 } : item));
    expect((evaluate({ routes, samples, measurements: scripted }) as Failures).failures).toEqual([expect.stringContaining("over the 5 KB budget of a static route")]);
  });

  it("reads flat-route names, static handles and the most specific route", () => {
    expect(routeRegex("admin.export[.csv]").test("/admin/export.csv")).toBe(true);
    expect(routeRegex("backpack.inbox_.$id").test("/backpack/inbox/3")).toBe(true);
    expect(routeRegex("market._shell.address.$id").test("/market/address/12")).toBe(true);
    expect(isStaticSource("export const handle = { hydrate: false };")).toBe(true);
    expect(isStaticSource("export const handle = { hydrate: true };")).toBe(false);
    expect(routeFor(routes, "/market").file).toBe("market._shell._index.tsx");
    expect(routeFor(routes, "/elsewhere").file).toBe("$.tsx");
  });
});
