// The captured pages of `npm run bench` (their <body> without scripts, written by scripts/bench.mjs
// into BENCH_SAME_DOM_DIR as <key>.html), turned into React elements once per key with a real
// HTML parser (html-react-parser): what React and Remix alone cost to render the same DOM as the
// app's page, without the app's own work (sessions, queries, data encoding). Beside each, the
// loader data the app's page carried (<key>.json).
import fs from "node:fs";
import path from "node:path";
import type { ReactNode } from "react";
import parse from "html-react-parser";

/** A captured file of the page `key`, read and turned into a value once per key. */
function capturedOnce<T>(extension: string, read: (text: string) => T): (key: string) => T | undefined {
  const kept = new Map<string, T>();
  return (key) => {
    if (!/^[a-z-]+$/.test(key)) return undefined;
    if (!kept.has(key)) {
      const dir = process.env.BENCH_SAME_DOM_DIR;
      const file = dir ? path.join(dir, `${key}.${extension}`) : "";
      if (!file || !fs.existsSync(file)) return undefined;
      kept.set(key, read(fs.readFileSync(file, "utf8")));
    }
    return kept.get(key);
  };
}

export const capturedBody = capturedOnce<ReactNode>("html", (html) => parse(html));

export const capturedData = capturedOnce<unknown>("json", (json) => JSON.parse(json));
