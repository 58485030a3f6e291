// Metrics: /metrics is refused without the operator token (and served on METRICS_PORT
// to whoever reaches that port, loopback by default); while the messenger's API is down the
// outbox backlog the metrics report grows with every paid order and the oldest due message ages;
// when it recovers the backlog drains to 0. Request durations carry route patterns, never raw
// paths, and login failures are counted.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeMessengerApi, type FakeMessengerApi } from "../fakes/messenger-api";
import { baseEnv, freePort, freshFaultDb, insertOperatorSqlite, insertStudentSqlite, messengerEnv, openSqlite, orderAndPayOverHttp, orderBody, removeSqlite, request, sleep, startApp, waitFor, type AppProcess } from "../support/app-process";

const TOKEN = "metrics-operator-token-5d1f8a2c";
const CAMPUS = "jinpenling";
const BUILDING = "西苑1栋";

let fake: FakeMessengerApi;
let dbFile: string;
let server: AppProcess | undefined;
let metricsPort = 0;

beforeAll(async () => {
  fake = await startFakeMessengerApi();
  dbFile = freshFaultDb("metrics");
  metricsPort = await freePort();
  fake.fail("send", { kind: "http", status: 500 }, 100_000);
  server = await startApp({
    env: baseEnv(`file:${dbFile}`, {
      ...messengerEnv(fake, { timeoutMs: 1_000, workerIntervalMs: 200 }),
      UPLOADS_DIR: path.join(path.dirname(dbFile), `uploads-metrics-${process.pid}`),
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: String(metricsPort),
    }),
  });
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  if (dbFile) removeSqlite(dbFile);
});

async function scrape(base = server!.base, token: string | null = TOKEN) {
  const response = await fetch(`${base}/metrics`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { status: response.status, text: await response.text() };
}

function gauge(text: string, name: string, labels = ""): number {
  const line = text.split("\n").find((entry) => entry.startsWith(`${name}${labels} `) || (labels === "" && entry.startsWith(`${name} `)));
  if (!line) throw new Error(`${name}${labels} is not in the metrics:\n${text.slice(0, 2000)}`);
  return Number(line.split(" ").at(-1));
}

describe("the metrics endpoint", () => {
  it("is refused without the token, with a wrong token, and answers its bearer", async () => {
    const without = await scrape(server!.base, null);
    expect(without.status).toBe(401);
    expect(without.text).not.toMatch(/campus_/);
    const wrong = await scrape(server!.base, `${TOKEN.slice(0, -1)}x`);
    expect(wrong.status).toBe(401);
    const right = await scrape();
    expect(right.status).toBe(200);
    expect(right.text).toMatch(/^campus_process_cpu_user_seconds_total /m);
    expect(right.text).toMatch(/^campus_nodejs_eventloop_lag_seconds /m);
    expect(right.text).toMatch(/^campus_db_pool_connections\{state="total"\} 1$/m);
    expect(right.text).toMatch(/^campus_recognition_queue_length 0$/m);
  });

  it("is served without the token on METRICS_PORT (bound to loopback)", async () => {
    const separate = await scrape(`http://127.0.0.1:${metricsPort}`, null);
    expect(separate.status).toBe(200);
    expect(separate.text).toMatch(/^campus_outbox_backlog /m);
  });

  it("the outbox backlog grows with each paid order while the messenger is down, ages, then drains on recovery", async () => {
    const base = server!.base;
    const database = openSqlite(dbFile);
    try {
      insertOperatorSqlite(database, "metrics-op", "o_metrics_operator");
      expect(gauge((await scrape()).text, "campus_outbox_backlog")).toBe(0);
      const backlogs: number[] = [];
      for (let index = 0; index < 3; index += 1) {
        const customer = await insertStudentSqlite(database, { openid: `o_metrics_${index}`, nickname: `指标${index}`, campusCode: CAMPUS });
        await orderAndPayOverHttp(base, customer.cookie, orderBody(CAMPUS, BUILDING, index));
        backlogs.push(await waitFor("the backlog to count the new messages", async () => {
          const value = gauge((await scrape()).text, "campus_outbox_backlog");
          return value >= 2 * (index + 1) ? value : null;
        }));
      }
      expect(backlogs[0]).toBeLessThan(backlogs[1]!);
      expect(backlogs[1]).toBeLessThan(backlogs[2]!);
      expect(fake.received).toHaveLength(0);

      // The retries are due (the clock moved on): the oldest due message is old. The worker (every
      // 200 ms, the messenger still down) may claim and fail them all again before the scrape, on
      // a loaded machine, putting each a backoff away: then they are made due again and scraped
      // again. A gauge that never shows the age fails at the deadline.
      const makeDue = database.prepare("UPDATE outbox_messages SET next_attempt_at = ? WHERE state = 'pending'");
      const oldestDue = await waitFor(
        "the oldest due message to show its age",
        async () => {
          makeDue.run(new Date(Date.now() - 120_000).toISOString());
          const seconds = gauge((await scrape()).text, "campus_outbox_oldest_due_seconds");
          return seconds > 0 ? seconds : null;
        },
        10_000,
        20,
      );
      expect(oldestDue).toBeGreaterThanOrEqual(119);

      fake.recover();
      // The worker (every 200 ms) may have claimed a row between the update and the recovery and
      // failed it once more, which puts it a backoff away: the clock keeps moving on while we wait.
      await waitFor(
        "the backlog to drain",
        async () => {
          makeDue.run(new Date(Date.now() - 1_000).toISOString());
          return gauge((await scrape()).text, "campus_outbox_backlog") === 0;
        },
        20_000,
        200,
      );
      expect(gauge((await scrape()).text, "campus_outbox_oldest_due_seconds")).toBe(0);
    } finally {
      database.close();
    }
  });

  it("counts request durations by route pattern and status (never the raw path)", async () => {
    await request(server!.base, "/api/express/orders/E20990101000001/payment-status");
    await sleep(100);
    const { text } = await scrape();
    expect(text).toMatch(/^campus_http_request_duration_seconds_count\{method="GET",route="\/api\/express\/orders\/:id\/payment-status",status="\d{3}"\} \d+$/m);
    expect(text).not.toContain("E20990101000001");
    expect(text).toMatch(/^# TYPE campus_login_failures_total counter$/m);
    expect(text).toMatch(/^# TYPE campus_rate_limit_refusals_total counter$/m);
  });
});
