// The captured pages of `npm run bench` (their <body> without scripts, written by scripts/bench.mjs
// into BENCH_SAME_DOM_DIR as <key>.html), turned into React elements once per key with a real
// HTML parser (html-react-parser): what React and Remix alone cost to render the same DOM as the
// app's page, without the app's own work (sessions, queries, data encoding).
import fs from "node:fs";
import path from "node:path";
import type { ReactNode } from "react";
import parse from "html-react-parser";

const parsed = new Map<string, ReactNode>();

export function capturedBody(key: string): ReactNode | undefined {
  if (!/^[a-z-]+$/.test(key)) return undefined;
  if (!parsed.has(key)) {
    const dir = process.env.BENCH_SAME_DOM_DIR;
    const file = dir ? path.join(dir, `${key}.html`) : "";
    if (!file || !fs.existsSync(file)) return undefined;
    parsed.set(key, parse(fs.readFileSync(file, "utf8")));
  }
  return parsed.get(key);
}

const data = new Map<string, unknown>();

/** The loader data the app's page carried (BENCH_SAME_DOM_DIR/<key>.json), read once per key. */
export function capturedData(key: string): unknown {
  if (!/^[a-z-]+$/.test(key)) return undefined;
  if (!data.has(key)) {
    const dir = process.env.BENCH_SAME_DOM_DIR;
    const file = dir ? path.join(dir, `${key}.json`) : "";
    if (!file || !fs.existsSync(file)) return undefined;
    data.set(key, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  return data.get(key);
}
