// Every request body is bounded before anything parses it (413 in
// the caller's own shape, nothing past the limit buffered, chunked bodies counted too), URLs,
// multipart parts and JSON nesting are bounded, a malformed path is a 400 (no 'unhandled' line),
// and a flood of large bodies and comment bursts leaves /healthz fast and stores nothing unexpected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { DEFAULT_REQUEST_LIMITS } from "~/lib/request-limits";
import { answersDuring, epochNow, rawRequest, rssMb, watchHealth } from "./http";
import { insertStudent, makeMessengerUser, sql, startServer, type Server, type Student } from "./server";
import { actionAnswer, dataPath } from "../support/single-fetch";

let server: Server;
let student: Student;
let postId: number;

beforeAll(async () => {
  server = await startServer();
  student = await insertStudent(server, "边界测试");
  makeMessengerUser(server, student.userId);
  const [category] = sql<{ id: number }>(server, "SELECT id FROM forum_categories ORDER BY id LIMIT 1");
  const iso = new Date().toISOString();
  [{ id: postId }] = sql<{ id: number }>(
    server,
    "INSERT INTO posts (user_id, category_id, title, content, created_at, updated_at) VALUES (?, ?, '边界', '边界测试的帖子', ?, ?) RETURNING id",
    student.userId,
    category!.id,
    iso,
    iso,
  ) as [{ id: number }];
  // Warm up: the first requests of a fresh server compile code and open the database.
  for (let i = 0; i < 5; i++) await rawRequest(server.base, "/healthz");
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

/** The 95th percentile of a list of times. */
function p95(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

/** /healthz of the idle server, measured the same way, just before a flood. */
async function idleHealth() {
  const health = watchHealth(server.base, 20);
  await health.ready;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return (await health.stop()).times;
}

/** Fewest /healthz answers a percentile is taken from: with a handful, the 95th is the slowest. */
const MIN_SAMPLES = 40;

/**
 * /healthz stayed responsive during a flood: 95% of its answers under 200 ms and none over 1 s.
 * On a shared test host that is itself slower than that when idle (a load average of 13–20 on
 * 2 cores was measured: idle p50 8 ms, single samples at 300 ms), the bound is twice the idle
 * server's own 95th percentile instead; the stall this guards against held requests ~20 s.
 */
function expectResponsive(times: number[], idle: number[]) {
  const budget = Math.max(200, 2 * p95(idle));
  console.log(`[bounds] /healthz idle p95 ${p95(idle).toFixed(1)} ms; under flood (${times.length} answers) p95 ${p95(times).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(1)} ms (budget ${budget.toFixed(0)} ms)`);
  expect(times.length).toBeGreaterThan(0);
  expect(p95(times)).toBeLessThan(budget);
  expect(Math.max(...times)).toBeLessThan(Math.max(1000, 5 * p95(idle)));
}

const JSON_TYPE = { "Content-Type": "application/json" };

describe("request bodies are bounded before anything parses them", () => {
  it("an anonymous 60 MB form POST to /crLogin is refused at once with the page's error, and /healthz stays fast meanwhile", async () => {
    const idle = await idleHealth();
    const health = watchHealth(server.base, 5);
    await health.ready;
    // One refusal takes tens of milliseconds, a few /healthz answers: the 60 MB body is sent again,
    // one at a time with a pause for the server to settle, and only the answers sent or received
    // while a refusal was under way count, until there are enough of them for a percentile.
    const answers = [];
    const refusals: [number, number][] = [];
    const beside = () => answersDuring(health, refusals);
    while (beside().length < MIN_SAMPLES && answers.length < 100) {
      const from = epochNow();
      answers.push(await rawRequest(server.base, "/crLogin", { headers: FORM, body: { size: 60 * 1024 * 1024 } }));
      refusals.push([from, epochNow()]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { failures } = await health.stop();
    const times = beside().map(({ ms }) => ms);
    console.log(`[bounds] ${answers.length} bodies of 60 MB refused one at a time; /healthz answered ${times.length} times beside them`);
    const [first] = answers;
    expect(first!.status).toBe(413);
    expect(first!.headers["content-type"]).toMatch(/text\/html/);
    expect(first!.body).toContain(refusalMessages.bodyTooLarge);
    expect(first!.ms).toBeLessThan(2000);
    // The body was not read: the client could write only what fits in the socket buffers.
    expect(first!.bytesWritten).toBeLessThan(20 * 1024 * 1024);
    for (const answer of answers) expect([answer.status, answer.body.includes(refusalMessages.bodyTooLarge)]).toEqual([413, true]);
    expect(failures).toEqual([]);
    expect(times.length).toBeGreaterThanOrEqual(MIN_SAMPLES);
    expectResponsive(times, idle);
  });

  it("a chunked body (no Content-Length) is counted as it streams and refused at the limit", async () => {
    const answer = await rawRequest(server.base, "/crLogin", { headers: FORM, chunked: true, body: { size: 30 * 1024 * 1024 } });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain(refusalMessages.bodyTooLarge);
    expect(answer.bytesWritten).toBeLessThan(20 * 1024 * 1024);
  });

  it("200 MB to the pay notification (exempt from the origin check) is refused with its JSON at a few KB and the memory does not grow", async () => {
    const before = await rssMb(server.pid);
    for (const chunked of [false, true]) {
      const answer = await rawRequest(server.base, "/api/pay/wechat/notify", {
        headers: { ...JSON_TYPE, Origin: "" },
        chunked,
        body: { size: 200 * 1024 * 1024, fill: "{" },
      });
      expect(answer.status, `chunked: ${chunked}`).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({ code: "FAIL", message: refusalMessages.bodyTooLarge });
    }
    const after = await rssMb(server.pid);
    expect(after - before).toBeLessThan(60);
    // Just over the limit is refused, a real-size notification body is read (and refused for its signature, not its size).
    const over = await rawRequest(server.base, "/api/pay/wechat/notify", { headers: JSON_TYPE, body: "x".repeat(DEFAULT_REQUEST_LIMITS.payNotifyBytes + 1) });
    expect(over.status).toBe(413);
    const small = await rawRequest(server.base, "/api/pay/wechat/notify", { headers: JSON_TYPE, body: JSON.stringify({ id: "x", resource: { ciphertext: "a".repeat(1500) } }) });
    expect(small.status).not.toBe(413);
    expect(small.status).toBeLessThan(500);
  });

  it("JSON endpoints answer 413 in their JSON shape; a body just under 64 KB is still read", async () => {
    const over = await rawRequest(server.base, "/api/feature-request", { headers: JSON_TYPE, body: { size: DEFAULT_REQUEST_LIMITS.formBytes + 1 } });
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toEqual({ success: false, message: refusalMessages.bodyTooLarge });
    const under = await rawRequest(server.base, "/api/feature-request", {
      headers: JSON_TYPE,
      body: JSON.stringify({ featureType: "nope", pad: "x".repeat(DEFAULT_REQUEST_LIMITS.formBytes - 200) }),
    });
    expect(under.status).toBe(400);
  });

  it("a data request (single fetch's /page.data) of a page's action gets the 413 with the message, in the shape Remix's client decodes", async () => {
    const answer = await rawRequest(server.base, dataPath(`/post/${postId}/comment`), {
      headers: FORM,
      cookie: student.cookie,
      body: `intent=comment&content=${"长".repeat(30_000)}`,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain(refusalMessages.bodyTooLarge);
    // The thrown refusal reaches the route's error boundary as an error response with the message.
    const { error } = await actionAnswer(answer.body);
    expect(error).toMatchObject({ status: 413, data: refusalMessages.bodyTooLarge });
    expect(sql(server, "SELECT id FROM comments WHERE post_id = ?", postId)).toEqual([]);
  });

  it("image routes take their per-file limit × file count: a 1 MB upload is read, 11 MB to the single-image upload is refused", async () => {
    const boundary = "----bounds";
    const part = (size: number) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
        Buffer.alloc(size, 1),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const headers = { "Content-Type": `multipart/form-data; boundary=${boundary}` };
    const small = await rawRequest(server.base, "/api/upload/image", { headers, cookie: student.cookie, body: part(1024 * 1024) });
    expect(small.status).not.toBe(413);
    expect(small.status).toBeLessThan(500);
    const large = await rawRequest(server.base, "/api/upload/image", { headers, cookie: student.cookie, body: { size: 11 * 1024 * 1024 } });
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body).success).toBe(false);
  });

  it("a timetable file to import: under 1 MB it reaches the reader (which names what it is), 3 MB is refused by the route's rule", async () => {
    const boundary = "----timetable";
    const headers = { "Content-Type": `multipart/form-data; boundary=${boundary}` };
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="term"\r\n\r\n2025-2026-1\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="kb.xls"\r\nContent-Type: application/vnd.ms-excel\r\n\r\n`),
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(900 * 1024, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const read = await rawRequest(server.base, "/schedule/import?term=2025-2026-1&week=1", { headers, cookie: student.cookie, body });
    expect(read.status).toBe(415);
    expect(read.body).toContain("这是旧版 Excel（.xls）文件");
    const large = await rawRequest(server.base, "/schedule/import?term=2025-2026-1&week=1", { headers, cookie: student.cookie, body: { size: 3 * 1024 * 1024 } });
    expect(large.status).toBe(413);
    // Streamed without a length: counted as it arrives, refused at the limit, not read to the end.
    const streamed = await rawRequest(server.base, "/schedule/import?term=2025-2026-1&week=1", { headers, cookie: student.cookie, body: { size: 3 * 1024 * 1024 }, chunked: true });
    expect(streamed.status).toBe(413);
  });

  it("multipart part counts and JSON nesting are bounded", async () => {
    const boundary = "----parts";
    const fields = Array.from({ length: DEFAULT_REQUEST_LIMITS.multipartParts + 5 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`);
    const manyParts = await rawRequest(server.base, "/api/feature-request", {
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: `${fields.join("")}--${boundary}--\r\n`,
    });
    expect(manyParts.status).toBe(413);
    expect(JSON.parse(manyParts.body).message).toBe(refusalMessages.tooManyParts);
    const deep = "[".repeat(DEFAULT_REQUEST_LIMITS.jsonDepth + 1) + "]".repeat(DEFAULT_REQUEST_LIMITS.jsonDepth + 1);
    const tooDeep = await rawRequest(server.base, "/errands/pickup-code/recognize-text", { headers: JSON_TYPE, cookie: student.cookie, body: deep });
    expect(tooDeep.status).toBe(400);
    expect(JSON.parse(tooDeep.body)).toEqual({ success: false, message: refusalMessages.badBody });
    // Brackets inside strings are text, not nesting.
    const inString = await rawRequest(server.base, "/errands/pickup-code/recognize-text", {
      headers: JSON_TYPE,
      cookie: student.cookie,
      body: JSON.stringify({ text_data: `取件码 8-2-1234 ${"[".repeat(100)}` }),
    });
    expect(inString.status).toBe(200);
  });

  it("a URL over the limit is a 414", async () => {
    const answer = await rawRequest(server.base, `/market?q=${"a".repeat(DEFAULT_REQUEST_LIMITS.urlBytes)}`);
    expect(answer.status).toBe(414);
    expect(answer.body).toContain(refusalMessages.urlTooLong);
  });
});

describe("malformed URLs", () => {
  it("/%ff and other undecodable paths are a 400 with a message, never a 500 or an 'unhandled' log line", async () => {
    for (const path of ["/%ff", "/post/%E4%ff", "/api/coupon/assist/records/openid/%c0", "/build/%ff.js", "/%"]) {
      const answer = await rawRequest(server.base, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toContain(refusalMessages.badUrl);
    }
    const post = await rawRequest(server.base, "/%ff", { headers: FORM, body: "a=1" });
    expect(post.status).toBe(400);
    expect(server.output()).not.toContain('"unhandled"');
  });
});

describe("a bounded flood", () => {
  it("large bodies and comment bursts together: /healthz answers in under 200 ms throughout, nothing unexpected is stored", async () => {
    const commentsBefore = sql<{ n: number }>(server, "SELECT COUNT(*) AS n FROM comments")[0]!.n;
    const idle = await idleHealth();
    const health = watchHealth(server.base, 5);
    await health.ready;
    const started = Date.now();
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const bigStatuses: number[] = [];
    const flood = async () => {
      const bigBodies = (async () => {
        // 40 bodies of 20 MB (800 MB offered), two at a time, declared and chunked, forms and JSON.
        const jobs = Array.from({ length: 40 }, (_, i) => i);
        const worker = async () => {
          for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
            const bigStatus = (status: number) => bigStatuses.push(status);
            const target = ["/crLogin", "/api/feature-request", "/api/pay/wechat/notify", `/post/${postId}/comment`][job % 4]!;
            try {
              const answer = await rawRequest(server.base, target, { headers: job % 2 ? JSON_TYPE : FORM, chunked: job % 3 === 0, cookie: student.cookie, body: { size: 20 * 1024 * 1024 } });
              bigStatus(answer.status);
            } catch (error) {
              // The server answered early and closed while this client still wrote (it lost the
              // answer to the reset): a refusal too, as long as the server is up (checked below).
              const code = (error as NodeJS.ErrnoException).code;
              if (code !== "EPIPE" && code !== "ECONNRESET") throw error;
              bigStatus(0);
            }
          }
        };
        await Promise.all([worker(), worker()]);
      })();
      const commentBurst = (async () => {
        // 150 comments by one student as fast as the server takes them: the rate limit stops them.
        for (let i = 0; i < 150; i++) {
          const answer = await rawRequest(server.base, dataPath(`/post/${postId}/comment`), {
            headers: FORM,
            cookie: student.cookie,
            body: `intent=comment&content=${encodeURIComponent(`洪水评论 ${i}`)}`,
          });
          count(answer.status);
        }
      })();
      await Promise.all([bigBodies, commentBurst]);
    };
    // The poller is warm before the flood starts, and only its answers taken while a flood was
    // under way count: the flood is sent again (after a pause for the server to settle) until
    // there are enough of them for a percentile.
    const floods: [number, number][] = [];
    while (answersDuring(health, floods).length < MIN_SAMPLES && floods.length < 5) {
      if (floods.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const from = epochNow();
      await flood();
      floods.push([from, epochNow()]);
    }
    const { failures } = await health.stop();
    const times = answersDuring(health, floods).map(({ ms }) => ms);
    const slowest = Math.max(0, ...times);
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`[bounds] /healthz p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]?.toFixed(1)} ms, over 200 ms: ${times.filter((t) => t >= 200).length}`);
    console.log(`[bounds] ${floods.length} flood(s) of ${[...statuses.values()].reduce((a, b) => a + b, 0)} requests in ${Date.now() - started} ms: ${JSON.stringify(Object.fromEntries(statuses))}; /healthz ${times.length} answers during them, slowest ${slowest.toFixed(1)} ms`);
    expect(failures).toEqual([]);
    expect(times.length).toBeGreaterThanOrEqual(MIN_SAMPLES);
    expectResponsive(times, idle);
    // Every large body refused: 413, or closed while still writing; a student's large body to the
    // login page is sent on by the access guard (302) before anything reads it. One client sends
    // all of it at once, so the fair share also sheds part of it (503 with Retry-After).
    expect(bigStatuses).toHaveLength(40 * floods.length);
    expect(bigStatuses.filter((status) => ![413, 0, 302, 503].includes(status))).toEqual([]);
    expect(bigStatuses.filter((status) => status === 413 || status === 503).length).toBeGreaterThan(20 * floods.length);
    expect([...statuses.keys()].every((status) => status < 500 || status === 503)).toBe(true);
    expect((await rawRequest(server.base, "/healthz")).status).toBe(200);
    // Stored: at most the comment limit's worth of comments, none of them from a large body.
    const stored = sql<{ content: string }>(server, "SELECT content FROM comments WHERE post_id = ?", postId);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThanOrEqual(60);
    expect(stored.length - 0).toBe(sql<{ n: number }>(server, "SELECT COUNT(*) AS n FROM comments")[0]!.n - commentsBefore);
    expect(stored.every((row) => row.content.startsWith("洪水评论 "))).toBe(true);
    expect((statuses.get(429) ?? 0) + (statuses.get(503) ?? 0)).toBe(150 * floods.length - stored.length);
    // A stored comment moves on to itself: single fetch's redirect answer (202).
    expect(statuses.get(202)).toBe(stored.length);
    expect(sql(server, "SELECT id FROM feature_requests")).toEqual([]);
  }, 120_000);
});
