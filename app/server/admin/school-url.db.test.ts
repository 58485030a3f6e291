// A school's base URL is called by the server on every student login, so it must never point
// inside our own network. The admin form refuses such an address (in any spelling, or behind a
// name) beside the field, keeping what was typed; a school stored with one before this rule
// existed is never called, and the student sees only that the school cannot be reached.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { adminReference } from "~/lib/messages/adminReference";
import { action as loginAction, loader as loginLoader } from "~/routes/crLogin";
import { action as schoolsAction } from "~/routes/admin.schools";
import { captchaToken } from "~/server/auth/captcha.server";
import { createOperator, loginOperator } from "~/server/auth/operator.server";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { call, cookieValue, request } from "../../../tests/setup/helpers";

const e = adminReference.errors;
const SAME_ORIGIN = { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" };

/** A loopback HTTP server standing for anything inside: it counts who reached it. */
let inside: http.Server;
let insidePort = 0;
const insideHits: string[] = [];

beforeAll(async () => {
  process.env.CAPTCHA_FIXED_VALUE = "AB23";
  resetConfig();
  inside = http.createServer((req, res) => {
    insideHits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "Content-Type": "text/html" }).end("<h5>用户登录</h5>");
  });
  await new Promise<void>((resolve) => inside.listen(0, "127.0.0.1", resolve));
  insidePort = (inside.address() as AddressInfo).port;
});

afterAll(async () => {
  inside.closeAllConnections();
  await new Promise<void>((resolve) => inside.close(() => resolve()));
  delete process.env.CAPTCHA_FIXED_VALUE;
  resetConfig();
});

let operators = 0;
async function adminCookie() {
  operators += 1;
  const username = `url-admin-${process.pid % 10000}-${operators}`;
  await createOperator({ username, password: "right-password-1", displayName: "管理员小周", role: "admin" });
  const login = await loginOperator(username, "right-password-1", "10.9.1.2", { request: request("/admin/login"), captcha: "AB23", captchaId: captchaToken("AB23") });
  if (!login.ok) throw new Error(`operator login refused: ${login.reason}`);
  return cookieValue(login.setCookie);
}

function postSchools(fields: Record<string, string>, cookie: string) {
  return call(
    schoolsAction as never,
    request("/admin/schools", {
      method: "POST",
      cookie,
      body: new URLSearchParams(fields),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...SAME_ORIGIN },
    }),
  );
}

type Reply = { formId: string; reply: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } };

describe("the admin school form", () => {
  it.each([
    "http://127.0.0.1/jwglxt",
    "http://2130706433/jwglxt",
    "http://0x7f000001/jwglxt",
    "http://017700000001/jwglxt",
    "http://[::1]:8080/",
    "http://[::ffff:127.0.0.1]/",
    "http://169.254.169.254/latest/meta-data",
    "http://[fd00::1]/",
    "http://0.0.0.0:3000/",
    "http://10.2.3.4/jsxsd",
    "http://localhost:3000/jwglxt",
  ])("refuses %s beside the field, keeps what was typed and stores nothing", async (baseUrl) => {
    const admin = await adminCookie();
    const response = await postSchools({ intent: "create", code: "inside", name: "内网大学", system: "zfsoft", baseUrl, enabled: "on" }, admin);
    expect(response.status).toBe(400);
    const { formId, reply } = (await response.json()) as Reply;
    expect(formId).toBe("create");
    expect(reply.error?.baseUrl).toEqual([e.baseUrlForbidden]);
    expect(reply.initialValue?.baseUrl).toBe(baseUrl);
    expect(await db().selectFrom("schools").select("code").where("code", "=", "inside").executeTakeFirst()).toBeUndefined();
  });

  it("refuses the same when an existing school is changed, and keeps its stored address", async () => {
    const admin = await adminCookie();
    const created = await postSchools({ intent: "create", code: "outside", name: "外网大学", system: "qiangzhi", baseUrl: "https://jw.example.edu.cn", enabled: "on" }, admin);
    expect(created.status).toBe(302);
    const changed = await postSchools({ intent: "update", code: "outside", name: "外网大学", system: "qiangzhi", baseUrl: "http://2852039166/", enabled: "on" }, admin);
    expect(changed.status).toBe(400);
    expect(((await changed.json()) as Reply).reply.error?.baseUrl).toEqual([e.baseUrlForbidden]);
    expect(await db().selectFrom("schools").select("base_url").where("code", "=", "outside").executeTakeFirst()).toEqual({ base_url: "https://jw.example.edu.cn" });
  });
});

describe("a student login with a school stored inside", () => {
  it.each(["127.0.0.1", "2130706433", "localhost"])("never calls %s, and says only that the school is unreachable", async (host) => {
    const code = `old-${host.replace(/\W/g, "")}`.slice(0, 30);
    await db()
      .insertInto("schools")
      .values({ code, name: "旧配置大学", system: "zfsoft", base_url: `http://${host}:${insidePort}/jwglxt`, sort_order: 90, enabled: 1 })
      .execute();
    const page = (await loginLoader({ request: request("/crLogin"), params: {}, context: {} })) as { captcha: { id: string } };
    const body = new URLSearchParams({ school: code, studentId: "2023000123", password: "whatever-1", captcha: "AB23", captchaId: page.captcha.id });
    const response = (await loginAction({
      request: request("/crLogin", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      params: {},
      context: { clientIp: "10.7.0.1" },
    })) as Response;
    const text = JSON.stringify(await response.json());
    expect(text).toContain(msg.login.unreachable);
    expect(text).not.toContain(String(insidePort));
    expect(insideHits).toEqual([]);
  });
});
