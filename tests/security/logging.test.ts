// The request log (logs carry no openids): a whole journey of one
// student with a messenger identity, a real name, a nickname and a phone number (browsing, an
// address, a post with an image, a comment, the coupon calls that name the openid in the path and
// the body, an order to that name and phone, an operator searching for them, a login attempt with
// a password, an OAuth return with a code) on the production build at LOG_LEVEL=debug; then
// every line the server printed is searched for each of those values and for the cookies, the
// Authorization header and the password. The request lines name who asked by kind and internal
// id, carry a request id (the proxy's when sane, echoed), and lines logged inside a request carry
// the same id.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOperator, insertStudent, makeMessengerUser, sql, startServer, type Server, type Student } from "./server";

const REAL_NAME = "隐私测试甲乙";
const NICKNAME = "匿踪昵称丙";
const PHONE = "13912345678";
const PASSWORD = "journey-Pa55word-7c1e";
const AUTH_TOKEN = "journey-bearer-token-94d2b7";
const OAUTH_CODE = "journey-oauth-code-0a6f3e";
const PROXY_REQUEST_ID = "proxy-trace-journey-0001";

let server: Server;
let student: Student;
let openid: string;
let operatorCookie: string;
const answers: { url: string; status: number; requestId: string | null }[] = [];

beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: "debug" });
  student = await insertStudent(server, NICKNAME);
  openid = makeMessengerUser(server, student.userId);
  sql(server, "UPDATE users SET real_name = ?, nickname = ?, phone = ?, wechat_nickname = ?, campus_code = 'jinpenling' WHERE id = ?", REAL_NAME, NICKNAME, PHONE, NICKNAME, student.userId);
  operatorCookie = (await insertOperator(server)).cookie;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

async function go(url: string, init: { method?: string; cookie?: string; body?: BodyInit; type?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "User-Agent": "Mozilla/5.0 (journey) MicroMessenger/8.0", ...(init.headers ?? {}) };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.type) headers["Content-Type"] = init.type;
  if (init.method && init.method !== "GET") headers.Origin = server.base;
  const response = await fetch(server.base + url, { method: init.method ?? "GET", headers, body: init.body, redirect: "manual" });
  const text = await response.text();
  answers.push({ url, status: response.status, requestId: response.headers.get("X-Request-Id") });
  return { status: response.status, text, headers: response.headers };
}

const urlencoded = (values: Record<string, string>) => new URLSearchParams(values).toString();

function lines() {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => ({ raw: line, json: JSON.parse(line) as Record<string, unknown> }));
}

describe("a whole journey leaves no person in the log", () => {
  it("runs the journey", async () => {
    const cookie = student.cookie;
    for (const url of ["/backpack", "/circle", "/market", "/orders", "/backpack/settings", "/market/address/new", "/backpack/inbox"]) {
      expect((await go(url, { cookie })).status, url).toBeLessThan(500);
    }
    // The page's fetchers post single fetch's data requests to the route that owns the intent.
    const address = await go("/market/address/new.data", {
      method: "POST",
      cookie,
      type: "application/x-www-form-urlencoded",
      body: urlencoded({ intent: "save-address", name: REAL_NAME, phone: PHONE, campus: "jinpenling", building: "西苑1栋", room: "302", isDefault: "on" }),
    });
    expect(address.status, address.text.slice(0, 200)).toBeLessThan(400);
    expect(sql(server, "SELECT name FROM addresses WHERE user_id = ?", student.userId)).toEqual([{ name: REAL_NAME }]);

    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#cc3366" } }).png().toBuffer();
    const form = new FormData();
    form.append("categoryId", "1");
    form.append("content", `${NICKNAME}的帖子，电话${PHONE}`);
    form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), `${REAL_NAME}.png`);
    const published = await go("/publish-post", { method: "POST", cookie, body: form });
    expect(published.status).toBe(302);
    const [post] = sql<{ id: number }>(server, "SELECT id FROM posts WHERE user_id = ?", student.userId);
    const comment = await go(`/post/${post!.id}.data`, {
      method: "POST",
      cookie,
      type: "application/x-www-form-urlencoded",
      body: urlencoded({ intent: "comment", content: `我是${REAL_NAME}` }),
    });
    expect(comment.status).toBeLessThan(500);
    expect((await go(`/post/${post!.id}`, { cookie })).status).toBe(200);

    expect((await go(`/api/coupon/assist/records/openid/${openid}`, { cookie })).status).toBeLessThan(500);
    for (const url of ["/api/coupon/express-pickup/user-coupons", "/coupon/express-pickup/check-new-user"]) {
      expect((await go(url, { method: "POST", cookie, type: "application/json", body: JSON.stringify({ openid }) })).status, url).toBeLessThan(500);
    }
    const order = await go("/api/express/order_create", {
      method: "POST",
      cookie,
      type: "application/json",
      body: JSON.stringify({
        campus_code: "jinpenling",
        recipient_name: REAL_NAME,
        recipient_phone: PHONE,
        recipient_dorm: "西苑1栋",
        recipient_room: "302",
        expressCheckoutList: [{ pickupCode: "8-2041", company: "顺丰速运", stationName: "菜鸟驿站" }],
        expressPackageCounts: { pocket: 1, small: 0, medium: 0, large: 0 },
      }),
    });
    expect(order.status, order.text.slice(0, 300)).toBe(200);
    const number = JSON.parse(order.text).data.order_id as string;
    expect((await go(`/express/orders/${number}`, { cookie })).status).toBe(200);

    for (const query of [PHONE, REAL_NAME, number]) {
      expect((await go(`/admin/orders?q=${encodeURIComponent(query)}`, { cookie: operatorCookie })).status).toBe(200);
    }
    expect((await go(`/admin/orders/${number}`, { cookie: operatorCookie })).status).toBeLessThan(500);

    expect((await go("/circle", { cookie, headers: { Authorization: `Bearer ${AUTH_TOKEN}`, "X-Request-Id": PROXY_REQUEST_ID } })).status).toBe(200);
    expect((await go("/circle", { cookie, headers: { "X-Request-Id": "not a sane id; rm -rf" } })).status).toBe(200);
    expect((await go(`/api/wechat/callback?code=${OAUTH_CODE}&state=journey`, { cookie })).status).toBeLessThan(500);
    const login = await go("/crLogin", {
      method: "POST",
      type: "application/x-www-form-urlencoded",
      body: urlencoded({ school: "demo", studentId: "20230001", password: PASSWORD, captcha: "ZZZZ", captchaId: "none", redirectTo: "" }),
    });
    expect(login.status).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 500));
  });

  it("no line carries the openid, the name, the nickname, the phone, a cookie, the Authorization header, the password or the OAuth code", () => {
    const all = lines();
    expect(all.length).toBeGreaterThan(30);
    const sessionValue = decodeURIComponent(student.cookie.split("=").slice(1).join("="));
    const operatorValue = decodeURIComponent(operatorCookie.split("=").slice(1).join("="));
    const secrets: Record<string, string> = {
      openid,
      name: REAL_NAME,
      nickname: NICKNAME,
      phone: PHONE,
      "session cookie": sessionValue.slice(0, 24),
      "operator cookie": operatorValue.slice(0, 24),
      authorization: AUTH_TOKEN,
      password: PASSWORD,
      "oauth code": OAUTH_CODE,
    };
    const leaks: string[] = [];
    for (const { raw } of all) {
      for (const [what, value] of Object.entries(secrets)) if (raw.includes(value)) leaks.push(`${what}: ${raw.slice(0, 300)}`);
    }
    expect(leaks).toEqual([]);
  });

  it("each request line has the route, status, duration, request id and who asked (kind and internal id)", () => {
    const requests = lines().filter(({ json }) => json.event === "request");
    const mine = requests.filter(({ json }) => json.user === "student");
    expect(mine.length).toBeGreaterThan(15);
    for (const { json } of mine) {
      expect(json.userId).toBe(student.userId);
      expect(typeof json.route).toBe("string");
      expect(typeof json.status).toBe("number");
      expect(typeof json.ms).toBe("number");
      expect(String(json.reqId)).toMatch(/^[A-Za-z0-9._:-]{6,128}$/);
    }
    expect(requests.some(({ json }) => json.user === "operator" && typeof json.userId === "number" && json.route === "/admin/orders")).toBe(true);
    const records = requests.find(({ json }) => String(json.route).startsWith("/api/coupon/assist/records/openid"));
    expect(records?.json).toMatchObject({ route: "/api/coupon/assist/records/openid/:openid", user: "student" });
    expect(requests.some(({ json }) => json.route === "/post/:id")).toBe(true);
    // The route's template only: paths carry tokens and identifiers.
    expect(requests.every(({ json }) => json.path === undefined)).toBe(true);
  });

  it("the proxy's X-Request-Id is honoured and echoed when sane, replaced when not; lines inside a request carry its id", () => {
    const proxied = answers.find((answer) => answer.requestId === PROXY_REQUEST_ID);
    expect(proxied?.url).toBe("/circle");
    expect(lines().some(({ json }) => json.event === "request" && json.reqId === PROXY_REQUEST_ID && json.route === "/circle")).toBe(true);
    const replaced = answers.filter((answer) => answer.url === "/circle").at(-1)!;
    expect(replaced.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answers.every((answer) => answer.requestId)).toBe(true);

    const requestIds = new Set(lines().filter(({ json }) => json.event === "request").map(({ json }) => json.reqId));
    const inside = lines().filter(({ json }) => json.event !== "request" && json.reqId);
    expect(inside.length).toBeGreaterThan(0);
    for (const { json, raw } of inside) expect(requestIds.has(json.reqId), raw).toBe(true);
  });

  it("without METRICS_TOKEN or METRICS_PORT there is no metrics endpoint at all", async () => {
    const answer = await fetch(`${server.base}/metrics`, { headers: { Authorization: "Bearer anything-at-all-0000" } });
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toMatch(/campus_|process_cpu/);
  });
});
