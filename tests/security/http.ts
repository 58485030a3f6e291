// A raw HTTP client for the bounds and rate-limit tests: bodies of any size, declared or chunked,
// written in 64 KB pieces; the answer counts as soon as it arrives, even while the body is still
// being written (a server that refuses a body answers early and closes: the client then sees
// EPIPE/ECONNRESET on its writes, which is no failure).
import { spawn } from "node:child_process";
import http from "node:http";

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string; ms: number; bytesWritten: number };

export type RawOptions = {
  method?: string;
  headers?: Record<string, string>;
  cookie?: string;
  /** The body: given bytes, or `size` bytes of `fill` produced as they are written. */
  body?: Buffer | string | { size: number; fill?: string };
  /** Send without Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
  /** Declare this Content-Length instead of the body's real one. */
  declaredLength?: number;
  timeoutMs?: number;
};

const PIECE = 64 * 1024;

export function rawRequest(base: string, pathname: string, options: RawOptions = {}): Promise<RawAnswer> {
  const method = options.method ?? (options.body === undefined ? "GET" : "POST");
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.Cookie = options.cookie;
  if (method !== "GET" && method !== "HEAD" && !headers.Origin) headers.Origin = base;
  const fixed = typeof options.body === "string" ? Buffer.from(options.body) : Buffer.isBuffer(options.body) ? options.body : null;
  const size = fixed ? fixed.length : options.body ? (options.body as { size: number }).size : 0;
  if (options.body !== undefined && !options.chunked) headers["Content-Length"] = String(options.declaredLength ?? size);
  const started = performance.now();
  return new Promise<RawAnswer>((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request(base + pathname, { method, headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started, bytesWritten: written });
      res.on("end", done);
      res.on("error", done);
      res.on("aborted", done);
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer from ${pathname}`)));
    if (options.body === undefined) {
      req.end();
      return;
    }
    if (fixed) {
      written = fixed.length;
      req.end(fixed);
      return;
    }
    const piece = Buffer.alloc(PIECE, (options.body as { fill?: string }).fill ?? "a");
    const pump = () => {
      while (written < size) {
        if (answered || req.destroyed) return;
        const next = Math.min(PIECE, size - written);
        written += next;
        if (!req.write(next === PIECE ? piece : piece.subarray(0, next))) {
          req.once("drain", pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

// The /healthz poller runs in a process of its own, so that the test's own event loop (busy
// writing large bodies) does not add to the times it measures. Its first request (the poller's
// own module loading and connection set-up, a few hundred ms on a loaded machine) is a warm-up,
// not a sample: it says "ready" after it, then prints one line per answer (its time and when it
// was sent, in milliseconds since the epoch).
const HEALTH_POLLER = `
const [base, everyMs] = process.argv.slice(1);
let running = true;
process.stdin.on("data", () => (running = false));
process.stdin.on("end", () => (running = false));
(async () => {
  await fetch(base + "/healthz", { signal: AbortSignal.timeout(5000) }).then((response) => response.text(), () => {});
  process.stdout.write("ready\\n");
  while (running) {
    const started = performance.now();
    try {
      const response = await fetch(base + "/healthz", { signal: AbortSignal.timeout(5000) });
      await response.text();
      process.stdout.write("t " + (performance.now() - started) + " " + (performance.timeOrigin + started) + "\\n");
      if (response.status !== 200) process.stdout.write("f healthz " + response.status + "\\n");
    } catch (error) {
      process.stdout.write("f healthz: " + String(error).replaceAll("\\n", " ") + "\\n");
    }
    await new Promise((resolve) => setTimeout(resolve, Number(everyMs)));
  }
})();
`;

/**
 * Polls GET /healthz every `everyMs` (from another process) until stop(): every answer's time.
 * `ready` resolves once the poller is warm and the next answer is a sample; `samples()` are the
 * answers so far, each with when it was sent (ms since the epoch, as `epochNow()`).
 */
export function watchHealth(base: string, everyMs = 50) {
  const child = spawn(process.execPath, ["-e", HEALTH_POLLER, base, String(everyMs)], { stdio: ["pipe", "pipe", "inherit"] });
  const times: number[] = [];
  const samples: { sentAt: number; ms: number }[] = [];
  const failures: string[] = [];
  let pending = "";
  let markReady: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      if (line === "ready") markReady();
      else if (line.startsWith("t ")) {
        const [ms, sentAt] = line.slice(2).split(" ").map(Number) as [number, number];
        times.push(ms);
        samples.push({ sentAt, ms });
      }
      else if (line.startsWith("f ")) failures.push(line.slice(2));
    }
  });
  // "close": the process has ended and its output has been read to the end.
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    ready: Promise.race([ready, exited.then(() => Promise.reject(new Error("the /healthz poller exited before its first answer")))]),
    samples: () => samples,
    async stop() {
      child.stdin.end("stop");
      await exited;
      return { times, failures, slowest: Math.max(0, ...times) };
    },
  };
}

/**
 * The answers of a watchHealth() poller whose request was in flight during one of `windows`
 * (each [from, to] in ms since the epoch, as `epochNow()`): those taken beside the load measured.
 */
export function answersDuring(health: { samples(): { sentAt: number; ms: number }[] }, windows: [number, number][]) {
  return health.samples().filter(({ sentAt, ms }) => windows.some(([from, to]) => sentAt < to && sentAt + ms > from));
}

/** Now, in milliseconds since the epoch, as the /healthz poller stamps its requests. */
export function epochNow() {
  return performance.timeOrigin + performance.now();
}

/** Resident memory of a process in MB (Linux /proc). */
export async function rssMb(pid: number) {
  const { readFileSync } = await import("node:fs");
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}
