// Fault: the messenger's template-message API fails — first HTTP 500 on every send, then it
// hangs past WECHAT_HTTP_TIMEOUT_MS. Customers still order and pay (the simulated provider); the
// messages the payments queued wait in the outbox (pending, attempts growing, the error kept);
// when the API recovers each goes out exactly once.
//
// The outbox retries after 30 s, 1 min, …; rather than wait, the test moves the due time of the
// waiting messages to now (what the clock would do), so the whole run takes seconds.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeMessengerApi, type FakeMessengerApi } from "../fakes/messenger-api";
import { baseEnv, freshFaultDb, insertOperatorSqlite, insertStudentSqlite, messengerEnv, openSqlite, orderAndPayOverHttp, orderBody, removeSqlite, request, sleep, startApp, waitFor, type AppProcess, type InsertedStudent } from "../support/app-process";

const CUSTOMERS = 3;
const CAMPUS = "jinpenling";
const BUILDING = "西苑1栋";
const OPERATOR_OPENID = "o_fault_operator_down";

let fake: FakeMessengerApi;
let dbFile: string;
let server: AppProcess | undefined;

beforeAll(async () => {
  fake = await startFakeMessengerApi();
  dbFile = freshFaultDb("messenger-down");
});

afterAll(async () => {
  await server?.kill();
  await fake?.close();
  if (dbFile) removeSqlite(dbFile);
});

type Row = { id: number; template_key: string; state: string; attempts: number; last_error: string | null; next_attempt_at: string };

describe("the messenger's template API fails", () => {
  it("keeps ordering and paying, holds the messages in the outbox, and sends each once on recovery", async () => {
    fake.fail("send", { kind: "http", status: 500 }, 100_000);
    server = await startApp({
      env: baseEnv(`file:${dbFile}`, {
        ...messengerEnv(fake, { timeoutMs: 1_000, workerIntervalMs: 200 }),
        UPLOADS_DIR: path.join(path.dirname(dbFile), "uploads"),
      }),
    });
    const base = server.base;

    const database = openSqlite(dbFile);
    try {
      insertOperatorSqlite(database, "fault-op-down", OPERATOR_OPENID);
      const customers: InsertedStudent[] = [];
      for (let i = 0; i < CUSTOMERS; i += 1) {
        customers.push(await insertStudentSqlite(database, { openid: `o_fault_down_${i}`, nickname: `下线${i}`, campusCode: CAMPUS }));
      }

      // Ordering and paying do not wait for the messenger.
      const numbers = await Promise.all(
        customers.map(async (customer, index) => {
          const { number, paid: status } = await orderAndPayOverHttp(base, customer.cookie, orderBody(CAMPUS, BUILDING, index));
          expect(status.ms, "the status answer does not wait for the messenger").toBeLessThan(3_000);
          // The customer's order page shows it paid.
          const page = await request(base, `/express/orders/${number}`, { cookie: customer.cookie });
          expect(page.status).toBe(200);
          return number;
        }),
      );
      for (const number of numbers) {
        const order = database.prepare("SELECT status, payment_status FROM orders WHERE order_number = ?").get(number) as { status: string; payment_status: string };
        expect(order).toEqual({ status: "paid", payment_status: "paid" });
      }

      const rows = () =>
        database
          .prepare("SELECT id, template_key, state, attempts, last_error, next_attempt_at FROM outbox_messages WHERE template_key IN ('EXPRESS_ORDER', 'NEW_ORDER') ORDER BY id")
          .all() as Row[];
      expect(rows(), "an EXPRESS_ORDER and a NEW_ORDER per paid order").toHaveLength(CUSTOMERS * 2);
      const fastForward = () => database.prepare("UPDATE outbox_messages SET next_attempt_at = ? WHERE state = 'pending'").run(new Date(Date.now() - 1000).toISOString());

      // HTTP 500: every message tried once and waiting for its retry.
      const afterErrors = await waitFor("a failed first try of every message", () => {
        const current = rows();
        return current.every((row) => row.state === "pending" && row.attempts >= 1) ? current : null;
      });
      for (const row of afterErrors) {
        expect(row.last_error, `message ${row.id}`).toMatch(/500|http/i);
        expect(Date.parse(row.next_attempt_at), "a retry later, not at once").toBeGreaterThan(Date.now() + 10_000);
      }
      expect(fake.received).toHaveLength(0);

      // The API now hangs past the app's timeout.
      fake.recover();
      // Well past the app's 1 s timeout; no longer, since the fake holds each answer that long.
      fake.fail("send", { kind: "slow", ms: 2_500 }, 100_000);
      const attemptsBefore = new Map(afterErrors.map((row) => [row.id, row.attempts]));
      fastForward();
      const afterTimeouts = await waitFor(
        "a timed-out second try of every message",
        () => {
          const current = rows();
          return current.every((row) => row.state === "pending" && row.attempts > attemptsBefore.get(row.id)!) ? current : null;
        },
        30_000,
        200,
      );
      for (const row of afterTimeouts) expect(row.last_error, `message ${row.id}`).toBeTruthy();
      expect(await (await fetch(`${base}/healthz`)).status, "the server answers while the messenger hangs").toBe(200);

      // Recovery: each message goes out once.
      await sleep(3_000); // let the fake finish the hanging answers it still holds
      fake.recover();
      fastForward();
      await waitFor("every message sent", () => rows().every((row) => row.state === "sent"), 20_000, 200);
      await sleep(1_000); // a duplicate would come now
      const sent = rows();
      for (const row of sent) {
        const copies = fake.received.filter((message) => message.client_msg_id === String(row.id));
        expect(copies, `deliveries of outbox message ${row.id}`).toHaveLength(1);
      }
      expect(fake.received).toHaveLength(sent.length);
      for (const number of numbers) {
        expect(fake.received.filter((message) => message.template_id === "tpl_express_order" && message.data.keyword1?.value === number)).toHaveLength(1);
        expect(fake.received.filter((message) => message.template_id === "tpl_new_order" && message.data.keyword1?.value === number)).toHaveLength(1);
      }
    } finally {
      database.close();
    }
  });
});
