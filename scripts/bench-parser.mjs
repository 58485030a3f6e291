#!/usr/bin/env node
// The pickup-SMS parser's throughput (a 20 KB paste in at most 20 ms, linear time).
// `npm run bench` prints it after the HTTP table; alone: `node scripts/bench-parser.mjs`.
// The parser (app/lib/pickup-parser.ts) is bundled in memory with esbuild, as the server build
// would compile it, then timed on pastes made of the labelled corpus: a 20 KB paste (the
// endpoint's MAX_TEXT_LENGTH), the same at 80 KB (4× the size must take about 4× the time), and
// the corpus one SMS at a time. Times are after a warm-up; median and 95th percentile of the runs,
// in CPU time and in wall time.
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

/** A paste of `size` characters of corpus SMS, blank lines between, starting at SMS `offset`. */
function pasteOf(texts, size, offset = 0) {
  let text = "";
  for (let i = offset; text.length < size; i += 1) text += `${texts[i % texts.length]}\n\n`;
  return text.slice(0, size);
}

// Each run parses a different paste (no engine cache sees the same text twice) and is timed in
// wall time and in this process's CPU time: the machines are shared, and CPU time is what the
// parser itself costs when other processes take the cores.
function timeRuns(inputs, fn, warmup) {
  for (let i = 0; i < warmup; i += 1) fn(inputs[i % inputs.length]);
  const wall = [];
  const cpu = [];
  for (const input of inputs) {
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    fn(input);
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  const stats = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] };
  };
  return { wall: stats(wall), cpu: stats(cpu) };
}

export async function benchParser() {
  const { parsePickupSms } = await loadParser();
  const corpus = JSON.parse(fs.readFileSync(path.join(root, "tests/fixtures/pickup-sms-corpus.json"), "utf8"));
  const texts = corpus.map((sample) => sample.text);
  const pastes20 = Array.from({ length: 60 }, (_, k) => pasteOf(texts, 20_000, k * 11));
  const pastes80 = Array.from({ length: 15 }, (_, k) => pasteOf(texts, 80_000, k * 13));
  const oneLine = pastes20.map((text) => text.replace(/\n+/g, ""));
  const parse = (text) => parsePickupSms(text);
  const t20 = timeRuns(pastes20, parse, 20);
  const t80 = timeRuns(pastes80, parse, 5);
  const tLine = timeRuns(oneLine, parse, 20);
  const single = timeRuns([texts], (all) => {
    for (const text of all) parsePickupSms(text);
  }, 5);
  return {
    pasteChars: pastes20[0].length,
    parcelsIn20k: parsePickupSms(pastes20[0]).length,
    ms20k: t20,
    ms80k: t80,
    msOneLine20k: tLine,
    pastesPerSecond: 1000 / t20.cpu.median,
    smsPerSecond: texts.length / (single.cpu.median / 1000),
  };
}

export function formatParserBench(result) {
  const f = (value) => value.toFixed(2);
  const row = (label, t) => `| ${label} | ${f(t.cpu.median)} ms | ${f(t.cpu.p95)} ms | ${f(t.wall.median)} ms | ${f(t.wall.p95)} ms |`;
  return [
    "| pickup-SMS parser (target: 20 KB in ≤ 20 ms) | CPU median | CPU p95 | wall median | wall p95 |",
    "| --- | ---: | ---: | ---: | ---: |",
    row(`20 KB paste (${result.pasteChars} characters, ~${result.parcelsIn20k} parcels)`, result.ms20k),
    row("the same pastes on one line", result.msOneLine20k),
    row(`80 KB paste (CPU ${(result.ms80k.cpu.median / result.ms20k.cpu.median).toFixed(1)}× the 20 KB time: linear is 4×)`, result.ms80k),
    `| throughput (CPU) | ${result.pastesPerSecond.toFixed(0)} pastes of 20 KB/s | ${result.smsPerSecond.toFixed(0)} single SMS/s | | |`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(formatParserBench(await benchParser()));
}
