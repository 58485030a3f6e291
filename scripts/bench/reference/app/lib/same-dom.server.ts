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
