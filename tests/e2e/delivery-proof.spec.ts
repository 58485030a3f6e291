import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { E2E_BASE_URL, E2E_DB_FILE, ROOT } from "./env";
import { expect, test } from "./fixtures";
import { insertPaidOrder } from "./orders-db";

function createOperatorAccount(role: "admin" | "rider") {
  const username = `${role}-${crypto.randomBytes(3).toString("hex")}`;
  const password = `Pw-${crypto.randomBytes(6).toString("hex")}`;
  execFileSync(process.execPath, ["scripts/admin-create.mjs", username, "--display-name", role === "admin" ? "管理员小周" : "骑手小李", "--role", role], {
    cwd: ROOT,
    input: `${password}\n`,
    env: { ...process.env, DATABASE_URL: `file:${E2E_DB_FILE}`, NODE_ENV: "test", LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  return { username, password };
}

async function login(page: Page, account: { username: string; password: string }, lands: RegExp) {
  await page.goto("/admin/login");
  await page.getByLabel("用户名").fill(account.username);
  await page.getByLabel("密码").fill(account.password);
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page).toHaveURL(lands);
}

/** A student with a paid order of the next slot: one parcel whose label names the phone tail 0000. */
async function phone(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", timezoneId: "Asia/Shanghai", javaScriptEnabled });
  return { context, page: await context.newPage() };
}

async function shots(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS;
  if (!dir) return;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${dir}/${name}-${scheme}.png`, fullPage: false });
  }
  await page.emulateMedia({ colorScheme: "light" });
}


/** A small PNG: an 8×8 picture of a door (any real image will do). */
const PHOTO = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPoitLGihiGlgQAkQ5DwaCooigAAAAASUVORK5CYII=", "base64");

// Proof by photo and a size found wrong at pickup (decision 047), on 390×844 phones without
// JavaScript: every page a full load and every form a plain post. SCREENSHOTS=<dir> keeps light
// and dark shots of the new screens.
test("the rider records a bigger size, the student pays the difference, the rider hands over with a photo (without JavaScript)", async ({ browser }) => {
  test.setTimeout(120_000);
  const riderAccount = createOperatorAccount("rider");
  const order = await insertPaidOrder({ riderUsername: riderAccount.username });

  const riderPhone = await phone(browser, false);
  const rider = riderPhone.page;
  await login(rider, riderAccount, /\/admin\/run$/);
  await rider.goto(`/admin/run?slot=${encodeURIComponent(order.slot)}`);
  await expect(rider.getByTestId("run-parcel")).toContainText("6-2-1101");
  // The parcel is bigger than declared: the real size, the difference the server's.
  await rider.getByText("记录实际尺寸").first().click();
  await rider.locator(`select[name="real"]`).selectOption({ label: "大件" });
  await shots(rider, "run-size");
  await rider.getByRole("button", { name: "记录实际尺寸" }).click();
  await expect(rider.getByTestId("run-supplement")).toContainText("待学生补差价");

  // The student pays the supplement on the order page (the simulated provider pays by itself).
  const studentPhone = await phone(browser, false);
  await studentPhone.context.addCookies([{ name: "__session", value: order.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  const student = studentPhone.page;
  await student.goto(`/express/orders/${order.number}`);
  const card = student.getByTestId("order-supplement");
  await expect(card).toContainText("骑手取件时发现包裹为大件（下单为小件）");
  await shots(student, "student-supplement");
  await card.getByRole("button", { name: /^补差价/ }).click();
  await expect(student.getByTestId("order-supplement")).toContainText("已补差价", { timeout: 20_000 });
  await shots(student, "student-supplement-paid");
  // The operator's card says it beside the amount.
  const adminPhone = await phone(browser, false);
  await login(adminPhone.page, createOperatorAccount("admin"), /\/admin\/orders/);
  await adminPhone.page.goto(`/admin/orders?q=${order.number}`);
  await expect(adminPhone.page.getByTestId(`admin-order-${order.number}`)).toContainText("补差价 ¥");
  await expect(adminPhone.page.getByTestId(`admin-order-${order.number}`)).toContainText("（小件→大件，已支付）");

  // The rider sees it paid, picks the parcel and hands over with a photo.
  await rider.reload();
  await expect(rider.getByTestId("run-supplement")).toContainText("学生已补差价");
  await rider.getByRole("button", { name: "标记已取到 6-2-1101" }).click();
  await expect(rider.getByTestId("run-drop")).toContainText("王小明");
  await rider.getByLabel("或者 送达照片").setInputFiles({ name: "door.png", mimeType: "image/png", buffer: PHOTO });
  await shots(rider, "run-photo");
  await rider.getByRole("button", { name: "拍照送达" }).click();
  await expect(rider.getByRole("status")).toContainText(`${order.number} 已送达，订单已完成`);

  // The student sees the photo on the order page; a stranger's session gets nothing.
  await student.goto(`/express/orders/${order.number}`);
  const photo = student.getByTestId("delivery-photo").locator("img");
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await shots(student, "student-photo");
  const stranger = await browser.newContext();
  const refused = await stranger.request.get(`${E2E_BASE_URL}/express/orders/${order.number}/photo`, { maxRedirects: 0 });
  expect(refused.status()).not.toBe(200);
  await stranger.close();
  for (const open of [riderPhone, studentPhone, adminPhone]) await open.context.close();
});

// The page's JavaScript pays the difference through the pay flow (the messenger's bridge with a
// real merchant; here the simulated provider pays by itself), landing on the page as paid.
test("with JavaScript the student pays the difference through the page's pay flow", async ({ browser }) => {
  test.setTimeout(90_000);
  const riderAccount = createOperatorAccount("rider");
  const order = await insertPaidOrder({ riderUsername: riderAccount.username });
  const riderPhone = await phone(browser, false);
  await login(riderPhone.page, riderAccount, /\/admin\/run$/);
  await riderPhone.page.goto(`/admin/run?slot=${encodeURIComponent(order.slot)}`);
  await riderPhone.page.getByText("记录实际尺寸").first().click();
  await riderPhone.page.locator(`select[name="real"]`).selectOption({ label: "大件" });
  await riderPhone.page.getByRole("button", { name: "记录实际尺寸" }).click();
  await expect(riderPhone.page.getByTestId("run-supplement")).toContainText("待学生补差价");

  const studentPhone = await phone(browser, true);
  await studentPhone.context.addCookies([{ name: "__session", value: order.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await studentPhone.page.goto(`/express/orders/${order.number}`);
  await studentPhone.page.waitForLoadState("networkidle"); // hydrated before 补差价
  const asked = studentPhone.page.waitForRequest((request) => request.url().endsWith(`/express/orders/${order.number}/supplement`) && request.headers()["accept"] === "application/json");
  await studentPhone.page.getByTestId("order-supplement").getByRole("button", { name: /^补差价/ }).click();
  await asked;
  await expect(studentPhone.page.getByTestId("order-supplement")).toContainText("已补差价", { timeout: 20_000 });

  // Its parcel is lost on the way and the supplement is given back on its own trade (the money
  // path is proved in supplements.db.test.ts; here the refund is written as it ends): the page says so.
  const paidFen = supplementRefunded(order.number);
  await studentPhone.page.goto(`/express/orders/${order.number}`);
  await expect(studentPhone.page.getByTestId("supplement-refund")).toHaveText(`补差价 ¥${(paidFen / 100).toFixed(2)} 已退回`);
  await expect(studentPhone.page.getByTestId("order-supplement")).not.toContainText("骑手会继续配送");
  await shots(studentPhone.page, "student-supplement-refunded");
  for (const open of [riderPhone, studentPhone]) await open.context.close();
});

/** A succeeded refund of the order's paid supplement on its own trade; returns its amount. */
function supplementRefunded(orderNumber: string) {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    const row = database
      .prepare(`SELECT s.order_id AS orderId, s.amount_fen AS amountFen, s.out_trade_no AS tradeNo FROM order_supplements s JOIN orders o ON o.id = s.order_id WHERE o.order_number = ? AND s.state = 'paid'`)
      .get(orderNumber) as { orderId: number; amountFen: number; tradeNo: string };
    const at = new Date().toISOString();
    database
      .prepare(
        `INSERT INTO refunds (order_id, out_refund_no, kind, amount_fen, state, reason, refund_id, operator_id, error, decided_at, succeeded_at, created_at, updated_at, out_trade_no)
         VALUES (?, ?, 'delivery_failed', ?, 'succeeded', '驿站已关门', 'sim-refund', NULL, NULL, ?, ?, ?, ?, ?)`,
      )
      .run(row.orderId, `${orderNumber}R9`, row.amountFen, at, at, at, at, row.tradeNo);
    return row.amountFen;
  } finally {
    database.close();
  }
}
