// Fault: the server is killed (SIGKILL, no shutdown code) in the middle of a burst of writes.
// On SQLite (WAL): a burst of order creations, payments (the simulated provider) and comments
// through the app's own routes; the process dies half-way. Restarted on the same file, every write
// the app acknowledged is there, the file passes `PRAGMA integrity_check`, and the outbox the paid
// orders queued (EXPRESS_ORDER to the customer, NEW_ORDER to the operator) drains to the
// messenger fake: each message exactly once, none lost.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeMessengerApi, type FakeMessengerApi } from "../fakes/messenger-api";
import { baseEnv, freshFaultDb, insertOperatorSqlite, insertStudentSqlite, messengerEnv, openSqlite, orderBody, orderOverHttp, removeSqlite, request, sleep, startApp, startPaymentOverHttp, waitFor, type AppProcess, type InsertedStudent } from "../support/app-process";

const CUSTOMERS = 24;
const COMMENTS = 48;
const CAMPUS = "jinpenling";
const BUILDING = "西苑1栋";
const OPERATOR_OPENID = "o_fault_operator_1";

let fake: FakeMessengerApi;
let dbFile: string;
const servers: AppProcess[] = [];

function env(workerIntervalMs: number) {
  return baseEnv(`file:${dbFile}`, {
    ...messengerEnv(fake, { timeoutMs: 2_000, workerIntervalMs }),
    UPLOADS_DIR: path.join(path.dirname(dbFile), "uploads"),
  });
}

beforeAll(async () => {
  fake = await startFakeMessengerApi();
  dbFile = freshFaultDb("kill-burst");
});

afterAll(async () => {
  for (const server of servers) await server.kill();
  await fake?.close();
  if (dbFile) removeSqlite(dbFile);
});

type Acks = {
  created: Map<string, number>; // order number → user id
  paid: Set<string>;
  comments: Map<number, string>; // comment id → content
};

describe("kill -9 in the middle of a write burst (SQLite)", () => {
  it("keeps every acknowledged write, an intact file, and sends the queued outbox exactly once after restart", async () => {
    // The first life: the outbox worker effectively idle (its first run finds nothing), so the
    // messages queued by the burst are still pending when the process dies.
    const first = await startApp({ env: env(3_600_000) });
    servers.push(first);

    const database = openSqlite(dbFile);
    const customers: InsertedStudent[] = [];
    let postId: number;
    try {
      insertOperatorSqlite(database, "fault-op", OPERATOR_OPENID);
      for (let i = 0; i < CUSTOMERS; i += 1) {
        customers.push(await insertStudentSqlite(database, { openid: `o_fault_customer_${i}`, nickname: `故障${i}`, campusCode: CAMPUS }));
      }
      const iso = new Date().toISOString();
      postId = (
        database
          .prepare(
            `INSERT INTO posts (user_id, category_id, title, content, status, visibility, is_anonymous, view_count, comment_count, like_count, moderation, created_at, updated_at)
             VALUES (?, 1, '故障测试帖', '评论风暴', NULL, 'public', 0, 0, 0, 0, 'visible', ?, ?) RETURNING id`,
          )
          .get(customers[0].userId, iso, iso) as { id: number }
      ).id;
    } finally {
      database.close();
    }

    const acks: Acks = { created: new Map(), paid: new Set(), comments: new Map() };
    const total = CUSTOMERS * 2 + COMMENTS; // creations + payments + comments
    let acknowledged = 0;
    const base = first.base;
    // A request cut by the kill is simply not acknowledged; any other failure is a finding.
    const failures: string[] = [];
    let killed = false;
    const swallow = (error: unknown) => {
      if (killed && error instanceof TypeError) return; // fetch failed / terminated: the connection died
      failures.push(String(error));
    };

    async function orderAndPay(customer: InsertedStudent, index: number) {
      const number = await orderOverHttp(base, customer.cookie, orderBody(CAMPUS, BUILDING, index));
      acks.created.set(number, customer.userId);
      acknowledged += 1;
      await startPaymentOverHttp(base, customer.cookie, number);
      // The simulated payer pays 1.5 s after the pay params; the page polls the status.
      await sleep(1_600);
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const status = await request(base, `/api/express/orders/${number}/payment-status`, { cookie: customer.cookie });
        expect(status.status, status.text).toBe(200);
        if (status.json().data.paid) {
          acks.paid.add(number);
          acknowledged += 1;
          return;
        }
        await sleep(300);
      }
      throw new Error(`order ${number} was never reported paid`);
    }

    async function comment(customer: InsertedStudent, index: number) {
      const content = `第${index}条评论 ${customer.userId}`;
      // The form post without JavaScript: the app answers with the redirect to the new comment.
      const answer = await request(base, `/post/${postId}/comment`, { cookie: customer.cookie, form: { intent: "comment", content } });
      const location = answer.headers.get("Location") ?? "";
      expect(answer.status, answer.text).toBe(302);
      const id = Number(/^\/post\/\d+#comment-(\d+)$/.exec(location)?.[1]);
      expect(id, location).toBeGreaterThan(0);
      acks.comments.set(id, content);
      acknowledged += 1;
    }

    const work: Promise<unknown>[] = [];
    customers.forEach((customer, index) => {
      // Staggered so creations, payments and comments overlap all through the burst.
      work.push(sleep(index * 150).then(() => orderAndPay(customer, index)).catch(swallow));
    });
    for (let i = 0; i < COMMENTS; i += 1) {
      const customer = customers[i % CUSTOMERS];
      work.push(sleep(i * 100).then(() => comment(customer, i)).catch(swallow));
    }

    // A third of the writes acknowledged, payments among them: the process dies while orders,
    // payments and comments are still coming in.
    await waitFor("a third of the burst acknowledged", () => acknowledged >= total / 3 && acks.paid.size >= 3, 60_000, 10);
    killed = true;
    await first.kill();
    await Promise.allSettled(work);
    expect(failures, "answers before the kill").toEqual([]);
    const ackedAtKill = { created: acks.created.size, paid: acks.paid.size, comments: acks.comments.size };
    console.info(`kill -9 after ${JSON.stringify(ackedAtKill)} of ${CUSTOMERS} orders/payments and ${COMMENTS} comments`);
    expect(ackedAtKill.created).toBeGreaterThan(0);
    expect(ackedAtKill.comments).toBeGreaterThan(0);
    expect(acks.created.size + acks.paid.size + acks.comments.size, "the kill came in the middle, not after the burst").toBeLessThan(total);
    expect(fake.received, "nothing was sent in the first life").toHaveLength(0);

    // The file as the crash left it (WAL included) is intact.
    {
      const crashed = openSqlite(dbFile);
      try {
        expect(crashed.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        crashed.close();
      }
    }

    // The second life, on the same file, with the outbox worker running.
    const second = await startApp({ env: env(200) });
    servers.push(second);

    const check = openSqlite(dbFile);
    try {
      // Every acknowledged write is there.
      for (const [number, userId] of acks.created) {
        const row = check.prepare("SELECT user_id, payment_status FROM orders WHERE order_number = ?").get(number) as { user_id: number; payment_status: string } | undefined;
        expect(row, `acknowledged order ${number}`).toBeDefined();
        expect(row!.user_id).toBe(userId);
        if (acks.paid.has(number)) expect(row!.payment_status, `order ${number} was acknowledged paid`).toBe("paid");
      }
      for (const [id, content] of acks.comments) {
        const row = check.prepare("SELECT content, post_id FROM comments WHERE id = ?").get(id) as { content: string; post_id: number } | undefined;
        expect(row, `acknowledged comment ${id}`).toEqual({ content, post_id: postId! });
      }
      const post = check.prepare("SELECT comment_count FROM posts WHERE id = ?").get(postId!) as { comment_count: number };
      const visible = check.prepare("SELECT COUNT(*) AS n FROM comments WHERE post_id = ?").get(postId!) as { n: number };
      expect(post.comment_count, "the post's comment count agrees with its comments").toBe(visible.n);

      // Every paid order queued its two messages in the payment's transaction.
      const paidNumbers = (check.prepare("SELECT order_number FROM orders WHERE payment_status = 'paid'").all() as { order_number: string }[]).map((row) => row.order_number);
      for (const number of acks.paid) expect(paidNumbers).toContain(number);
      const outbox = () => check.prepare("SELECT id, openid, template_key, state, data FROM outbox_messages WHERE kind = 'order_status' OR template_key IS NOT NULL").all() as {
        id: number;
        openid: string;
        template_key: string | null;
        state: string;
        data: string;
      }[];
      const queued = outbox().filter((row) => row.template_key === "EXPRESS_ORDER" || row.template_key === "NEW_ORDER");
      expect(queued.length, "two messages per paid order").toBe(paidNumbers.length * 2);

      // The restarted worker drains the outbox.
      await waitFor("the outbox to drain", () => outbox().every((row) => row.state === "sent"), 30_000, 200);
      await sleep(1_000); // a duplicate would come now

      const rows = outbox();
      const byClientId = new Map<string, number>();
      for (const message of fake.received) byClientId.set(message.client_msg_id ?? "", (byClientId.get(message.client_msg_id ?? "") ?? 0) + 1);
      for (const row of rows) {
        expect(byClientId.get(String(row.id)), `deliveries of outbox message ${row.id} (${row.template_key})`).toBe(1);
      }
      expect(fake.received.length, "no delivery of anything else").toBe(rows.length);

      // What the customers and the operator got: one EXPRESS_ORDER and one NEW_ORDER per paid order.
      for (const number of paidNumbers) {
        const express = fake.received.filter((message) => message.template_id === "tpl_express_order" && message.data.keyword1?.value === number);
        const operator = fake.received.filter((message) => message.template_id === "tpl_new_order" && message.data.keyword1?.value === number);
        expect(express, `EXPRESS_ORDER of ${number}`).toHaveLength(1);
        expect(operator, `NEW_ORDER of ${number}`).toHaveLength(1);
        expect(operator[0].touser).toBe(OPERATOR_OPENID);
      }
      expect(check.pragma("integrity_check", { simple: true })).toBe("ok");

      // What the customers see after the restart: their orders, paid or not, without a server error
      // (the simulated payer of an order left unpaid died with the process).
      const byUser = new Map<number, InsertedStudent>(customers.map((customer) => [customer.userId, customer]));
      for (const [number, userId] of acks.created) {
        const customer = byUser.get(userId)!;
        const status = await request(second.base, `/api/express/orders/${number}/payment-status`, { cookie: customer.cookie });
        expect(status.status, `payment status of ${number}: ${status.text}`).toBe(200);
        expect(status.json().data.paid, number).toBe(paidNumbers.includes(number));
        const page = await request(second.base, `/express/orders/${number}`, { cookie: customer.cookie });
        expect(page.status, `order page of ${number}`).toBe(200);
      }
      // An order left unpaid by the crash can be paid now (the new process's provider).
      const unpaid = [...acks.created].find(([number]) => !paidNumbers.includes(number));
      if (unpaid) {
        const [number, userId] = unpaid;
        const customer = byUser.get(userId)!;
        const payment = await request(second.base, "/api/pay/wechat/create-payment", { cookie: customer.cookie, json: { order_id: number } });
        expect(payment.status, payment.text).toBe(200);
        await sleep(1_600);
        await waitFor(`order ${number} paid after the restart`, async () => {
          const status = await request(second.base, `/api/express/orders/${number}/payment-status`, { cookie: customer.cookie });
          expect(status.status, status.text).toBe(200);
          return status.json().data.paid as boolean;
        }, 10_000, 300);
        await waitFor(`the messages of ${number}`, () =>
          fake.received.filter((message) => message.data.keyword1?.value === number).length === 2, 10_000, 100);
      }
    } finally {
      check.close();
    }
    await second.stop();
    expect(second.output()).not.toMatch(/"level":"error"/);
  });
});
