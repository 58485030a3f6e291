import client from "prom-client";
import { db, poolStats } from "./db/db.server";
import { log } from "./log.server";

// Prometheus metrics (prom-client) of this process, served by server.mjs at /metrics behind
// METRICS_TOKEN and/or on METRICS_PORT: never on the public address without the token.
// Other modules count through the small functions below, so the metric names live here only.

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: "campus_" });

const httpDuration = new client.Histogram({
  name: "campus_http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its answer, by route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** One answered request (route is the route's pattern, e.g. /post/:id, never a raw path). */
export function observeRequest(method: string, route: string, status: number, seconds: number) {
  httpDuration.observe({ method, route, status: String(status) }, seconds);
}

const loginFailures = new client.Counter({
  name: "campus_login_failures_total",
  help: "Refused logins, by kind (student, operator, account_deletion).",
  labelNames: ["kind"] as const,
  registers: [registry],
});

/** A refused login (wrong password, unknown account, captcha, locked). */
export function countLoginFailure(kind: string) {
  loginFailures.inc({ kind });
}

const rateLimitRefusals = new client.Counter({
  name: "campus_rate_limit_refusals_total",
  help: "Requests refused by a rate limit or lockout, by kind (the limited action).",
  labelNames: ["kind"] as const,
  registers: [registry],
});

/** A request refused by a rate limit or lockout; kind names the limited action (e.g. "login", "comment"). */
export function countRateLimitRefusal(kind: string) {
  rateLimitRefusals.inc({ kind });
}

const recognitionQueue = new client.Gauge({
  name: "campus_recognition_queue_length",
  help: "Images waiting for or in text recognition in this process.",
  registers: [registry],
});

export function setRecognitionQueueLength(length: number) {
  recognitionQueue.set(length);
}

const recognitionSeconds = new client.Histogram({
  name: "campus_recognition_image_seconds",
  help: "Time to recognise the text of one image (queue wait included).",
  buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 30],
  registers: [registry],
});

export function observeRecognitionImage(seconds: number) {
  recognitionSeconds.observe(seconds);
}

// Read from the database when scraped: every instance reports the shared outbox.
new client.Gauge({
  name: "campus_outbox_backlog",
  help: "Outbox messages not yet sent (pending or being sent).",
  registers: [registry],
  async collect() {
    try {
      const row = await db()
        .selectFrom("outbox_messages")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("state", "in", ["pending", "sending"])
        .executeTakeFirst();
      this.set(Number(row?.n ?? 0));
    } catch (error) {
      log("warn", "metrics-outbox", { error: String(error) });
    }
  },
});

new client.Gauge({
  name: "campus_outbox_oldest_due_seconds",
  help: "Age of the oldest outbox message that is due and not sent (0 when none).",
  registers: [registry],
  async collect() {
    try {
      const nowIso = new Date().toISOString();
      const row = await db()
        .selectFrom("outbox_messages")
        .select((eb) => eb.fn.min("next_attempt_at").as("oldest"))
        .where("state", "=", "pending")
        .where("next_attempt_at", "<=", nowIso)
        .executeTakeFirst();
      const oldest = row?.oldest ? Date.parse(String(row.oldest)) : NaN;
      this.set(Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0);
    } catch (error) {
      log("warn", "metrics-outbox", { error: String(error) });
    }
  },
});

new client.Gauge({
  name: "campus_db_pool_connections",
  help: "Database connections of this process by state (PostgreSQL pool: total, idle, waiting; SQLite: one connection).",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const stats = poolStats();
    this.set({ state: "total" }, stats.total);
    this.set({ state: "idle" }, stats.idle);
    this.set({ state: "waiting" }, stats.waiting);
    this.set({ state: "max" }, stats.max);
  },
});

/** The text exposition of every metric and its content type. */
export async function metricsText() {
  return { body: await registry.metrics(), contentType: registry.contentType };
}
