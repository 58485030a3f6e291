// Fault: two app instances on one PostgreSQL database and one object store (the fake S3 of
// tests/fakes/s3-server.ts; no sticky routing, both running the notification workers). An image
// uploaded through one instance is served by the other and joins a post published there. A
// session made by logging in on A works on B; a logout on B ends it on A; course reminders and
// outbox messages that fall due while both workers run are each sent exactly once (the messenger
// fake counts every accepted send); a campus an admin makes on A is what B serves on its next
// request (no restart, no per-instance cache).
//
// Needs TEST_DATABASE_URL (CI: postgres://postgres@127.0.0.1:5432/test); a throwaway database
// named after it is created for this file and dropped after.
import path from "node:path";
import { createCookie } from "@remix-run/node";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { startFakeMessengerApi, type FakeMessengerApi } from "../fakes/messenger-api";
import { s3Env, startFakeS3, storedKeys, type FakeS3 } from "../fakes/s3-server";
import { hostOf } from "../fakes/allow";
import { FAKE_STUDENT, startFakeZfsoft, type FakeZfsoft } from "../fakes/zfsoft-server";
import { TIME_SLOTS } from "../../app/lib/schedule";
import { shanghaiMinuteOfDay } from "../../app/lib/time";
import { endPool, postgresUrlFor, quoteIdent, uniqueSuffix, withAdmin } from "../setup/test-db";
import { TEST_SESSION_SECRET, baseEnv, cookiesOf, messengerEnv, request, scratchDir, sleep, startApp, waitFor, type AppProcess } from "../support/app-process";

const BASE_URL = process.env.TEST_DATABASE_URL;
if (!BASE_URL) {
  console.warn("tests/faults/two-instances-postgres.test.ts skipped: TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)");
}

const SCHOOL = "faultpg";
const STUDENT_OPENID = "o_fault_pg_student";
const OPERATOR_OPENIDS = ["o_fault_pg_op_a", "o_fault_pg_op_b"];
const DIRECT_MESSAGES = 60;
const TERM = "2025-2026-1";

let adminUrl = "";
let databaseName = "";
let databaseUrl = "";
let pool: pg.Pool | undefined;
let zfsoft: FakeZfsoft;
let fake: FakeMessengerApi;
let s3: FakeS3;
const servers: AppProcess[] = [];

/** A fresh database on TEST_DATABASE_URL's server; TEST_DATABASE_URL's own database is the admin connection. */
function derive(url: string) {
  const name = `faults_${uniqueSuffix()}`;
  return { admin: url, name, url: postgresUrlFor(url, name) };
}

async function adminQuery(sql: string) {
  await withAdmin(adminUrl, (client) => client.query(sql));
}

function env() {
  return baseEnv(databaseUrl, {
    ...messengerEnv(fake, { timeoutMs: 3_000, workerIntervalMs: 200, reminderIntervalMs: 1_000 }),
    CAPTCHA_FIXED_VALUE: "AB23",
    ACADEMIC_TIMEOUT_MS: "5000",
    // The school fake listens on loopback, which outbound calls refuse unless named.
    OUTBOUND_ALLOW_HOSTS: hostOf(zfsoft.baseUrl),
    // Uploads in the shared object store: no folder both instances must see.
    ...s3Env(s3),
    LOG_LEVEL: "info", // the notify-sent lines tell which instance sent what
  });
}

/** Monday of this week in Asia/Shanghai, YYYY-MM-DD. */
function shanghaiMonday(now = new Date()) {
  const local = new Date(now.getTime() + 8 * 3_600_000);
  const weekday = local.getUTCDay() === 0 ? 7 : local.getUTCDay();
  return new Date(local.getTime() - (weekday - 1) * 86_400_000).toISOString().slice(0, 10);
}

beforeAll(async () => {
  if (!BASE_URL) return;
  const derived = derive(BASE_URL);
  adminUrl = derived.admin;
  databaseName = derived.name;
  databaseUrl = derived.url;
  await adminQuery(`CREATE DATABASE ${quoteIdent(databaseName)}`);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  zfsoft = await startFakeZfsoft();
  fake = await startFakeMessengerApi();
  s3 = await startFakeS3();
  // Both at once on the empty database, as a deployment starts them: they race to migrate and seed.
  servers.push(...(await Promise.all([startApp({ env: env() }), startApp({ env: env() })])));
  await pool.query("INSERT INTO schools (code, name, system, base_url, sort_order, enabled) VALUES ($1, '故障大学', 'zfsoft', $2, 99, 1)", [SCHOOL, zfsoft.baseUrl]);
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  if (pool) await endPool(pool);
  await zfsoft?.close();
  await fake?.close();
  await s3?.close();
  if (databaseName) await adminQuery(`DROP DATABASE IF EXISTS ${quoteIdent(databaseName)} WITH (FORCE)`);
});

describe.skipIf(!BASE_URL)("two instances on one PostgreSQL", () => {
  let userId = 0;

  /** The login form posted to one instance (its captcha from that instance); the session cookie. */
  async function logIn(server: AppProcess) {
    // The captcha id as the page carries it (the form's hidden field).
    const page = await request(server.base, "/crLogin");
    const captchaId = /name="captchaId" value="([^"]+)"/.exec(page.text)?.[1] as string;
    const login = await request(server.base, "/crLogin", {
      form: { school: SCHOOL, studentId: FAKE_STUDENT.id, password: FAKE_STUDENT.password, captcha: "AB23", captchaId, redirectTo: "" },
    });
    expect(login.status, login.text.slice(0, 500)).toBe(302);
    return cookiesOf(login);
  }

  it("shares sessions: a login on A works on B, a logout on B ends it on A", async () => {
    const [a, b] = servers;
    const cookie = await logIn(a);

    const onB = await request(b.base, "/schedule?week=1", { cookie });
    expect(onB.status, `B sent ${onB.headers.get("Location")}`).toBe(200);
    expect(onB.text).toContain("高等数学A(上)");
    const onA = await request(a.base, "/backpack", { cookie });
    expect(onA.status).toBe(200);
    expect(onA.text).toContain(FAKE_STUDENT.id); // the backpack shows the student id and the display name, never the real name

    const logout = await request(b.base, "/backpack/settings", { cookie, form: { intent: "logout" } });
    expect(logout.status).toBe(302);
    expect(logout.headers.get("Location")).toBe("/crLogin");

    const afterLogout = await request(a.base, "/schedule?week=1", { cookie });
    expect(afterLogout.status).toBe(302);
    expect(afterLogout.headers.get("Location")).toMatch(/^\/crLogin/);
    const session = await pool!.query("SELECT s.end_reason, s.user_id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.student_id = $1", [FAKE_STUDENT.id]);
    expect(session.rows).toHaveLength(1);
    expect(session.rows[0].end_reason).toBe("logout");
    userId = session.rows[0].user_id;
  });

  it("a login on B replaces the session of A, which both instances then refuse", async () => {
    const [a, b] = servers;
    const first = await logIn(a);
    expect((await request(b.base, "/backpack", { cookie: first })).status).toBe(200);
    const second = await logIn(b);
    for (const server of [a, b]) {
      const old = await request(server.base, "/backpack", { cookie: first });
      expect(old.status).toBe(302);
      expect(old.headers.get("Location")).toMatch(/^\/crLogin\?.*reason=replaced/);
      expect((await request(server.base, "/backpack", { cookie: second })).status).toBe(200);
    }
  });

  it("sends each course reminder and each due outbox message exactly once while both workers run", async () => {
    expect(userId).toBeGreaterThan(0);
    // The student wants course reminders and has a messenger identity; the timetable has a class
    // in every slot of every day of weeks 1–2, week 1 being this week.
    const now = new Date();
    const nowIso = now.toISOString();
    const info = { currentTerm: TERM, week1Start: shanghaiMonday(now), terms: [{ code: TERM, label: "2025-2026学年第一学期" }] };
    // A slot whose class starts, or whose reminder falls due on its own, while the test runs would
    // change the next 24 hours' meetings under it (the jobs drop a class that has begun and add
    // tomorrow's): slots starting within 45 minutes, or begun in the last 5, are left out.
    const clock = shanghaiMinuteOfDay(now);
    const slots = TIME_SLOTS.filter((slot) => {
      const [hour, minute] = slot.start.split(":").map(Number);
      const ahead = (hour! * 60 + minute! - clock + 1440) % 1440;
      return ahead > 45 && ahead < 1440 - 5;
    });
    const courses = [];
    for (let weekday = 1; weekday <= 7; weekday += 1) {
      for (const slot of slots) {
        const start = slot.firstPeriod;
        courses.push({ name: `故障课${weekday}-${start}`, teacher: "钱老师", location: "南教1-201", weekday, startPeriod: start, endPeriod: start + 1, weeks: [1, 2], weeksText: "1-2周" });
      }
    }
    await pool!.query("UPDATE users SET openid = $1, wechat_authorized_at = $2 WHERE id = $3", [STUDENT_OPENID, nowIso, userId]);
    await pool!.query(
      `INSERT INTO school_term_info (school_code, data, fetched_at) VALUES ($1, $2, $3)
       ON CONFLICT (school_code) DO UPDATE SET data = EXCLUDED.data, fetched_at = EXCLUDED.fetched_at`,
      [SCHOOL, JSON.stringify(info), nowIso],
    );
    await pool!.query(
      `INSERT INTO timetable_cache (user_id, term, data, fetched_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, term) DO UPDATE SET data = EXCLUDED.data, fetched_at = EXCLUDED.fetched_at`,
      [userId, TERM, JSON.stringify({ term: TERM, courses, notes: [] }), nowIso],
    );
    await pool!.query(
      `INSERT INTO schedule_settings (user_id, course_reminder, updated_at) VALUES ($1, 1, $2)
       ON CONFLICT (user_id) DO UPDATE SET course_reminder = 1`,
      [userId, nowIso],
    );

    // Both reminder jobs (every second) schedule the next 24 hours: one class per kept slot.
    await waitFor(
      "the reminders of the next 24 hours",
      async () => {
        const rows = (await pool!.query("SELECT id FROM course_reminders WHERE user_id = $1 AND state = 'scheduled'", [userId])).rows;
        return rows.length >= slots.length ? rows : null;
      },
      15_000,
      200,
    );
    await sleep(2_500); // both jobs have run over them again
    const reminders = (await pool!.query("SELECT id, occurrence_key, state FROM course_reminders WHERE user_id = $1", [userId])).rows;
    // Every kept slot of every day has a class: any 24 hours hold exactly one meeting per slot.
    expect(reminders.length, "one row per class meeting, scheduled once by the two jobs").toBe(slots.length);
    // (A class within 15 minutes is already queued: its reminder was due on its own.)
    expect(reminders.every((row) => row.state === "scheduled" || row.state === "queued")).toBe(true);
    expect(new Set(reminders.map((row) => row.occurrence_key)).size).toBe(reminders.length);

    // Operators for the direct messages.
    const operatorIds: number[] = [];
    for (const [index, openid] of OPERATOR_OPENIDS.entries()) {
      const row = await pool!.query(
        `INSERT INTO operators (username, display_name, password_hash, role, openid, disabled, created_at)
         VALUES ($1, '故障值班', 'x', 'admin', $2, 0, $3) RETURNING id`,
        [`fault-pg-op-${index}`, openid, nowIso],
      );
      operatorIds.push(row.rows[0].id);
    }

    // Their time comes (the test moves it rather than wait for the class), and at the same moment
    // a batch of messages falls due: both instances' workers race for all of it.
    // Each send takes 40 ms at the messenger, so the drain outlasts a worker tick and the two
    // instances really contend for the rows.
    fake.fail("send", { kind: "slow", ms: 40 }, 10_000);
    // And the messenger has just revoked the shared access token: both instances meet 42001.
    fake.expireToken();
    const dueIso = new Date(Date.now() - 1000).toISOString();
    const values: string[] = [];
    const params: unknown[] = [];
    for (let i = 0; i < DIRECT_MESSAGES; i += 1) {
      const operator = i % operatorIds.length;
      const data = JSON.stringify({ orderNumber: `E2026FAULT${String(i).padStart(4, "0")}`, campus: "金盆岭校区", dormRoom: "西苑1栋 101", parcelCount: "1", time: "刚刚" });
      params.push(operatorIds[operator], OPERATOR_OPENIDS[operator], data, dueIso);
      const n = params.length;
      values.push(`($${n - 3}, $${n - 2}, 'order_status', 'NEW_ORDER', 'template', $${n - 1}, 'pending', 0, $${n}, $${n}, $${n})`);
    }
    await pool!.query("UPDATE course_reminders SET remind_at = $1 WHERE user_id = $2 AND state = 'scheduled'", [dueIso, userId]);
    await pool!.query(
      `INSERT INTO outbox_messages (operator_id, openid, kind, template_key, channel, data, state, attempts, next_attempt_at, created_at, updated_at)
       VALUES ${values.join(", ")}`,
      params,
    );

    const expected = reminders.length + DIRECT_MESSAGES;
    // While they drain, no worker holds more than one claim batch (CLAIM_BATCH, 20) under its lease:
    // a claim of everything would let the lease run out while that worker is still sending.
    let largestClaim = 0;
    const sampling = (async () => {
      for (let i = 0; i < 60; i += 1) {
        const claims = await pool!.query("SELECT COUNT(*)::int AS n FROM outbox_messages WHERE state = 'sending' GROUP BY claim_token");
        for (const row of claims.rows) largestClaim = Math.max(largestClaim, row.n);
        await sleep(50);
      }
    })();
    await waitFor(
      "every reminder queued and every message sent",
      async () => {
        const queued = (await pool!.query("SELECT COUNT(*)::int AS n FROM course_reminders WHERE user_id = $1 AND state = 'queued'", [userId])).rows[0].n;
        const open = (await pool!.query("SELECT COUNT(*)::int AS n FROM outbox_messages WHERE state <> 'sent'")).rows[0].n;
        const sent = (await pool!.query("SELECT COUNT(*)::int AS n FROM outbox_messages WHERE state = 'sent'")).rows[0].n;
        return queued === reminders.length && open === 0 && sent >= expected;
      },
      30_000,
      200,
    );
    await sleep(1_500); // a duplicate would come now
    await sampling;
    expect(largestClaim, "the most messages one claim held").toBeGreaterThan(0);
    expect(largestClaim, "the most messages one claim held").toBeLessThanOrEqual(20);

    const finalReminders = (await pool!.query("SELECT id, state, outbox_id FROM course_reminders WHERE user_id = $1", [userId])).rows;
    expect(finalReminders.every((row) => row.state === "queued" && row.outbox_id !== null)).toBe(true);
    expect(new Set(finalReminders.map((row) => row.outbox_id)).size, "one outbox message per reminder").toBe(finalReminders.length);
    const reminderMessages = (await pool!.query("SELECT id FROM outbox_messages WHERE template_key = 'COURSE_REMINDER'")).rows;
    expect(reminderMessages, "no reminder queued twice").toHaveLength(finalReminders.length);

    const outbox = (await pool!.query("SELECT id, template_key, state, attempts FROM outbox_messages ORDER BY id")).rows;
    expect(outbox).toHaveLength(expected);
    const counts = new Map<string, number>();
    for (const message of fake.received) counts.set(message.client_msg_id ?? "", (counts.get(message.client_msg_id ?? "") ?? 0) + 1);
    for (const row of outbox) {
      expect(row.state).toBe("sent");
      expect(counts.get(String(row.id)), `deliveries of outbox message ${row.id} (${row.template_key})`).toBe(1);
    }
    expect(fake.received, "nothing else was delivered").toHaveLength(expected);
    expect(fake.received.filter((message) => message.touser === STUDENT_OPENID && message.template_id === "tpl_course_reminder")).toHaveLength(finalReminders.length);
    const sentBy = servers.map((server) => server.output().split("\n").filter((line) => line.includes("notify-sent")).length);
    console.info(`messages sent by instance A / B: ${sentBy.join(" / ")}`);
    expect(sentBy[0] + sentBy[1]).toBe(expected);
    expect(Math.min(...sentBy), "both workers took part").toBeGreaterThan(0);
    expect(fake.forcedRefreshes, "the two instances renew the revoked token without fighting over it").toBeLessThanOrEqual(2);
  });

  it("does not send a message twice when a worker's claim runs out in the middle of its batch", async () => {
    // The messenger is slow (a batch of 20 at WECHAT_HTTP_TIMEOUT_MS each can outlast the 2-minute
    // lease); the test moves the leases of the rows being sent into the past rather than wait.
    fake.recover();
    fake.fail("send", { kind: "slow", ms: 250 }, 10_000);
    const before = fake.received.length;
    const dueIso = new Date(Date.now() - 1000).toISOString();
    const operator = (await pool!.query("SELECT id, openid FROM operators ORDER BY id LIMIT 1")).rows[0];
    const inserted = await pool!.query(
      `INSERT INTO outbox_messages (operator_id, openid, kind, template_key, channel, data, state, attempts, next_attempt_at, created_at, updated_at)
       SELECT $1, $2, 'order_status', 'NEW_ORDER', 'template', '{"orderNumber":"E2026LEASE"}', 'pending', 0, $3, $3, $3 FROM generate_series(1, 30)
       RETURNING id`,
      [operator.id, operator.openid, dueIso],
    );
    const ids = inserted.rows.map((row) => row.id as number);
    await waitFor(
      "the workers to be in the middle of their batches",
      async () => (await pool!.query("SELECT COUNT(*)::int AS n FROM outbox_messages WHERE state = 'sent' AND id = ANY($1)", [ids])).rows[0].n >= 2,
      10_000,
      20,
    );
    await pool!.query("UPDATE outbox_messages SET claimed_until = $1 WHERE state = 'sending' AND id = ANY($2)", [new Date(Date.now() - 1000).toISOString(), ids]);
    await waitFor(
      "every message sent",
      async () => (await pool!.query("SELECT COUNT(*)::int AS n FROM outbox_messages WHERE state = 'sent' AND id = ANY($1)", [ids])).rows[0].n === ids.length,
      30_000,
      200,
    );
    await sleep(1_500); // a second send of a row would come now
    const received = fake.received.slice(before);
    for (const id of ids) {
      expect(received.filter((message) => message.client_msg_id === String(id)), `sends of outbox message ${id}`).toHaveLength(1);
    }
    expect(received).toHaveLength(ids.length);
  });

  it("shares images through object storage: uploaded on A, served by B, published with a post on B, shown on A", async () => {
    const [a, b] = servers;
    const cookie = await logIn(a);
    await pool!.query("UPDATE users SET nickname = '故障同学' WHERE student_id = $1", [FAKE_STUDENT.id]);
    const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: "#22aa66" } }).png().toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "shared.png");
    const uploaded = await fetch(`${a.base}/api/upload/image`, { method: "POST", headers: { Cookie: cookie, Origin: a.base }, body: form });
    expect(uploaded.status).toBe(200);
    const { file_url: url, thumb_url: thumb } = (await uploaded.json()).data as { file_url: string; thumb_url: string };
    const key = url.slice("/uploads/".length, -".jpg".length);
    expect(storedKeys(s3).filter((name) => !name.startsWith("readyz-"))).toEqual([`${key}.jpg`, `${key}.t.jpg`].sort());

    const fromA = await fetch(a.base + url, { headers: { Cookie: cookie } });
    const fromB = await fetch(b.base + url, { headers: { Cookie: cookie } });
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get("Cache-Control")).toBe("private, max-age=3600");
    expect(Buffer.from(await fromB.arrayBuffer()).equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);

    const published = await request(b.base, "/publish-post", { cookie, form: { categoryId: "1", content: "两台机器共享的图片", images: url } });
    expect(published.status, published.text.slice(0, 300)).toBe(302);
    const post = (await pool!.query("SELECT p.id FROM posts p JOIN uploads u ON u.post_id = p.id WHERE u.key = $1", [key])).rows[0];
    expect(post?.id).toBeGreaterThan(0);
    const page = await request(a.base, `/post/${post.id}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain(url);
    expect((await fetch(a.base + thumb, { headers: { Cookie: cookie } })).status).toBe(200);
    for (const server of servers) expect((await request(server.base, "/readyz")).json()).toMatchObject({ status: "ok", failed: [] });
  });
});

describe.skipIf(!BASE_URL)("reference data on two instances", () => {
  it("an admin's campus, building and price made on A are what B serves on its next request, without a restart", async () => {
    const iso = new Date().toISOString();
    const operator = (
      await pool!.query(
        `INSERT INTO operators (username, display_name, password_hash, role, openid, disabled, created_at) VALUES ('fault-admin', '管理员', 'x', 'admin', NULL, 0, $1) RETURNING id`,
        [iso],
      )
    ).rows[0];
    const sessionId = `fault-admin-${uniqueSuffix()}`;
    await pool!.query("INSERT INTO operator_sessions (id, operator_id, created_at, expires_at) VALUES ($1, $2, $3, $4)", [
      sessionId,
      operator.id,
      iso,
      new Date(Date.now() + 3_600_000).toISOString(),
    ]);
    const cookie = (await createCookie("__operator", { secrets: [TEST_SESSION_SECRET], path: "/admin" }).serialize(sessionId)).split(";")[0]!;
    const [a, b] = servers;
    const initInfo = async () => (await request(b!.base, "/api/express/init_info", { json: { campus_code: "twin" } })).json();
    const post = async (pathname: string, form: Record<string, string>) => {
      const answer = await request(a!.base, pathname, { cookie, form });
      expect(answer.status, `${pathname} ${answer.text.slice(0, 200)}`).toBe(302);
    };

    // B knows no such campus yet (and keeps no cache of that answer).
    expect(await initInfo()).toMatchObject({ success: false, reset: true });
    await post("/admin/campuses", { intent: "create", code: "twin", name: "双实例校区" });
    await post("/admin/campuses/twin", { intent: "add-building", buildingName: "东苑1栋" });
    await post("/admin/campuses/twin", {
      intent: "prices",
      pocketName: "口袋件",
      pocketPrice: "1.8",
      smallName: "小件",
      smallPrice: "2",
      mediumName: "中件",
      mediumPrice: "3",
      largeName: "大件",
      largePrice: "4",
    });
    await post("/admin/campuses/twin", { intent: "campus", name: "双实例校区", status: "activate" });
    const served = await initInfo();
    expect(served).toMatchObject({ success: true, data: { value: "双实例校区", dorm_list: ["东苑1栋"], package_types: { pocket: { price_fen: 180 } } } });

    await post("/admin/campuses/twin", { intent: "prices", pocketName: "口袋件", pocketPrice: "2.2", smallName: "小件", smallPrice: "2.5", mediumName: "中件", mediumPrice: "3", largeName: "大件", largePrice: "4" });
    expect((await initInfo()).data.package_types.pocket.price_fen).toBe(220);
  });
});
