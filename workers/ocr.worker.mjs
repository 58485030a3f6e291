// The screenshot recognition worker: a child process (forked by app/server/market/ocr.server.ts)
// that reads one image at a time with workers/ocr-engine.mjs. A process of its own, not a worker
// thread, so its CPU time and resident memory are its own to measure and report, and stopping it
// after idle gives every byte of the model back to the system (decision 021).
//
// In:  { type: "recognize", id, image: Uint8Array }
// Out: { type: "loaded", loadMs, cpuMs, rssMb, peakRssMb }      once, when the model has loaded
//      { type: "result", id, lines, cpuMs, wallMs, rssMb, peakRssMb, width, height } | { type: "result", id, error }
// cpuMs is process.cpuUsage() over the image (this process only: the model, sharp, the boxes).
// It exits when its parent goes away (the IPC channel closes).
import fs from "node:fs";
import { createEngine } from "./ocr-engine.mjs";

const send = (message) => process.send?.(message);
const rssMb = () => Math.round(process.memoryUsage().rss / 1e6);
/** The most resident memory this process has had (Linux VmHWM), else the current RSS. */
function peakRssMb() {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (match) return Math.round((Number(match[1]) * 1024) / 1e6);
  } catch {
    // not Linux
  }
  return rssMb();
}
const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
};

const options = {};
if (process.env.OCR_DET_WIDTH) options.detWidth = Number(process.env.OCR_DET_WIDTH);
if (process.env.OCR_THREADS) options.threads = Number(process.env.OCR_THREADS);

let enginePromise;
function engine() {
  enginePromise ??= (async () => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const created = await createEngine(options);
    send({ type: "loaded", loadMs: Math.round(performance.now() - started), cpuMs: cpuMs(cpuBefore), rssMb: rssMb(), peakRssMb: peakRssMb() });
    return created;
  })();
  return enginePromise;
}

let queue = Promise.resolve();

process.on("message", (message) => {
  if (message?.type !== "recognize") return;
  const { id, image } = message;
  queue = queue.then(async () => {
    try {
      const ready = await engine();
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const { lines, width, height } = await ready.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
      send({ type: "result", id, lines, width, height, cpuMs: cpuMs(cpuBefore), wallMs: Math.round(performance.now() - started), rssMb: rssMb(), peakRssMb: peakRssMb() });
    } catch (error) {
      send({ type: "result", id, error: error instanceof Error ? error.message : String(error), rssMb: rssMb() });
    }
  });
});

process.on("disconnect", () => process.exit(0));
