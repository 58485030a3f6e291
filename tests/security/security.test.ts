// `npm run test:security` (and a stage of `npm test`): bad input and attack against the built
// app in production mode. See issue 11 "Bad input and attack" and tests/security/server.ts.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APP_ENCRYPTION_KEY,
  CAPTCHA_ANSWER,
  ROOT,
  SESSION_SECRET,
  captchaHash,
  insertOrder,
  insertStudent,
  looksLikeStackTrace,
  openDb,
  startServer,
  type Server,
  type Student,
} from "./server";

const DEMO_STUDENT = "20230001";
const DEMO_PASSWORD = "demo1234";
const SECRETS = [DEMO_PASSWORD, SESSION_SECRET, APP_ENCRYPTION_KEY];

let server: Server;
let origin: string;
let fuzzStudent: Student;
let owner: Student;
let other: Student;
let ownerOrder: string;
/** Every body the suite read back, for the secrets check. */
const seen: { url: string; body: string }[] = [];

beforeAll(async () => {
  server = await startServer();
  origin = server.base;
  fuzzStudent = await insertStudent(server, "模糊测试");
  owner = await insertStudent(server, "订单主人");
  other = await insertStudent(server, "另一位同学");
  ownerOrder = insertOrder(server, owner.userId);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

type Options = { method?: string; cookie?: string; body?: string | Buffer | FormData; contentType?: string; origin?: string | null; headers?: Record<string, string> };
type Answer = { status: number; headers: Headers; body: string };

/**
 * One request on a fresh connection (node:http, no keep-alive): a server that answers before
 * reading a large body and closes must not spill its reset onto the next request.
 */
async function request(pathname: string, options: Options = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.Cookie = options.cookie;
  let body: Buffer | undefined;
  if (options.body instanceof FormData) {
    const encoded = new Response(options.body);
    headers["Content-Type"] = encoded.headers.get("content-type")!;
    body = Buffer.from(await encoded.arrayBuffer());
  } else if (options.body !== undefined) body = Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
  if (options.contentType) headers["Content-Type"] = options.contentType;
  if (body) headers["Content-Length"] = String(body.length);
  const method = options.method ?? "GET";
  const sentOrigin = options.origin === undefined ? (method !== "GET" ? origin : null) : options.origin;
  if (sentOrigin) headers.Origin = sentOrigin;
  const answer = await new Promise<Answer>((resolve, reject) => {
    const req = http.request(server.base + pathname, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, item);
          else if (value !== undefined) responseHeaders.set(name, value);
        }
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    req.on("error", reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer from ${pathname} within 15 s`)));
    req.end(body);
  });
  if (answer.body.length < 2_000_000) seen.push({ url: pathname, body: answer.body });
  return answer;
}

// --- The action routes, from app/routes ------------------------------------------------------

type ActionRoute = { file: string; id: string; url: string; fields: string[] };

function splitRouteName(name: string) {
  const parts: string[] = [];
  let current = "";
  let escaped = false;
  for (const char of name) {
    if (char === "[") escaped = true;
    else if (char === "]") escaped = false;
    else if (char === "." && !escaped) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function routeUrl(file: string, params: Record<string, string>) {
  const name = file.replace(/\.(tsx|ts)$/, "");
  const segments: string[] = [];
  for (const raw of splitRouteName(name)) {
    if (raw === "_index" || (raw.startsWith("_") && raw.length > 1)) continue;
    const segment = raw.endsWith("_") ? raw.slice(0, -1) : raw;
    if (segment === "$") segments.push("anything");
    else if (segment.startsWith("$")) segments.push(params[segment.slice(1)] ?? "1");
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

function actionRoutes(params: Record<string, string>): ActionRoute[] {
  const dir = path.join(ROOT, "app/routes");
  const routes: ActionRoute[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!/\.(tsx|ts)$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
    const source = fs.readFileSync(path.join(dir, file), "utf8");
    if (!/export\s+(async\s+)?(function|const|let)\s+action\b|export\s*\{[^}]*\baction\b/.test(source)) continue;
    const fields = new Set<string>();
    for (const match of source.matchAll(/name="([A-Za-z_][\w.]*)"|\.get(?:All)?\(\s*"([A-Za-z_][\w.]*)"\s*\)|z\.object\(\{([^}]*)\}/g)) {
      if (match[1]) fields.add(match[1]);
      if (match[2]) fields.add(match[2]);
      if (match[3]) for (const key of match[3].matchAll(/([A-Za-z_]\w*)\s*:/g)) fields.add(key[1]);
    }
    routes.push({ file, id: `routes/${file.replace(/\.(tsx|ts)$/, "")}`, url: routeUrl(file, params), fields: [...fields].slice(0, 20) });
  }
  return routes;
}

const COMMON_FIELDS = ["intent", "id", "content", "title", "nickname", "orderId", "order_number", "reason", "redirectTo", "comment"];
const MEGABYTE = "拒".repeat(350_000); // ~1 MB of UTF-8
const CONTROL = "\u0000\u0001\u0007\b\u001b[31m\u007f\u202e\ud800";
const SQL = "' OR 1=1; DROP TABLE users; --";
const HTML = `"><script>alert(1)</script><img src=x onerror=alert(1)>`;

type Body = { name: string; body?: string | Buffer | FormData; contentType?: string };

function form(entries: [string, string][]) {
  return new URLSearchParams(entries).toString();
}

function malformedBodies(fields: string[]): Body[] {
  const names = [...new Set([...fields, ...COMMON_FIELDS])];
  const every = (value: string) => form(names.map((name) => [name, value]));
  const formType = "application/x-www-form-urlencoded";
  const json = "application/json";
  const multipart = (value: string) => {
    const data = new FormData();
    for (const name of names) data.append(name, value);
    data.append("file", new Blob([Buffer.from("not an image \u0000\u00ff")], { type: "image/png" }), "x.png");
    return data;
  };
  return [
    { name: "no body" },
    { name: "empty form", body: "", contentType: formType },
    { name: "empty JSON object", body: "{}", contentType: json },
    { name: "JSON to a form route", body: JSON.stringify(Object.fromEntries(names.map((name) => [name, 1]))), contentType: json },
    { name: "JSON array", body: "[1,2,3]", contentType: json },
    { name: "JSON null", body: "null", contentType: json },
    { name: "broken JSON", body: '{"a":', contentType: json },
    { name: "JSON with wrong types", body: JSON.stringify(Object.fromEntries(names.map((name) => [name, { $ne: null, nested: [true] }]))), contentType: json },
    { name: "JSON __proto__", body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}', contentType: json },
    { name: "text/plain", body: "intent=delete&id=1", contentType: "text/plain" },
    { name: "XML", body: "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>", contentType: "application/xml" },
    { name: "multipart without boundary", body: "--x\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--x--", contentType: "multipart/form-data" },
    { name: "broken multipart", body: "--zz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated", contentType: "multipart/form-data; boundary=zz" },
    { name: "multipart with a fake image", body: multipart("1") },
    { name: "octet-stream", body: Buffer.from([0, 255, 1, 254, 0x89, 0x50, 0x4e, 0x47]), contentType: "application/octet-stream" },
    { name: "fields missing, garbage field", body: form([["zzz", "1"]]), contentType: formType },
    { name: "empty strings", body: every(""), contentType: formType },
    { name: "negative numbers", body: every("-1"), contentType: formType },
    { name: "huge numbers", body: every("1e309"), contentType: formType },
    { name: "SQL", body: every(SQL), contentType: formType },
    { name: "HTML", body: every(HTML), contentType: formType },
    { name: "control characters", body: every(CONTROL), contentType: formType },
    { name: "path traversal", body: every("../../../../etc/passwd"), contentType: formType },
    { name: "repeated fields", body: form(names.flatMap((name) => [[name, "1"], [name, "2"], [name, "x"]] as [string, string][])), contentType: formType },
    { name: "bracket fields", body: form(names.flatMap((name) => [[`${name}[0]`, "1"], [`${name}.x`, "2"]] as [string, string][])), contentType: formType },
    { name: "emoji and RTL", body: every("😀\u202e🎉".repeat(50)), contentType: formType },
    { name: "1 MB string in every field", body: form(names.slice(0, 3).map((name) => [name, MEGABYTE])), contentType: formType },
    { name: "1 MB JSON string", body: JSON.stringify({ content: MEGABYTE, text: MEGABYTE.slice(0, 1000) }), contentType: json },
    { name: "1 MB raw body", body: MEGABYTE, contentType: formType },
    { name: "form body labelled JSON", body: every("1"), contentType: json },
    { name: "JSON body labelled form", body: '{"intent":"delete"}', contentType: formType },
  ];
}

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * Findings not fixed yet, each printed as a warning on every run (issue 11): keep this list
 * short and remove an entry with its fix.
 */
const KNOWN_FAILURES: { url: string; body: string; why: string }[] = [
  // (empty: /market/assist's Location overflow was fixed in 9863a45)
];

/** Deliberate "not configured here" answers (a JSON message, no crash): the pay provider and the messenger's JS-SDK. */
const UNAVAILABLE_ALLOWED = new Set(["api.pay.wechat.create-payment.tsx", "api.wechat.jsapi-config.tsx"]);

describe("headers in production", () => {
  it("CSP with frame-ancestors, nosniff, Referrer-Policy, no X-Powered-By", async () => {
    for (const url of ["/circle", "/market", "/crLogin", "/blog/article/1", "/no-such-page"]) {
      const response = await request(url, { cookie: fuzzStudent.cookie });
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, url).toMatch(/frame-ancestors 'none'/);
      expect(csp, url).toMatch(/script-src 'self' 'nonce-/);
      expect(response.headers.get("x-content-type-options"), url).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), url).toBeTruthy();
      expect(response.headers.get("x-powered-by"), url).toBeNull();
    }
  });

  it("a real /crLogin login sets a HttpOnly, SameSite=Lax, Secure session cookie", async () => {
    const loginData = await request(`/crLogin?_data=${encodeURIComponent("routes/crLogin")}`);
    expect(loginData.status).toBe(200);
    const captchaId = (JSON.parse(loginData.body) as { captcha: { id: string } }).captcha.id;
    // Production draws a random answer; the suite knows the HMAC key, so it sets the answer.
    const database = openDb(server);
    try {
      database.prepare("UPDATE captchas SET answer_hash = ? WHERE id = ?").run(captchaHash(CAPTCHA_ANSWER), captchaId);
    } finally {
      database.close();
    }
    const response = await request("/crLogin", {
      method: "POST",
      contentType: "application/x-www-form-urlencoded",
      body: form([
        ["school", "demo"],
        ["studentId", DEMO_STUDENT],
        ["password", DEMO_PASSWORD],
        ["captcha", CAPTCHA_ANSWER],
        ["captchaId", captchaId],
        ["redirectTo", "/schedule"],
      ]),
    });
    expect(response.status, response.body.slice(0, 300)).toBe(302);
    const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("__session="));
    expect(session).toBeTruthy();
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
    expect(session).toMatch(/;\s*Secure/i);
    // The logged-in pages and their loader data carry neither the password nor a secret.
    const cookie = session!.split(";")[0]!;
    for (const url of ["/schedule", "/backpack", "/backpack/settings", `/schedule?_data=${encodeURIComponent("routes/schedule._index")}`, `/backpack/settings?_data=${encodeURIComponent("routes/backpack.settings")}`, `/?_data=root`]) {
      const page = await request(url, { cookie });
      expect(page.status, url).toBeLessThan(500);
    }
  });
});

describe("malformed bodies to every action route", () => {
  it("never answer a 5xx or a stack trace, anonymous or as a student", async () => {
    const routes = actionRoutes({ orderId: ownerOrder, id: "1" });
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let sent = 0;
    const timeByRoute = new Map<string, number>();
    const jobs = routes.flatMap((route) =>
      malformedBodies(route.fields).flatMap((body, index) => [
        { route, body, cookie: undefined as string | undefined, index },
        { route, body, cookie: fuzzStudent.cookie, index },
      ]),
    );
    await pool(jobs, 4, async ({ route, body, cookie, index }) => {
      const who = cookie ? "student" : "anonymous";
      let response: Awaited<ReturnType<typeof request>>;
      const began = Date.now();
      try {
        // Every other body as a data request (?_data=, what the app's fetchers send), the rest as a
        // document POST (a form without JavaScript), so both ways of answering are tried.
        const url = index % 2 === 1 ? `${route.url}?_data=${encodeURIComponent(route.id)}` : route.url;
        response = await request(url, { method: "POST", cookie, body: body.body, contentType: body.contentType });
      } catch (error) {
        // A server may refuse a 1 MB body by answering early and closing the connection.
        const code = (error as NodeJS.ErrnoException).code;
        if (body.name.startsWith("1 MB") && (code === "ECONNRESET" || code === "EPIPE")) return;
        const known = KNOWN_FAILURES.find((item) => item.url === route.url && item.body === body.name);
        if (known) {
          console.warn(`[security] KNOWN ${route.url} (${who}, ${body.name}): ${String(error)} — ${known.why}`);
          return;
        }
        failures.push(`${route.url} (${who}, ${body.name}): no answer (${String(error)})`);
        return;
      }
      sent++;
      timeByRoute.set(route.url, (timeByRoute.get(route.url) ?? 0) + Date.now() - began);
      const allowed = UNAVAILABLE_ALLOWED.has(route.file) && [502, 503].includes(response.status);
      if (response.status >= 500 && !allowed) failures.push(`${route.url} (${who}, ${body.name}): ${response.status} ${response.body.slice(0, 200)}`);
      if (looksLikeStackTrace(response.body)) failures.push(`${route.url} (${who}, ${body.name}): stack trace in body`);
    });
    const slowest = [...timeByRoute].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([url, ms]) => `${url} ${ms} ms`);
    console.log(`[security] ${sent} malformed requests to ${routes.length} action routes; slowest: ${slowest.join(", ")}`);
    expect(failures).toEqual([]);
    // Nothing stored: no post or comment carries a payload.
    const database = openDb(server);
    try {
      const stored = database
        .prepare("SELECT (SELECT count(*) FROM posts WHERE user_id = ?) + (SELECT count(*) FROM comments WHERE user_id = ?) AS n")
        .get(fuzzStudent.userId, fuzzStudent.userId) as { n: number };
      expect(stored.n).toBe(0);
    } finally {
      database.close();
    }
  }, 300_000);
});

describe("cross-origin POSTs", () => {
  it("every action route refuses Origin: http://evil.example with 403", async () => {
    const routes = actionRoutes({ orderId: ownerOrder, id: "1" }).filter((route) => route.url !== "/api/pay/wechat/notify");
    const wrong: string[] = [];
    for (const route of routes) {
      for (const cookie of [undefined, fuzzStudent.cookie]) {
        const response = await request(route.url, {
          method: "POST",
          cookie,
          origin: "http://evil.example",
          body: "intent=delete",
          contentType: "application/x-www-form-urlencoded",
        });
        if (response.status !== 403) wrong.push(`${route.url}: ${response.status}`);
      }
      const fetchSite = await request(route.url, { method: "POST", cookie: fuzzStudent.cookie, origin: null, headers: { "Sec-Fetch-Site": "cross-site" }, body: "" });
      if (fetchSite.status !== 403) wrong.push(`${route.url} (Sec-Fetch-Site: cross-site): ${fetchSite.status}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});

describe("access", () => {
  const adminUrls = () =>
    fs
      .readdirSync(path.join(ROOT, "app/routes"))
      .filter((file) => /^admin\./.test(file) && !/^admin\.(login|logout)\./.test(file) && !/\.test\./.test(file))
      .map((file) => ({ url: routeUrl(file, { id: "1", orderId: ownerOrder }), id: `routes/${file.replace(/\.(tsx|ts)$/, "")}` }));

  it("every admin URL sends anonymous visitors and students to the operator login, never data", async () => {
    const urls = adminUrls();
    expect(urls.map((item) => item.url)).toContain("/admin/orders");
    for (const { url, id: routeId } of urls) {
      for (const cookie of [undefined, fuzzStudent.cookie]) {
        const page = await request(url, { cookie });
        expect(page.status, `${url} ${cookie ? "student" : "anonymous"}`).toBe(302);
        expect(page.headers.get("location"), url).toMatch(/^\/admin\/login/);
        const data = await request(`${url}?_data=${encodeURIComponent(routeId)}`, { cookie });
        // A page's data request is redirected to the login; a resource route (the CSV export)
        // answers a non-page request 403. Either way: no data.
        expect([204, 302, 403], `${url}?_data`).toContain(data.status);
        if (data.status !== 403) {
          expect(data.headers.get("x-remix-redirect") ?? data.headers.get("location"), `${url}?_data`).toMatch(/^\/admin\/login/);
          expect(data.body).toBe("");
        } else {
          expect(data.body, `${url}?_data`).not.toMatch(/订单号|E\d{14}/);
        }
      }
    }
  });

  it("orders, the backpack and the schedule send anonymous visitors to the login", async () => {
    const backpack = fs
      .readdirSync(path.join(ROOT, "app/routes"))
      .filter((file) => /^backpack\./.test(file))
      .map((file) => routeUrl(file, { id: "1" }));
    for (const url of ["/orders", `/express/orders/${ownerOrder}`, "/schedule", ...backpack]) {
      const response = await request(url);
      expect(response.status, url).toBe(302);
      expect(response.headers.get("location"), url).toMatch(/^\/crLogin/);
      expect(response.body).not.toContain("秘密收件人");
    }
  });

  it("another student's order number is a 404, the owner's a page", async () => {
    const mine = await request(`/express/orders/${ownerOrder}`, { cookie: owner.cookie });
    expect(mine.status).toBe(200);
    expect(mine.body).toContain(ownerOrder);
    const theirs = await request(`/express/orders/${ownerOrder}`, { cookie: other.cookie });
    expect(theirs.status).toBe(404);
    expect(theirs.body).not.toContain("秘密收件人");
    const data = await request(`/express/orders/${ownerOrder}?_data=${encodeURIComponent("routes/express.orders.$orderId")}`, { cookie: other.cookie });
    expect(data.status).toBe(404);
    expect(data.body).not.toContain("秘密收件人");
    const unknown = await request("/express/orders/NOPE000000000", { cookie: other.cookie });
    expect(unknown.status).toBe(404);
  });
});

describe("XSS", () => {
  it("a post, a comment and a nickname with script payloads render as text", async () => {
    const nickname = `<img src=x onerror=alert('nick')>`;
    const author = await insertStudent(server, nickname);
    const postPayload = `<script>alert('post')</script>`;
    const titlePayload = `<img src=x onerror=alert('title')>`;
    const commentPayload = `<script>alert('comment')</script><img src=x onerror=alert('c')>`;
    const database = openDb(server);
    let postId: number;
    try {
      const category = database.prepare("SELECT id FROM forum_categories ORDER BY id LIMIT 1").get() as { id: number };
      const iso = new Date().toISOString();
      postId = (
        database
          .prepare("INSERT INTO posts (user_id, category_id, title, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
          .get(author.userId, category.id, titlePayload, postPayload, iso, iso) as { id: number }
      ).id;
      database.prepare("INSERT INTO comments (post_id, user_id, content, created_at) VALUES (?, ?, ?, ?)").run(postId, author.userId, commentPayload, iso);
      database.prepare("UPDATE posts SET comment_count = 1 WHERE id = ?").run(postId);
    } finally {
      database.close();
    }
    const raw = [postPayload, titlePayload, commentPayload, nickname, "<script>alert(", "<img src=x"];
    for (const url of ["/circle", `/post/${postId}`, "/backpack/posts"]) {
      const page = await request(url, { cookie: url === "/backpack/posts" ? author.cookie : fuzzStudent.cookie });
      expect(page.status, url).toBe(200);
      for (const payload of raw) expect(page.body, `${url} carries ${payload} raw`).not.toContain(payload);
    }
    const post = await request(`/post/${postId}`, { cookie: fuzzStudent.cookie });
    expect(post.body).toContain("&lt;script&gt;alert(&#x27;post&#x27;)&lt;/script&gt;");
    expect(post.body).toContain("&lt;img src=x onerror=alert(&#x27;nick&#x27;)&gt;");
  });
});

describe("login brute force", () => {
  it("500 attempts from one address: the account locks after 5 wrong passwords, the address after 20 failures", async () => {
    const database = openDb(server);
    const attempt = async (studentId: string, password: string) => {
      const captchaId = `brute-${Math.random().toString(36).slice(2)}`;
      database
        .prepare("INSERT INTO captchas (id, answer_hash, image, created_at, expires_at, used_at) VALUES (?, ?, '', ?, ?, NULL)")
        .run(captchaId, captchaHash(CAPTCHA_ANSWER), new Date().toISOString(), new Date(Date.now() + 600_000).toISOString());
      const response = await request(`/crLogin?_data=${encodeURIComponent("routes/crLogin")}`, {
        method: "POST",
        contentType: "application/x-www-form-urlencoded",
        body: form([
          ["school", "demo"],
          ["studentId", studentId],
          ["password", password],
          ["captcha", CAPTCHA_ANSWER],
          ["captchaId", captchaId],
        ]),
      });
      return response;
    };
    try {
      // Start from a clean slate: the malformed-body run posted to /crLogin from this address too.
      database.prepare("DELETE FROM login_attempts").run();
      const statuses = new Map<number, number>();
      let sessions = 0;
      const started = Date.now();
      const tally = async (studentId: string, password: string, i: number) => {
        const response = await attempt(studentId, password);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))) sessions++;
        expect(response.status, `attempt ${i}`).toBeLessThan(500);
      };
      // 100 at one account, its right password on every 10th try: once locked, even that is refused.
      for (let i = 0; i < 100; i++) await tally("20230002", i >= 5 && i % 10 === 0 ? DEMO_PASSWORD : `wrong-${i}`, i);
      const byAccount = database
        .prepare("SELECT count(*) AS n FROM login_attempts WHERE scope = 'account' AND key = 'demo:20230002' AND outcome = 'wrong_password'")
        .get() as { n: number };
      expect(byAccount.n).toBe(5);
      // 400 more, one account after another: the address is stopped after 20 failures.
      for (let i = 100; i < 500; i++) await tally(`2099${String(i).padStart(4, "0")}`, `wrong-${i}`, i);
      console.log(`[security] 500 login attempts in ${Date.now() - started} ms: ${JSON.stringify(Object.fromEntries(statuses))}`);
      expect(sessions).toBe(0);
      // The school was asked at most IP_FAILURE_LIMIT times: the rest never got past the limits.
      const byIp = database.prepare("SELECT count(*) AS n FROM login_attempts WHERE scope = 'ip'").get() as { n: number };
      expect(byIp.n).toBeLessThanOrEqual(20);
      // And now the right password of another student from this address is refused too.
      const limited = await attempt(DEMO_STUDENT, DEMO_PASSWORD);
      expect(limited.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
    } finally {
      database.close();
    }
  }, 60_000);
});

describe("secrets", () => {
  it("no page, loader data or log line carries the password, the session secret or the encryption key", async () => {
    // An error page and the loader data of the open pages too.
    for (const url of ["/no-such-page", "/post/999999", `/circle?_data=${encodeURIComponent("routes/circle._index")}`, "/healthz", "/crLogin"]) {
      await request(url, { cookie: fuzzStudent.cookie });
    }
    const leaks: string[] = [];
    for (const { url, body } of seen) {
      for (const secret of SECRETS) if (body.includes(secret)) leaks.push(`${url} carries ${secret.slice(0, 4)}…`);
    }
    const log = server.output();
    expect(log.length).toBeGreaterThan(1000);
    for (const secret of SECRETS) if (log.includes(secret)) leaks.push(`the server log carries ${secret.slice(0, 4)}…`);
    expect(leaks).toEqual([]);
    expect(log).not.toMatch(/\n\s+at [^\n]*:\d+:\d+/);
  });
});
