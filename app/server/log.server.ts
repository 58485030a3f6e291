import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import pino, { type DestinationStream, type Logger } from "pino";
import { config } from "./config.server";

// JSON lines through pino: {"level":"info","time":"…","reqId":"…",…fields,"event":"…"}. Debug
// and info go to stdout, warn and error to stderr. Every line written while a request (or a
// background job) runs carries its id, from an AsyncLocalStorage the server opens per request
// (server.mjs) and runJob opens per job run. Person data never reaches a line: the fields named
// in REDACTED_FIELDS are replaced wherever a caller passes them, and callers pass ids, not people.

type Level = "debug" | "info" | "warn" | "error";
export type LogLevel = Level | "silent";

/** Who a request is, once the session is read: the request line names the kind and internal id. */
export type RequestUser = { kind: "student" | "messenger" | "operator"; id: number };

export type LogContext = {
  reqId?: string;
  /** A background job's name and this run's id. */
  job?: string;
  jobId?: string;
  user?: RequestUser;
  /** Values computed once per request (requestMemo), such as the session lookup. */
  memo?: Map<string, unknown>;
  /** A GET or HEAD: what it reads once holds for the whole request (requestReadMemo). */
  reads?: boolean;
};

/** Field names whose values are a person's data or a secret: replaced by "[redacted]" at any of the first two levels. */
export const REDACTED_FIELDS = [
  "openid",
  "unionid",
  "touser",
  "name",
  "nickname",
  "realName",
  "recipientName",
  "recipient_name",
  "phone",
  "mobile",
  "recipientPhone",
  "recipient_phone",
  "password",
  "cookie",
  "authorization",
  "set-cookie",
  "token",
  "accessToken",
  "access_token",
  "secret",
];
const REDACT_PATHS = REDACTED_FIELDS.flatMap((field) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
  return [key, `*.${key}`.replace(".[", "[")];
});

const context = new AsyncLocalStorage<LogContext>();

/** A pino logger with the app's format and redaction; tests give it a destination to read. */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    messageKey: "event",
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    mixin: (fields) => {
      const store = context.getStore();
      if (!store || "reqId" in fields) return {};
      const { reqId, job, jobId } = store;
      return reqId ? { reqId } : job ? { job, jobId } : {};
    },
  };
  if (destination) return pino(options, destination);
  const streams = pino.multistream(
    [
      { level: "debug", stream: pino.destination({ dest: 1, sync: true }) },
      { level: "warn", stream: pino.destination({ dest: 2, sync: true }) },
    ],
    { dedupe: true },
  );
  return pino(options, streams);
}

let root: { level: LogLevel; logger: Logger } | undefined;

/** The process's logger at LOG_LEVEL (info when the configuration cannot be read yet). */
export function logger(): Logger {
  let level: LogLevel = "info";
  try {
    level = config().logLevel;
  } catch {
    // configuration not readable yet: log at the default level
  }
  if (root?.level !== level) root = { level, logger: createLogger(level) };
  return root.logger;
}

/** One line per event. Callers pass facts (ids, counts, codes), never people's data or secrets. */
export function log(level: Level, event: string, fields: Record<string, unknown> = {}) {
  const target = logger();
  if (!target.isLevelEnabled(level)) return;
  target[level](fields, event);
}

/** Runs a request's handling with its id in every line it logs; the context is returned to read the user at the end. */
export function runWithRequestContext<T>(reqId: string, work: (store: LogContext) => T, options: { reads?: boolean } = {}): T {
  const store: LogContext = { reqId, reads: options.reads };
  return context.run(store, () => work(store));
}

/** Records who the current request is (read by the request line). */
export function setRequestUser(user: RequestUser) {
  const store = context.getStore();
  if (store?.reqId) store.user = user;
}

/**
 * The value `make` gives, computed once per request (per key) while a request context is open
 * (server.mjs opens one per request); outside one, `make` runs every time.
 */
export function requestMemo<T>(key: string, make: () => T): T {
  const store = context.getStore();
  if (!store?.reqId) return make();
  store.memo ??= new Map();
  if (store.memo.has(key)) return store.memo.get(key) as T;
  const value = make();
  store.memo.set(key, value);
  return value;
}

/**
 * As requestMemo, but only in a GET or HEAD request: an action may change what the value derives
 * from, and the loaders that run after it in the same request must see the change.
 */
export function requestReadMemo<T>(key: string, make: () => T): T {
  return context.getStore()?.reads ? requestMemo(key, make) : make();
}

/** Drops this request's memoized values whose key starts with `prefix` (after a change they derive from). */
export function forgetRequestMemo(prefix: string) {
  const memo = context.getStore()?.memo;
  if (!memo) return;
  for (const key of memo.keys()) if (key.startsWith(prefix)) memo.delete(key);
}

export function currentLogContext(): LogContext | undefined {
  return context.getStore();
}

/** A short random id for a job run. */
export function newJobId() {
  return crypto.randomBytes(6).toString("hex");
}

/** Runs one run of a background job with its own id in every line it logs. */
export function runJob<T>(job: string, work: () => Promise<T>): Promise<T> {
  return context.run({ job, jobId: newJobId() }, work);
}

/** An id from the proxy's X-Request-Id when it is a sane token, else a fresh one. */
export function requestIdFrom(header: string | null | undefined): string {
  if (header && /^[A-Za-z0-9._:-]{6,128}$/.test(header)) return header;
  return crypto.randomUUID();
}
