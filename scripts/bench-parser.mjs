#!/usr/bin/env node
// The pickup-SMS parser's throughput (issue 17: a 20 KB paste in at most 20 ms, linear time).
// `npm run bench` prints it after the HTTP table; alone: `node scripts/bench-parser.mjs`.
// The parser (app/lib/pickup-parser.ts) is bundled in memory with esbuild, as the server build
// would compile it, then timed on pastes made of the labelled corpus: a 20 KB paste (the
// endpoint's MAX_TEXT_LENGTH), the same at 80 KB (4× the size must take about 4× the time), and
// the corpus one SMS at a time. Times are after a warm-up; median and 95th percentile of the runs.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function loadParser() {
  const out = path.join(root, "tests/.tmp", `pickup-parser-bench-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await esbuild.build({ entryPoints: [path.join(root, "app/lib/pickup-parser.ts")], bundle: true, format: "esm", platform: "node", outfile: out, logLevel: "warning" });
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    fs.rmSync(out, { force: true });
  }
}

function pasteOf(texts, size) {
  let text = "";
  for (let i = 0; text.length < size; i += 1) text += `${texts[i % texts.length]}\n\n`;
  return text.slice(0, size);
}

function timeRuns(fn, { warmup = 30, runs = 60 } = {}) {
  for (let i = 0; i < warmup; i += 1) fn();
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const started = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)], min: times[0] };
}

export async function benchParser() {
  const { parsePickupSms } = await loadParser();
  const corpus = JSON.parse(fs.readFileSync(path.join(root, "tests/fixtures/pickup-sms-corpus.json"), "utf8"));
  const texts = corpus.map((sample) => sample.text);
  const paste20 = pasteOf(texts, 20_000);
  const paste80 = pasteOf(texts, 80_000);
  const t20 = timeRuns(() => parsePickupSms(paste20));
  const t80 = timeRuns(() => parsePickupSms(paste80), { warmup: 10, runs: 20 });
  const oneLine = timeRuns(() => parsePickupSms(paste20.replace(/\n+/g, "")));
  const single = timeRuns(() => {
    for (const text of texts) parsePickupSms(text);
  }, { warmup: 5, runs: 20 });
  return {
    pasteBytes: Buffer.byteLength(paste20),
    pasteChars: paste20.length,
    parcelsIn20k: parsePickupSms(paste20).length,
    ms20k: t20,
    ms80k: t80,
    msOneLine20k: oneLine,
    pastesPerSecond: 1000 / t20.median,
    smsPerSecond: texts.length / (single.median / 1000),
  };
}

export function formatParserBench(result) {
  const f = (value) => value.toFixed(2);
  return [
    "| pickup-SMS parser | median | p95 |",
    "| --- | ---: | ---: |",
    `| 20 KB paste (${result.pasteChars} characters, ${result.parcelsIn20k} parcels) | ${f(result.ms20k.median)} ms | ${f(result.ms20k.p95)} ms |`,
    `| the same on one line | ${f(result.msOneLine20k.median)} ms | ${f(result.msOneLine20k.p95)} ms |`,
    `| 80 KB paste (linearity: ${(result.ms80k.median / result.ms20k.median).toFixed(1)}× the 20 KB time) | ${f(result.ms80k.median)} ms | ${f(result.ms80k.p95)} ms |`,
    `| throughput | ${result.pastesPerSecond.toFixed(0)} pastes of 20 KB/s | ${result.smsPerSecond.toFixed(0)} single SMS/s |`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(formatParserBench(await benchParser()));
}
