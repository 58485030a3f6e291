// Operator login on a 390×844 phone: the admin pages show nothing without an operator session,
// a student's session does not count, the generic error keeps the username, a right password
// lands on the orders, and logout ends the session.
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { hashPassword } from "../../app/server/auth/password.server";
import { E2E_DB_FILE } from "./env";
import { expect, test } from "./fixtures";

/** Inserts an operator straight into the e2e database (what `npm run admin:create` leaves behind). */
async function insertOperator(displayName = "配送员小周") {
  const username = `e2e-op-${crypto.randomBytes(4).toString("hex")}`;
  const password = `Pw-${crypto.randomBytes(6).toString("hex")}`;
  const passwordHash = await hashPassword(password);
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    database
      .prepare(
        `INSERT INTO operators (username, display_name, password_hash, role, openid, disabled, created_at, last_login_at)
         VALUES (?, ?, ?, 'operator', NULL, 0, ?, NULL)`,
      )
      .run(username, displayName, passwordHash, new Date().toISOString());
  } finally {
    database.close();
  }
  return { username, password, displayName };
}

test("/admin/orders without an operator session goes to the operator login", async ({ page }) => {
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole("heading", { name: "运营登录" })).toBeVisible();
  await expect(page.getByText("暂无订单")).toHaveCount(0);
});

test("a wrong password shows the generic error and keeps the username, not the password", async ({ page }) => {
  const operator = await insertOperator();
  await page.goto("/admin/login");
  await page.getByLabel("用户名").fill(operator.username);
  await page.getByLabel("密码").fill("definitely-wrong");
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录" }).click();

  await expect(page.getByRole("alert")).toHaveText("用户名或密码错误");
  await expect(page.getByLabel("用户名")).toHaveValue(operator.username);
  await expect(page.getByLabel("密码")).toHaveValue("");
  await expect(page).toHaveURL(/\/admin\/login/);
});

// Without JavaScript the login form is a form post (app/server/auth/operator.db.test.ts: the generic
// error, the username kept, the password dropped); the admin area's no-JS journey is admin-orders.spec.ts.

test("the right password lands on /admin/orders with the operator's name; logout ends the session", async ({ page }) => {
  const operator = await insertOperator("配送员阿杰");
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel("用户名").fill(operator.username);
  await page.getByLabel("密码").fill(operator.password);
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录" }).click();

  await expect(page).toHaveURL(/\/admin\/orders$/);
  await expect(page.getByRole("heading", { name: "订单管理" })).toBeVisible();
  await expect(page.getByTestId("operator-name")).toHaveText("配送员阿杰");
  await expect(page.getByRole("heading", { name: "今日概况" })).toBeVisible();

  // Settings: the name and whether a messenger account is linked.
  await page.getByRole("link", { name: "账号设置" }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByTestId("messenger-status")).toHaveText("未绑定微信");
  await expect(page.getByRole("button", { name: "绑定我的微信" })).toBeVisible();

  await page.getByRole("button", { name: "退出登录" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test("the login returns to the admin page that was asked for", async ({ page }) => {
  const operator = await insertOperator();
  await page.goto("/admin/settings");
  await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fsettings$/);
  await page.getByLabel("用户名").fill(operator.username);
  await page.getByLabel("密码").fill(operator.password);
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
});

test("a logged-in student opening /admin/orders still gets the operator login", async ({ page, loginAsStudent }) => {
  await loginAsStudent();
  await page.goto("/backpack");
  await expect(page).toHaveURL(/\/backpack$/); // the student session works
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByText("暂无订单")).toHaveCount(0);
});
