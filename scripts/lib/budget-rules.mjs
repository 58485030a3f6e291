// The JavaScript budget's rules (decision 027), apart from the measuring so that a test
// can feed them a fake route list and fake measurements (tests/unit/budget-gate.test.ts).
//
// - Every page route (a file of app/routes with a default export) is measured: a route that no
//   sample URL reaches fails the gate, so a new page without a sample cannot slip through.
//   Resource routes (no default export) are skipped.
// - A sample that ends on another route (a redirect) measured that other route, not its own: it
//   fails, unless it is declared a redirect route (`redirects: true`, a page that only redirects).
// - First-visit JavaScript (gzip, every script the browser fetched until the network was idle:
//   modulepreloads, the entry, lazily discovered or prefetched route modules): at most 110 KB on
//   an interactive route, at most 5 KB on a static one (`export const handle = { hydrate: false }`).
import fs from "node:fs";
import path from "node:path";

export const KB = 1024;
export const LIMITS = { interactiveKb: 110, staticKb: 5 };

const ROUTE_FILE = /\.(tsx?|jsx?)$/;

/** The page routes of an app/routes folder: [{ file, name, source }] with a default export. */
export function readRouteFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      const file = ["route.tsx", "route.ts", "route.jsx", "route.js"].map((name) => path.join(entry.name, name)).find((name) => fs.existsSync(path.join(dir, name)));
      return file ? [{ file, name: entry.name, source: fs.readFileSync(path.join(dir, file), "utf8") }] : [];
    }
    if (!ROUTE_FILE.test(entry.name) || /\.test\./.test(entry.name) || /\.server\./.test(entry.name)) return [];
    return [{ file: entry.name, name: entry.name.replace(ROUTE_FILE, ""), source: fs.readFileSync(path.join(dir, entry.name), "utf8") }];
  });
}

/** Remix v2 flat-routes name → a regex of the URLs it answers (pathless `_x` and `x_` handled). */
export function routeRegex(name) {
  const segments = [];
  // Dots inside [brackets] are literal (admin.export[.csv]).
  for (const raw of name.match(/(?:\[[^\]]*\]|[^.])+/g) ?? []) {
    if (raw === "_index" || /^_/.test(raw)) continue;
    const segment = raw.replace(/_$/, "");
    if (segment === "$") segments.push(".*");
    else if (segment.startsWith("$")) segments.push("[^/]+");
    else if (/^\(.*\)$/.test(segment)) segments.push(`(?:${escape(segment.slice(1, -1))})?`);
    else segments.push(escape(segment.replace(/\[([^\]]*)\]/g, "$1")));
  }
  return new RegExp(`^/${segments.join("/")}/?$`);
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** True when a route module declares `handle = { hydrate: false }` (root.tsx then renders no scripts). */
export function isStaticSource(source) {
  return /export\s+const\s+handle\b[^=]*=\s*\{[^}]*\bhydrate\s*:\s*false\b/.test(source);
}

/** The page routes (default export) with their URL regex and whether they are static. */
export function pageRoutes(files) {
  return files
    .filter(({ source }) => /export\s+default\b/.test(source))
    .map(({ file, name, source }) => ({ file, name, regex: routeRegex(name), static: isStaticSource(source), catchAll: name === "$" }));
}

/**
 * The route a URL path reaches: the most specific page route whose pattern matches (fewest
 * dynamic segments, the catch-all last; of a layout and its index, the deeper one), as Remix
 * ranks them.
 */
export function routeFor(routes, pathname) {
  const matching = routes.filter((route) => route.regex.test(pathname));
  const dynamic = (route) => (route.catchAll ? 1000 : (route.regex.source.match(/\[\^\/\]\+|\.\*/g) ?? []).length);
  return matching.sort((a, b) => dynamic(a) - dynamic(b) || b.name.length - a.name.length)[0] ?? null;
}

/** A layout is measured with each of its child routes (its name is a dot-prefix of theirs). */
function covered(route, measuredNames) {
  for (const name of measuredNames) if (name === route.name || name.startsWith(`${route.name}.`)) return true;
  return false;
}

/**
 * The gate. `routes`: pageRoutes(); `samples`: [{ url, redirects? }]; `notMeasured`: { file: reason };
 * `measurements`: [{ url, finalUrl, status, js (gzip bytes), error? }]. Returns the rows (each
 * sample with its route, kind and limit) and the failures (strings); no failure = within budget.
 */
export function evaluate({ routes, samples, notMeasured = {}, measurements, limits = LIMITS }) {
  const failures = [];
  const rows = [];
  const measuredFiles = new Set();
  const measuredNames = new Set();
  for (const sample of samples) {
    const pathname = new URL(sample.url, "http://x").pathname;
    const route = routeFor(routes, pathname);
    const measurement = measurements.find((item) => item.url === sample.url);
    const row = { url: sample.url, route: route?.file ?? null, static: Boolean(route?.static), limitKb: route?.static ? limits.staticKb : limits.interactiveKb, ...measurement };
    rows.push(row);
    if (!route) {
      failures.push(`${sample.url}: no page route of app/routes answers this sample`);
      continue;
    }
    if (!measurement || measurement.error) {
      failures.push(`${sample.url}: cannot measure (${measurement?.error ?? "no measurement"})`);
      continue;
    }
    // A 4xx measured the error screen, not the page (the catch-all's 404 is its page).
    if (measurement.status >= 500 || (measurement.status >= 400 && !route.catchAll)) {
      failures.push(`${sample.url}: cannot measure (HTTP ${measurement.status})`);
      continue;
    }
    const finalRoute = routeFor(routes, new URL(measurement.finalUrl ?? sample.url, "http://x").pathname);
    if (!sample.redirects && finalRoute?.file !== route.file) {
      failures.push(`${sample.url}: ended on ${measurement.finalUrl} (${finalRoute?.file ?? "no route"}), so ${route.file} was not measured: give it a sample URL it answers itself`);
      continue;
    }
    measuredFiles.add(route.file);
    measuredNames.add(route.name);
    if (measurement.js > row.limitKb * KB) {
      failures.push(`${sample.url}: ${(measurement.js / KB).toFixed(1)} KB of first-visit JS (gzip) is over the ${row.limitKb} KB budget of ${route.static ? "a static" : "an interactive"} route`);
    }
  }
  for (const route of routes) {
    if (measuredFiles.has(route.file) || covered(route, measuredNames) || notMeasured[route.file]) continue;
    failures.push(`app/routes/${route.file} is a page route the gate does not measure: add a sample URL (scripts/budget.mjs SAMPLES)`);
  }
  return { rows, failures };
}
