// The operators' e2e helpers: the e2e database, an operator made with the command line, its
// login, and a student with an open session in a page of their own.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import type { Browser, Page } from "@playwright/test";
import { E2E_BASE_URL, E2E_DB_FILE, E2E_SESSION_SECRET, ROOT } from "./env";
import { expect } from "./fixtures";

export function withDb<T>(fn: (database: Database.Database) => T): T {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    return fn(database);
  } finally {
    database.close();
  }
}

/**
 * `npm run admin:create -- <username> --display-name <name> [--role <role>]` with the password on
 * standard input.
 */
export function createOperatorWithCli(displayName: string, role?: "admin" | "rider") {
  const username = `${role ?? "cli"}-${crypto.randomBytes(3).toString("hex")}`;
  const password = `Pw-${crypto.randomBytes(6).toString("hex")}`;
  const output = execFileSync(process.execPath, ["scripts/admin-create.mjs", username, "--display-name", displayName, ...(role ? ["--role", role] : [])], {
    cwd: ROOT,
    input: `${password}\n`,
    env: { ...process.env, DATABASE_URL: `file:${E2E_DB_FILE}`, NODE_ENV: "test", LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  expect(output).toContain(`Created operator ${username}`);
  return { username, password, displayName };
}

export async function loginOperator(page: Page, operator: { username: string; password: string }) {
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.getByLabel("用户名").fill(operator.username);
  await page.getByLabel("密码").fill(operator.password);
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
}

/** Signs an operator in on /admin/login and waits for the page their role lands on. */
export async function signInOperator(page: Page, operator: { username: string; password: string }, lands: RegExp) {
  await page.goto("/admin/login");
  await page.getByLabel("用户名").fill(operator.username);
  await page.getByLabel("密码").fill(operator.password);
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page).toHaveURL(lands);
}

const sessionCookie = createCookie("__session", { secrets: [E2E_SESSION_SECRET], path: "/", httpOnly: true, sameSite: "lax" });

/** A student who also has the messenger identity (orders and pays), with an open session. */
export async function insertCustomer() {
  const tag = crypto.randomBytes(5).toString("hex");
  const iso = new Date().toISOString();
  const { userId, sessionId } = withDb((database) => {
    const user = database
      .prepare(
        `INSERT INTO users (school_code, student_id, real_name, openid, wechat_nickname, wechat_authorized_at, student_bound_at, created_at, updated_at)
         VALUES ('demo', ?, '王小明', ?, '小明', ?, ?, ?, ?) RETURNING id`,
      )
      .get(`e2e${tag}`, `oE2E${tag}${"0".repeat(14)}`, iso, iso, iso, iso) as { id: number };
    const session = crypto.randomBytes(32).toString("base64url");
    database
      .prepare(`INSERT INTO sessions (id, user_id, device_id, platform, created_at, expires_at) VALUES (?, ?, ?, 'web', ?, ?)`)
      .run(session, user.id, `e2e-${tag}`, iso, new Date(Date.now() + 86_400_000).toISOString());
    return { userId: user.id, sessionId: session };
  });
  const cookie = (await sessionCookie.serialize(sessionId)).split(";")[0]!.slice("__session=".length);
  return { userId, cookie };
}

/** A phone of its own (a 390×844 browser context), with or without JavaScript, signed in with `cookie` when given. */
export async function phone(browser: Browser, { javaScriptEnabled = true, cookie }: { javaScriptEnabled?: boolean; cookie?: string } = {}) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", timezoneId: "Asia/Shanghai", javaScriptEnabled });
  if (cookie) await context.addCookies([{ name: "__session", value: cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  return { context, page: await context.newPage() };
}

export async function customerPage(browser: Browser, cookie: string) {
  return phone(browser, { cookie });
}

/** With SCREENSHOTS=<dir>, a light and a dark screenshot of the page for review; otherwise nothing. */
export async function shots(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS;
  if (!dir) return;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${dir}/${name}-${scheme}.png`, fullPage: false });
  }
  await page.emulateMedia({ colorScheme: "light" });
}
