import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { joinOcrLines, type OcrLine } from "~/lib/ocr-lines";
import { admitImage, type LineState } from "~/lib/recognition-queue";
import { MAX_IMAGE_BYTES, MAX_IMAGES, retryAfterSeconds, type QueuedImage } from "~/lib/screenshot-recognition";
import { config } from "../config.server";
import { log } from "../log.server";
import { observeRecognitionImage, setRecognitionQueueLength } from "../metrics.server";

// Screenshot recognition in one worker process (workers/ocr.worker.mjs, decision 021), reading
// one image at a time on one core. Images wait in a fair queue (start-time fair queuing): a
// user's k-th waiting image is read in round k, so one user's three screenshots never hold others
// back; a user's images are read one at a time, and each waiting image knows its place. Who gets
// a place at all is app/lib/recognition-queue (decision 031): every student's first image is
// taken while the line has room, second and third images only within their share of it.
// The model loads on the first image (logged) and the worker is stopped after OCR_IDLE_MS
// (config, default 5 minutes) without work (logged), which gives its memory back; a worker
// above RECYCLE_RSS_MB after an image is replaced before the next one.

export { MAX_IMAGE_BYTES, MAX_IMAGES };
const READ_TIMEOUT_MS = 30_000;
const DEFAULT_IDLE_MS = 5 * 60 * 1000;
// The worker must stay under 450 MB; an image adds up to ~80 MB while it is read, and freed
// buffers make the resident size creep, so a worker past this after an image is replaced.
const RECYCLE_RSS_MB = 330;

export class OcrError extends Error {
  constructor(
    readonly code: "busy" | "user-busy" | "timeout" | "failed" | "unavailable" | "cancelled",
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Who is asking (their queue) and, optionally, the page's name for the image. */
export type OcrTicket = { owner: string; uploadId?: string | null; signal?: AbortSignal };
export type OcrResult = { lines: OcrLine[]; cpuMs: number; wallMs: number; waitedMs: number; rssMb: number; peakRssMb: number };

type Job = {
  id: number;
  /** Its round: one more than the same user's previous image, never before the round being read. */
  round: number;
  owner: string;
  uploadId: string | null;
  image: Uint8Array;
  enqueuedAt: number;
  resolve: (value: OcrResult) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
};

function workerPath() {
  const candidates = [
    path.resolve(process.cwd(), "workers/ocr.worker.mjs"),
    fileURLToPath(new URL("../workers/ocr.worker.mjs", import.meta.url)),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new OcrError("unavailable", "ocr worker script not found");
  return found;
}

function idleMs() {
  try {
    return config().ocrIdleMs;
  } catch {
    return DEFAULT_IDLE_MS; // configuration not readable (a script): the default
  }
}

let worker: ChildProcess | null = null;
let workerRssMb = 0;
let nextId = 1;
/** Each user's waiting images, oldest first, and the round of each user's latest image. */
const lines = new Map<string, Job[]>();
const lastRound = new Map<string, number>();
let currentRound = 0;
let reading: (Job & { timer: NodeJS.Timeout; startedAt: number }) | null = null;
let idleTimer: NodeJS.Timeout | undefined;
let idleSince = 0;
let averageJobMs = 1500;

function waitingCount() {
  let count = 0;
  for (const queue of lines.values()) count += queue.length;
  return count;
}

/** The order the waiting images will be read in: by round, then by arrival. */
function readingOrder(): Job[] {
  return [...lines.values()].flat().sort((a, b) => a.round - b.round || a.id - b.id);
}

/** This user's images in the queue: reading, or waiting with the number of images ahead and the estimated wait. */
export function queuePosition(owner: string): QueuedImage[] {
  const mine: QueuedImage[] = [];
  if (reading?.owner === owner) mine.push({ uploadId: reading.uploadId, state: "reading", ahead: 0 });
  const busy = reading ? 1 : 0;
  readingOrder().forEach((job, index) => {
    if (job.owner === owner) {
      const ahead = index + busy;
      mine.push({ uploadId: job.uploadId, state: "waiting", ahead, waitSeconds: Math.max(1, Math.ceil((ahead * averageJobMs) / 1000)) });
    }
  });
  return mine;
}

function holdProcess(held: boolean) {
  // The worker never keeps a finished script or test alive; an image in progress does.
  const channel = worker?.channel as { ref?: () => void; unref?: () => void } | undefined;
  if (held) {
    worker?.ref();
    channel?.ref?.();
  } else {
    worker?.unref();
    channel?.unref?.();
  }
}

function startWorker(): ChildProcess {
  const created = fork(workerPath(), [], {
    execArgv: [],
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    // Fewer glibc malloc arenas: the model's buffers come back to a few heaps, not one per thread.
    env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" },
  });
  log("info", "ocr-worker-start", { pid: created.pid });
  created.on("message", (message: WorkerMessage) => onWorkerMessage(created, message));
  created.on("error", (error) => log("error", "ocr-worker", { error: error.message }));
  created.on("exit", (code, signal) => {
    if (worker !== created) return;
    worker = null;
    if (reading) {
      log("error", "ocr-worker-exit", { code, signal });
      finishReading(new OcrError("failed", `ocr worker exited with ${signal ?? code}`));
    }
  });
  return created;
}

type WorkerMessage =
  | { type: "loaded"; loadMs: number; cpuMs: number; rssMb: number; peakRssMb?: number }
  | { type: "result"; id: number; lines?: OcrLine[]; error?: string; cpuMs?: number; wallMs?: number; rssMb?: number; peakRssMb?: number };

function onWorkerMessage(from: ChildProcess, message: WorkerMessage) {
  if (from !== worker) return;
  if (message.type === "loaded") {
    workerRssMb = message.rssMb;
    log("info", "ocr-model-loaded", { pid: from.pid, loadMs: message.loadMs, cpuMs: message.cpuMs, rssMb: message.rssMb, peakRssMb: message.peakRssMb });
    return;
  }
  if (message.type !== "result" || !reading || reading.id !== message.id) return;
  workerRssMb = message.rssMb ?? workerRssMb;
  if (workerRssMb > RECYCLE_RSS_MB) {
    // Replaced before the next image starts (stopWorker lets go of it at once).
    log("info", "ocr-worker-recycle", { rssMb: workerRssMb, limitMb: RECYCLE_RSS_MB });
    void stopWorker("memory");
  }
  if (message.error) {
    finishReading(new OcrError("failed", message.error));
  } else {
    const job = reading;
    const result: OcrResult = {
      lines: message.lines ?? [],
      cpuMs: message.cpuMs ?? 0,
      wallMs: message.wallMs ?? 0,
      waitedMs: job.startedAt - job.enqueuedAt,
      rssMb: workerRssMb,
      peakRssMb: message.peakRssMb ?? workerRssMb,
    };
    averageJobMs = averageJobMs * 0.7 + (Date.now() - job.startedAt) * 0.3;
    finishReading(null, result);
  }
}

function finishReading(error: Error | null, result?: OcrResult) {
  const job = reading;
  reading = null;
  if (job) {
    clearTimeout(job.timer);
    job.cleanup();
    if (error) job.reject(error);
    else job.resolve(result!);
  }
  dispatch();
}

/** Starts the next image, the next user's turn, when the worker is free. */
function dispatch() {
  setRecognitionQueueLength(waitingCount());
  if (reading) return;
  const job = readingOrder()[0];
  if (!job) {
    lastRound.clear();
    holdProcess(false);
    scheduleIdleStop();
    return;
  }
  const queue = lines.get(job.owner)!;
  queue.shift();
  if (queue.length === 0) lines.delete(job.owner);
  setRecognitionQueueLength(waitingCount());
  currentRound = job.round;
  // Users with nothing waiting and no round ahead of the current one start afresh next time.
  for (const [owner, round] of lastRound) if (!lines.has(owner) && owner !== job.owner && round <= currentRound) lastRound.delete(owner);
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  try {
    worker ??= startWorker();
  } catch (error) {
    job.cleanup();
    job.reject(error instanceof OcrError ? error : new OcrError("unavailable", String(error)));
    dispatch();
    return;
  }
  holdProcess(true);
  const current = worker;
  const timer = setTimeout(() => {
    log("error", "ocr-timeout", { ms: READ_TIMEOUT_MS });
    const stuck = current;
    if (worker === stuck) worker = null;
    stuck.kill("SIGKILL");
    finishReading(new OcrError("timeout", "ocr timed out"));
  }, READ_TIMEOUT_MS);
  reading = { ...job, timer, startedAt: Date.now() };
  try {
    current.send({ type: "recognize", id: job.id, image: job.image });
  } catch (error) {
    // The worker went away between two images: the next one starts a new worker.
    if (worker === current) worker = null;
    finishReading(new OcrError("failed", error instanceof Error ? error.message : String(error)));
  }
}

function scheduleIdleStop() {
  if (!worker) return;
  if (idleTimer) clearTimeout(idleTimer);
  idleSince = Date.now();
  idleTimer = setTimeout(() => {
    if (!reading && waitingCount() === 0) void stopWorker("idle");
  }, idleMs());
  idleTimer.unref();
}

async function stopWorker(reason: "idle" | "memory" | "stop") {
  const current = worker;
  worker = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  if (!current) return;
  log("info", "ocr-model-released", { pid: current.pid, reason, idleMs: reason === "idle" ? Date.now() - idleSince : undefined, rssMb: workerRssMb });
  await new Promise<void>((resolve) => {
    if (current.exitCode !== null || current.signalCode !== null) return resolve();
    current.once("exit", () => resolve());
    current.disconnect?.();
    // A worker in the middle of a model call gets a moment, then is stopped.
    setTimeout(() => current.kill("SIGKILL"), 2000).unref();
  });
}

/** The line as the admission rule sees it, for one student. */
function lineState(owner: string): LineState {
  let images = reading ? 1 : 0;
  let bytes = reading ? reading.image.byteLength : 0;
  for (const queue of lines.values()) {
    images += queue.length;
    for (const job of queue) bytes += job.image.byteLength;
  }
  const students = lines.size + (reading && !lines.has(reading.owner) ? 1 : 0);
  const mine = (lines.get(owner)?.length ?? 0) + (reading?.owner === owner ? 1 : 0);
  return { images, students, bytes, mine };
}

/**
 * Reads one image's lines in the worker, waiting its turn. Rejects with OcrError: "busy" when
 * the line is truly full, "user-busy" when this user's own images come first (a full upload
 * waiting, or the share for second and third images taken) — both with the wait in seconds —
 * and "cancelled" when the request went away while it waited.
 */
export function ocrImage(image: Uint8Array, ticket: OcrTicket): Promise<OcrResult> {
  const { owner, signal } = ticket;
  const line = lineState(owner);
  const admission = admitImage(line, image.byteLength);
  if (!admission.ok && admission.reason === "own-turn") {
    // Once this user's last image is read: the images ahead of it, and it.
    const ahead = Math.max(0, ...queuePosition(owner).map((place) => place.ahead)) + 1;
    return Promise.reject(new OcrError("user-busy", "this user's images come first", retryAfterSeconds(ahead, averageJobMs)));
  }
  if (!admission.ok) {
    return Promise.reject(new OcrError("busy", "ocr queue is full", retryAfterSeconds(line.images, averageJobMs)));
  }
  if (signal?.aborted) return Promise.reject(new OcrError("cancelled", "request closed"));
  return new Promise<OcrResult>((resolve, reject) => {
    const round = Math.max(currentRound, (lastRound.get(owner) ?? currentRound - 1) + 1);
    lastRound.set(owner, round);
    const job: Job = {
      id: nextId++,
      round,
      owner,
      uploadId: ticket.uploadId ?? null,
      image,
      enqueuedAt: Date.now(),
      resolve,
      reject,
      cleanup: () => signal?.removeEventListener("abort", onAbort),
    };
    // A closed request leaves the queue; the image being read is finished anyway.
    function onAbort() {
      const queue = lines.get(owner);
      const index = queue?.indexOf(job) ?? -1;
      if (!queue || index < 0) return;
      queue.splice(index, 1);
      if (queue.length === 0) lines.delete(owner);
      setRecognitionQueueLength(waitingCount());
      job.cleanup();
      reject(new OcrError("cancelled", "request closed"));
    }
    signal?.addEventListener("abort", onAbort);
    const queue = lines.get(owner) ?? [];
    queue.push(job);
    lines.set(owner, queue);
    dispatch();
  });
}

/** The text of a screenshot: its lines joined into messages, ready for the pickup parser. */
export async function recognizeImageText(image: Uint8Array, ticket: OcrTicket) {
  return (await readImage(image, ticket)).text;
}

/** Below this mean score a line was read, but the engine was unsure of it: its parcel is flagged for the student to check. */
export const UNSURE_LINE_SCORE = 0.85;

/** A screenshot's text, and the lines the engine was unsure of (kept in the text, flagged). */
export async function readImage(image: Uint8Array, ticket: OcrTicket) {
  const started = Date.now();
  const result = await ocrImage(image, ticket);
  const text = joinOcrLines(result.lines);
  const unsure = result.lines.filter((line) => typeof line.mean === "number" && line.mean < UNSURE_LINE_SCORE).map((line) => line.text);
  observeRecognitionImage(result.wallMs / 1000);
  log("info", "ocr", {
    lines: result.lines.length,
    cpuMs: result.cpuMs,
    modelMs: result.wallMs,
    waitedMs: result.waitedMs,
    totalMs: Date.now() - started,
    workerRssMb: result.rssMb,
    workerPeakRssMb: result.peakRssMb,
  });
  return { text, unsure };
}

/** Stops the worker now (tests, shutdown); waiting images fail. */
export async function stopOcr() {
  for (const queue of lines.values()) {
    for (const job of queue) {
      job.cleanup();
      job.reject(new OcrError("failed", "ocr stopped"));
    }
  }
  lines.clear();
  lastRound.clear();
  if (reading) finishReading(new OcrError("failed", "ocr stopped"));
  await stopWorker("stop");
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
