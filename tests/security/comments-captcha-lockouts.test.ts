// And the login part of 9, against the production build: a deep reply
// chain cannot make a post unopenable, the captcha stores nothing when shown and has no structure
// a program can read, failures from elsewhere never lock a victim out, the operator login has the
// captcha and the same model, the deletion password check is throttled, and an unknown student
// id gets the same answer as a wrong password. TRUST_PROXY=true, so each attempt can come from
// its own client address (X-Forwarded-For).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/server/auth/password.server";
import { CAPTCHA_ANSWER, captchaToken, insertStudent, sql, startServer, type Server, type Student } from "./server";
import { actionAnswer, dataPath } from "../support/single-fetch";

let server: Server;

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "true" });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

type Answer = { status: number; headers: Headers; body: string; ms: number };

async function call(
  path: string,
  options: { method?: string; form?: Record<string, string>; cookie?: string; ip?: string; accept?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { "X-Forwarded-For": options.ip ?? "198.18.0.1" };
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.accept) headers.Accept = options.accept;
  let body: string | undefined;
  if (options.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    headers.Origin = server.base;
    body = new URLSearchParams(options.form).toString();
  }
  const started = performance.now();
  const response = await fetch(server.base + path, { method: options.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text, ms: performance.now() - started };
}

const cookieOf = (answer: Answer, name: string) =>
  answer.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(";")[0];

/** Every table's row count: what "nothing stored" is measured by. */
function rowCounts(): Record<string, number> {
  const tables = sql<{ name: string }>(server, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'kysely_migration' AND name <> 'kysely_migration_lock'");
  return Object.fromEntries(tables.map(({ name }) => [name, sql<{ n: number }>(server, `SELECT count(*) AS n FROM "${name}"`)[0]!.n]));
}

function studentLogin(studentId: string, password: string, ip: string, cookie?: string) {
  // As the login page's JavaScript posts it (single fetch's data request, decision 027).
  return call(dataPath("/crLogin"), {
    ip,
    cookie,
    form: { school: "demo", studentId, password, captcha: CAPTCHA_ANSWER, captchaId: captchaToken(CAPTCHA_ANSWER), redirectTo: "/schedule" },
  });
}

const messagesOf = async (answer: Answer) =>
  Object.values((await actionAnswer<{ result?: { error?: Record<string, string[] | null> } }>(answer.body)).data?.result?.error ?? {}).flat();

describe("finding 2: a 3,000-deep reply chain", () => {
  let student: Student;
  let postId: number;
  let chainRoot: number;
  let deepest: number;

  beforeAll(async () => {
    student = await insertStudent(server, "深度测试");
    const at = new Date().toISOString();
    postId = sql<{ id: number }>(
      server,
      `INSERT INTO posts (user_id, category_id, content, visibility, is_anonymous, view_count, comment_count, like_count, moderation, created_at, updated_at)
       VALUES (?, 1, '被回复链攻击的帖子', 'public', 0, 0, 3001, 0, 'visible', ?, ?) RETURNING id`,
      student.userId,
      at,
      at,
    )[0]!.id;
    // The chain as the finding built it (each reply answers the one before), written straight
    // into the table; with a root_id column (this migration) it is what the migration's
    // flattening leaves: every reply in the thread of the top-level comment.
    const hasRoot = sql<{ name: string }>(server, "SELECT name FROM pragma_table_info('comments') WHERE name = 'root_id'").length === 1;
    const insert = (parent: number | null, root: number | null, content: string) =>
      sql<{ id: number }>(
        server,
        hasRoot
          ? `INSERT INTO comments (post_id, user_id, parent_id, root_id, content, is_anonymous, like_count, moderation, created_at) VALUES (?, ?, ?, ?, ?, 0, 0, 'visible', ?) RETURNING id`
          : `INSERT INTO comments (post_id, user_id, parent_id, content, is_anonymous, like_count, moderation, created_at) VALUES (?, ?, ?, ?, 0, 0, 'visible', ?) RETURNING id`,
        ...(hasRoot ? [postId, student.userId, parent, root, content, at] : [postId, student.userId, parent, content, at]),
      )[0]!.id;
    chainRoot = insert(null, null, "链头");
    let parent = chainRoot;
    for (let i = 0; i < 3000; i++) parent = insert(parent, chainRoot, `第${i + 1}层回复`);
    deepest = parent;
  }, 60_000);

  it("the post still opens, fast, with a bounded page, and 展开更多 pages the thread without JavaScript", async () => {
    const page = await call(`/post/${postId}`, { cookie: student.cookie });
    expect(page.status, page.body.slice(0, 300)).toBe(200);
    expect(page.ms).toBeLessThan(1500);
    expect(page.body.length).toBeLessThan(300_000);
    const shown = page.body.match(/id="comment-\d+"/g) ?? [];
    expect(shown.length).toBeLessThanOrEqual(4);
    const more = page.body.match(/href="(\/post\/\d+\?thread=\d+[^"]*)"[^>]*>展开更多</);
    expect(more, "a 展开更多 link").toBeTruthy();
    const next = await call(more![1]!.replace(/&amp;/g, "&"), { cookie: student.cookie });
    expect(next.status).toBe(200);
    const replies = next.body.match(/id="comment-\d+"/g) ?? [];
    expect(replies.length).toBeGreaterThan(4);
    expect(replies.length).toBeLessThanOrEqual(51);
  });

  it("a reply to the deepest reply stays at level 2 of the thread, with its @mention", async () => {
    const answer = await call(`/post/${postId}/comment`, {
      cookie: student.cookie,
      form: { intent: "comment", content: "@深度测试 回复最深的一条", parentId: String(deepest) },
    });
    expect(answer.status, answer.body.slice(0, 200)).toBe(302);
    const [row] = sql<{ parent_id: number; root_id: number }>(server, "SELECT parent_id, root_id FROM comments WHERE post_id = ? ORDER BY id DESC LIMIT 1", postId);
    expect(row).toEqual({ parent_id: deepest, root_id: chainRoot });
    const page = await call(`/post/${postId}`, { cookie: student.cookie });
    expect(page.status).toBe(200);
  });

  it("the author can still delete the post with the whole chain", async () => {
    const answer = await call(`/post/${postId}/delete`, { cookie: student.cookie, form: { intent: "deletePost" } });
    expect(answer.status, answer.body.slice(0, 200)).toBe(302);
    expect(sql<{ n: number }>(server, "SELECT count(*) AS n FROM comments WHERE post_id = ?", postId)[0]!.n).toBe(0);
    expect((await call(`/post/${postId}`, { cookie: student.cookie })).status).toBe(404);
  });
});

describe("findings 3 and 4: the captcha", () => {
  it("showing it stores nothing: 40 login pages and 40 refreshes leave every table as it was", async () => {
    const before = rowCounts();
    for (let i = 0; i < 40; i++) {
      expect((await call("/crLogin", { ip: "198.18.1.1" })).status).toBe(200);
      expect((await call("/api/captcha", { method: "POST", form: {}, ip: "198.18.1.2" })).status).toBe(200);
    }
    expect(rowCounts()).toEqual(before);
  });

  it("its picture is a raster image (WebP), never SVG outlines or text, and new each time", async () => {
    const images: string[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await call("/api/captcha", { method: "POST", form: {}, ip: "198.18.1.3" });
      const { image } = JSON.parse(answer.body) as { id: string; image: string };
      expect(image).toMatch(/^data:image\/webp;base64,/);
      const bytes = Buffer.from(image.replace(/^data:image\/webp;base64,/, ""), "base64");
      expect(bytes.subarray(8, 12).toString("latin1")).toBe("WEBP");
      expect(bytes.toString("latin1")).not.toMatch(/<svg|<path/);
      images.push(image);
    }
    expect(new Set(images).size).toBe(images.length);
  });

  it("the login keeps working without JavaScript: the page's own token and a plain form post", async () => {
    const page = await call("/crLogin", { ip: "198.18.1.4" });
    const token = page.body.match(/name="captchaId" value="([^"]+)"/)?.[1];
    expect(token).toMatch(/^c1\./);
    // The answer is random in production: a wrong one is refused with the product rules' message and a new captcha.
    const refused = await call("/crLogin", { ip: "198.18.1.4", form: { school: "demo", studentId: "20230001", password: "demo1234", captcha: "XXXX", captchaId: token! } });
    expect(refused.status).toBe(401);
    expect(refused.body).toContain("验证码错误，请重新输入");
    expect(refused.body.match(/name="captchaId" value="([^"]+)"/)?.[1]).not.toBe(token);
  });
});

describe("finding 5: lockouts cannot be turned against their victim", () => {
  it("wrong passwords from many addresses never keep the student out; the attacking client waits", async () => {
    for (let i = 0; i < 12; i++) {
      const answer = await studentLogin("20230002", `wrong-${i}`, `198.18.2.${i + 1}`);
      expect(answer.status).toBe(401);
    }
    // One attacker address: after 4 failures the 5th answer is a wait, and then even the right password waits.
    for (let i = 0; i < 5; i++) await studentLogin("20230002", `wrong-again-${i}`, "198.18.2.100");
    const waiting = await studentLogin("20230002", "demo1234", "198.18.2.100");
    expect((await messagesOf(waiting))[0]).toMatch(/登录尝试过于频繁，请 \d+ 秒后再试/);
    expect(cookieOf(waiting, "__session")).toBeUndefined();
    // The student, from a client without failures, with the right password and captcha, gets in.
    const victim = await studentLogin("20230002", "demo1234", "198.18.2.200");
    expect(cookieOf(victim, "__session"), victim.body.slice(0, 300)).toBeTruthy();
  });

  it("guessing across accounts from a campus address does not stop a trusted device of a student behind it", async () => {
    const nat = "198.18.3.1";
    const first = await studentLogin("20230001", "demo1234", nat);
    expect(cookieOf(first, "__session")).toBeTruthy();
    const trusted = cookieOf(first, "__trusted");
    expect(trusted).toBeTruthy();
    for (let i = 0; i < 32; i++) await studentLogin(`2097${String(i).padStart(4, "0")}`, "guess", nat);
    const stranger = await studentLogin("20230001", "demo1234", nat);
    expect(cookieOf(stranger, "__session")).toBeUndefined();
    const student = await studentLogin("20230001", "demo1234", nat, trusted);
    expect(cookieOf(student, "__session"), student.body.slice(0, 300)).toBeTruthy();
  });

  it("/admin/login has the captcha, refuses a post without it, and 5 wrong passwords from 5 addresses do not lock the operator out", async () => {
    const password = "Operator-Pass-1";
    sql(
      server,
      `INSERT INTO operators (username, display_name, password_hash, role, openid, disabled, created_at, last_login_at) VALUES ('victim-op', '值班员', ?, 'operator', NULL, 0, ?, NULL)`,
      await hashPassword(password),
      new Date().toISOString(),
    );
    const page = await call("/admin/login");
    expect(page.body).toMatch(/name="captchaId" value="c1\.[^"]+"/);
    expect(page.body).toMatch(/<img src="data:image\/webp;base64,/);
    const withoutCaptcha = await call("/admin/login", { ip: "198.18.4.1", form: { username: "victim-op", password } });
    expect(withoutCaptcha.status).toBe(400);
    expect(withoutCaptcha.body).toContain("请输入验证码");
    expect(cookieOf(withoutCaptcha, "__operator")).toBeUndefined();

    const operatorLogin = (pass: string, ip: string) =>
      call("/admin/login", { ip, form: { username: "victim-op", password: pass, captcha: CAPTCHA_ANSWER, captchaId: captchaToken(CAPTCHA_ANSWER) } });
    for (let i = 0; i < 5; i++) expect((await operatorLogin(`wrong-${i}`, `198.18.4.${10 + i}`)).body).toContain("用户名或密码错误");
    const operator = await operatorLogin(password, "198.18.4.99");
    expect(operator.status, operator.body.slice(0, 300)).toBe(302);
    expect(cookieOf(operator, "__operator")).toBeTruthy();
  });
});

describe("a client is a network: one IPv6 /64 counts as one client", () => {
  it("80 wrong passwords from 20 addresses of one /64 are throttled, and the right one then waits too; another /64 gets in", async () => {
    const network = "2001:db8:4b:17";
    const answers: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 20; i++) {
        const answer = await studentLogin("20230003", `guess-${round}-${i}`, `${network}:${(i * 4099 + 1).toString(16)}::${round + 1}`);
        answers.push(((await messagesOf(answer))[0] as string | undefined) ?? "");
      }
    }
    // Four free failures for the account from this client, then the waits (each refusal after the
    // free ones doubles the wait): most of the 80 are turned away. Keyed by address, none were.
    const waited = answers.filter((message) => /登录尝试过于频繁/.test(message)).length;
    console.log(`[security] one /64, 20 addresses, 80 wrong passwords: ${waited} answered with the wait`);
    expect(waited).toBeGreaterThanOrEqual(40);
    const right = await studentLogin("20230003", "demo1234", `${network}:ffff::9`);
    expect((await messagesOf(right))[0]).toMatch(/登录尝试过于频繁，请 \d+ 秒后再试/);
    expect(cookieOf(right, "__session")).toBeUndefined();
    const elsewhere = await studentLogin("20230003", "demo1234", "2001:db8:4b:18::1");
    expect(cookieOf(elsewhere, "__session"), elsewhere.body.slice(0, 300)).toBeTruthy();
  });
});

describe("finding 6: the delete-account password check", () => {
  it("is throttled like the login: 40 guesses get at most 5 answers from the password check", async () => {
    const login = await studentLogin("20230001", "demo1234", "198.18.5.1");
    const session = cookieOf(login, "__session")!;
    expect(session).toBeTruthy();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const answer = await call(dataPath("/backpack/settings"), {
        ip: "198.18.5.1",
        cookie: session,
        form: { intent: "delete", password: `guess-${i}` },
      });
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(36);
    // While waiting, even the right password deletes nothing.
    const right = await call(dataPath("/backpack/settings"), { ip: "198.18.5.1", cookie: session, form: { intent: "delete", password: "demo1234" } });
    expect(right.status).toBe(429);
    expect(sql<{ d: string | null }>(server, "SELECT deletion_requested_at AS d FROM users WHERE student_id = '20230001'")[0]!.d).toBeNull();
  });
});

describe("finding 9: unknown student ids", () => {
  it("get exactly the answer of a wrong password", async () => {
    const unknown = await studentLogin("20990077", "demo1234", "198.18.6.1");
    const wrong = await studentLogin("20230001", "not-the-password", "198.18.6.2");
    expect(unknown.status).toBe(wrong.status);
    expect(await messagesOf(unknown)).toEqual(await messagesOf(wrong));
    expect(await messagesOf(unknown)).toEqual(["账号或密码错误，请检查后重试"]);
    expect(unknown.body).not.toContain("账号不存在");
  });
});

/** Requests in flight at once: a bounded flood (the suite runs on a small shared machine). */
const FLOOD_CONCURRENCY = 3;

describe("a bounded flood of captcha requests", () => {
  it("keeps /healthz answering (9 in 10 under 200 ms, or 3× its time before the flood on a loaded host), stores nothing, and answers one address's excess with 429 and Retry-After", async () => {
    const before = rowCounts();
    // The same probe with no flood first: beside the other lane (vitest and Playwright on both
    // cores) a lone /healthz is slower too, and the flood is judged against that, not an idle host.
    const quietTimes: number[] = [];
    for (let i = 0; i < 15; i++) {
      quietTimes.push((await call("/healthz", { ip: "198.18.7.250" })).ms);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    quietTimes.sort((a, b) => a - b);
    const limitMs = Math.max(200, 3 * quietTimes[Math.floor(quietTimes.length * 0.9)]!);
    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    let flooding = true;
    const healthTimes: number[] = [];
    const apiTimes: number[] = [];
    const pageTimes: number[] = [];
    const probe = (async () => {
      while (flooding) {
        const answer = await call("/healthz", { ip: "198.18.7.250" });
        expect(answer.status).toBe(200);
        healthTimes.push(answer.ms);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    const jobs = Array.from({ length: 400 }, (_, i) => async () => {
      const answer = i % 2 ? await call("/api/captcha", { method: "POST", form: {}, ip: "198.18.7.1" }) : await call("/crLogin", { ip: `198.18.7.${2 + (i % 50)}` });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      (i % 2 ? apiTimes : pageTimes).push(answer.ms);
      if (answer.status === 429) retryAfter ??= answer.headers.get("Retry-After");
    });
    const workers = Array.from({ length: FLOOD_CONCURRENCY }, async () => {
      while (jobs.length > 0) await jobs.shift()!();
    });
    await Promise.all(workers);
    flooding = false;
    await probe;
    healthTimes.sort((a, b) => a - b);
    console.log(`[security] captcha flood: ${JSON.stringify(Object.fromEntries(statuses))}; /healthz ${healthTimes.length} probes: ${healthTimes.map((t) => t.toFixed(0)).join(" ")} ms; page median ${pageTimes.sort((a, b) => a - b)[pageTimes.length >> 1]?.toFixed(0)} ms, captcha median ${apiTimes.sort((a, b) => a - b)[apiTimes.length >> 1]?.toFixed(0)} ms`);
    expect(healthTimes.length).toBeGreaterThan(3);
    // 9 in 10 /healthz answers (seen from this client and in the server's own request log) come
    // in under 200 ms while the flood runs. Not every one: on the shared 2-core test machine (load
    // average near 19 while this was written) the process is descheduled now and then, and a
    // lone /healthz with nothing else running showed the same 150–400 ms outliers. A real stall
    // (the old captcha rows, a blocked event loop) shows in the 90th percentile.
    const serverTimes = [...server.output().matchAll(/"route":"\/healthz"[^\n]*?"(?:ms|responseTime)":([\d.]+)/g)].map((match) => Number(match[1]));
    serverTimes.sort((a, b) => a - b);
    console.log(`[security] /healthz server times over ${serverTimes.length}: p90 ${serverTimes[Math.floor(serverTimes.length * 0.9)]?.toFixed(1)} ms, max ${serverTimes.at(-1)?.toFixed(1)} ms`);
    console.log(`[security] /healthz before the flood: p90 ${quietTimes[Math.floor(quietTimes.length * 0.9)]!.toFixed(0)} ms; limit under the flood ${limitMs.toFixed(0)} ms`);
    expect(healthTimes[Math.floor(healthTimes.length * 0.9)]!).toBeLessThan(limitMs);
    if (serverTimes.length > 0) expect(serverTimes[Math.floor(serverTimes.length * 0.9)]!).toBeLessThan(limitMs);
    expect(healthTimes.at(-1)!).toBeLessThan(2000);
    expect(statuses.get(429)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // 503 with Retry-After: the fair share shedding the flooding address's excess while it has
    // requests running (the others' pages still answer).
    expect([...statuses.keys()].every((status) => status === 200 || status === 429 || status === 503)).toBe(true);
    expect(rowCounts()).toEqual(before);
  }, 60_000);
});
