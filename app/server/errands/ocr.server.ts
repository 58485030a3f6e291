import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { joinOcrLines, type OcrLine } from "~/lib/ocr-lines";
import { log, newJobId } from "../log.server";
import { observeRecognitionImage, setRecognitionQueueLength } from "../metrics.server";

// Screenshot OCR in one long-lived worker thread (workers/ocr.worker.mjs), so a request that
// waits for the model never blocks the event loop. Images queue in the worker and are read one
// at a time; the worker (and its ~0.7–1 GB of model memory) is stopped after 10 idle minutes and
// started again on the next image.

export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_IMAGES = 3;
const JOB_TIMEOUT_MS = 60_000;
const MAX_QUEUE = 12;
const IDLE_MS = 10 * 60 * 1000;

export class OcrError extends Error {
  constructor(
    readonly code: "busy" | "timeout" | "failed" | "unavailable",
    message: string,
  ) {
    super(message);
  }
}

function workerPath() {
  const candidates = [
    path.resolve(process.cwd(), "workers/ocr.worker.mjs"),
    fileURLToPath(new URL("../workers/ocr.worker.mjs", import.meta.url)),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new OcrError("unavailable", "ocr worker script not found");
  return found;
}

type Pending = { resolve: (value: { lines: OcrLine[]; ms: number }) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

let worker: Worker | null = null;
/** The running worker's id in the log (its start, its stop and why). */
let workerId: string | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function queueChanged() {
  setRecognitionQueueLength(pending.size);
}
let idleTimer: NodeJS.Timeout | undefined;

function failAll(error: Error) {
  for (const [id, job] of pending) {
    clearTimeout(job.timer);
    job.reject(error);
    pending.delete(id);
  }
  queueChanged();
}

function startWorker() {
  const created = new Worker(workerPath());
  const id = newJobId();
  workerId = id;
  log("info", "ocr-worker-start", { workerId: id });
  created.on("message", (message: { id?: number; lines?: OcrLine[]; ms?: number; error?: string; type?: string }) => {
    if (message.type === "ready" || message.id === undefined) return;
    const job = pending.get(message.id);
    if (!job) return;
    pending.delete(message.id);
    queueChanged();
    clearTimeout(job.timer);
    if (message.error) job.reject(new OcrError("failed", message.error));
    else job.resolve({ lines: message.lines ?? [], ms: message.ms ?? 0 });
    scheduleIdleStop();
  });
  created.on("error", (error) => {
    log("error", "ocr-worker", { workerId: id, error: error.message });
    failAll(new OcrError("failed", error.message));
    if (worker === created) worker = null;
  });
  created.on("exit", (code) => {
    log("info", "ocr-worker-exit", { workerId: id, code });
    if (worker === created) worker = null;
    if (pending.size > 0) failAll(new OcrError("failed", `ocr worker exited with ${code}`));
  });
  created.unref();
  return created;
}

function scheduleIdleStop() {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (pending.size === 0) void stopOcr("idle");
  }, IDLE_MS);
  idleTimer.unref();
}

/** Reads one image's lines in the worker. Rejects with OcrError when busy, failing or slow. */
export function ocrImage(image: Uint8Array): Promise<{ lines: OcrLine[]; ms: number }> {
  if (pending.size >= MAX_QUEUE) return Promise.reject(new OcrError("busy", "ocr queue is full"));
  worker ??= startWorker();
  const current = worker;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      queueChanged();
      reject(new OcrError("timeout", "ocr timed out"));
    }, JOB_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    queueChanged();
    // The bytes are copied into the worker; the caller's buffer stays usable.
    current.postMessage({ id, image });
  });
}

/** The text of a screenshot: its lines joined into messages, ready for the pickup parser. */
export async function recognizeImageText(image: Uint8Array) {
  const started = Date.now();
  const { lines, ms } = await ocrImage(image);
  const text = joinOcrLines(lines);
  const totalMs = Date.now() - started;
  observeRecognitionImage(totalMs / 1000);
  log("info", "ocr", { workerId, lines: lines.length, modelMs: ms, totalMs });
  return text;
}

/** Stops the worker (after IDLE_MS without images, or at shutdown); logged with the reason. */
export async function stopOcr(reason: "idle" | "shutdown" = "shutdown") {
  const current = worker;
  worker = null;
  if (current) log("info", "ocr-worker-stop", { workerId, reason });
  if (idleTimer) clearTimeout(idleTimer);
  failAll(new OcrError("failed", "ocr stopped"));
  if (current) await current.terminate();
}

const IMAGE_SIGNATURES: { type: string; test: (bytes: Uint8Array) => boolean }[] = [
  { type: "image/png", test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { type: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/gif", test: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 },
  { type: "image/webp", test: (b) => b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 },
  { type: "image/bmp", test: (b) => b[0] === 0x42 && b[1] === 0x4d },
];

/** The image type by its first bytes (never by the name or the declared type), or null. */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (bytes.length < 12) return null;
  return IMAGE_SIGNATURES.find((signature) => signature.test(bytes))?.type ?? null;
}

/** "data:image/png;base64,AAAA" or bare base64 → bytes; null when it is not base64. */
export function decodeBase64Image(value: string): Uint8Array | null {
  const body = value.replace(/^data:[^;,]*;base64,/, "").replace(/\s+/g, "");
  if (!body || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(body)) return null;
  return new Uint8Array(Buffer.from(body, "base64"));
}
