#!/usr/bin/env node
// Screenshot recognition: time and memory, measured honestly (docs/performance.md, "Screenshot
// recognition"). Renders phone screenshots of the shared SMS samples in the system Chromium
// (1170×2532, 1080×2400, 1290×2796; light and dark), forks the real recognition worker
// (workers/ocr.worker.mjs, as the server does) and sends them one at a time:
//   - as the phone saved them (full-size PNG), and
//   - as the page uploads them (shrunk to 1080 px WebP q0.85, like the browser's canvas);
// CPU time is process.cpuUsage() inside the worker per image, memory its RSS after each image and
// its peak (VmHWM). Prints the load average before and after: the machine may be shared.
//
//   node scripts/ocr-measure.mjs              the current worker
//   node scripts/ocr-measure.mjs --baseline   the pipeline before decision 021 (@gutenye/ocr-node)
//   node scripts/ocr-measure.mjs --shots 6    how many screenshots (default 6: 3 phones × 2 themes)
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { launchChromium, renderThread, screenshotCorpus, PHONES } from "./lib/sms-screenshots.mjs";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const baseline = args.includes("--baseline");
const shotsArg = args.indexOf("--shots");
const shots = shotsArg >= 0 ? Number(args[shotsArg + 1]) : 6;
const samplesFile = path.join(root, "tests/ocr/pickup-sms-samples-carrier.json");

const load = () => os.loadavg().map((value) => value.toFixed(2)).join(" ");
console.log(`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load average before: ${load()}`);

// Screenshots: the corpus' first three-SMS cases, one per phone and theme.
const corpus = screenshotCorpus(JSON.parse(fs.readFileSync(samplesFile, "utf8")));
const picked = [];
for (const phone of Object.keys(PHONES)) {
  for (const theme of ["light", "dark"]) {
    const shot = corpus.find((candidate) => !picked.some((done) => done.id === candidate.id) && candidate.messages.length === 3);
    if (shot) picked.push({ ...shot, phone, theme, type: "png" });
  }
}
const browser = await launchChromium();
const images = [];
for (const shot of picked.slice(0, shots)) {
  const png = Buffer.from(await renderThread(browser, shot));
  const meta = await sharp(png).metadata();
  const webp = await sharp(png).resize({ width: Math.min(1080, meta.width) }).webp({ quality: 85 }).toBuffer();
  images.push({ label: `${meta.width}×${meta.height} ${shot.theme} png (${Math.round(png.length / 1024)} KB)`, size: `${meta.width}×${meta.height}`, bytes: png });
  images.push({ label: `${meta.width}×${meta.height} ${shot.theme} → 1080 webp (${Math.round(webp.length / 1024)} KB)`, size: `${meta.width}×${meta.height}`, bytes: webp });
}
await browser.close();

const workerFile = baseline ? path.join(root, "scripts/lib/ocr-baseline-worker.mjs") : path.join(root, "workers/ocr.worker.mjs");
const child = fork(workerFile, [], { execArgv: [], serialization: "advanced", env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" } });
const waiting = new Map();
child.on("message", (message) => {
  if (message.type === "loaded") console.log(`model loaded: ${message.loadMs} ms, ${message.cpuMs} ms CPU, RSS ${message.rssMb} MB`);
  if (message.type === "result") waiting.get(message.id)?.(message);
});
const read = (id, bytes) => new Promise((resolve) => {
  waiting.set(id, resolve);
  child.send({ type: "recognize", id, image: new Uint8Array(bytes) });
});

console.log(`worker: ${path.relative(root, workerFile)}`);
const results = [];
for (const [index, image] of images.entries()) {
  const result = await read(index, image.bytes);
  if (result.error) throw new Error(result.error);
  results.push({ ...image, ...result, warm: index > 0 });
  console.log(
    `${index === 0 ? "cold" : "warm"}  ${image.label.padEnd(44)} CPU ${String(result.cpuMs).padStart(5)} ms  wall ${String(result.wallMs).padStart(5)} ms  ` +
      `RSS ${result.rssMb} MB${result.peakRssMb ? `  peak ${result.peakRssMb} MB` : ""}  ${result.lines.length} lines`,
  );
}
child.disconnect();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const warm = results.filter((result) => result.warm);
const phone = warm.filter((result) => result.size === "1170×2532");
console.log("");
console.log(`warm CPU per image: median ${median(warm.map((r) => r.cpuMs))} ms, max ${Math.max(...warm.map((r) => r.cpuMs))} ms`);
if (phone.length) console.log(`warm CPU per 1170×2532 screenshot: ${phone.map((r) => r.cpuMs).join(", ")} ms`);
console.log(`worker RSS: max ${Math.max(...results.map((r) => r.rssMb))} MB, peak ${Math.max(...results.map((r) => r.peakRssMb ?? r.rssMb))} MB`);
console.log(`load average after: ${load()}`);
