import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import type { Browser, Page } from "@playwright/test";
import { E2E_BASE_URL, E2E_DB_FILE, E2E_SESSION_SECRET, ROOT } from "./env";
import { expect, test } from "./fixtures";

function withDb<T>(fn: (database: Database.Database) => T): T {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    return fn(database);
  } finally {
    database.close();
  }
}

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

const sessionCookie = createCookie("__session", { secrets: [E2E_SESSION_SECRET], path: "/", httpOnly: true, sameSite: "lax" });

/** A student with a paid order of the next slot: one parcel whose label names the phone tail 0000. */
async function insertPaidOrder(riderUsername: string) {
  const tag = crypto.randomBytes(5).toString("hex");
  const at = new Date();
  const iso = at.toISOString();
  // Paid yesterday, and never through the simulated provider: today's reconciliation
  // (operators-day.spec, on the same server) compares the day's payments with that provider's
  // bill, which would miss this one.
  const paid = new Date(at.getTime() - 86_400_000).toISOString();
  const day = new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll("-", "");
  const number = `E${day}${String(crypto.randomInt(1_000_000)).padStart(6, "0")}`;
  // Its own slot, so the two journeys never share a pick list.
  const slot = new Date(Math.ceil(at.getTime() / 60_000) * 60_000 + crypto.randomInt(1, 600) * 60_000 + 3 * 3600_000).toISOString();
  const { sessionId } = withDb((database) => {
    const user = database
      .prepare(
        `INSERT INTO users (school_code, student_id, real_name, openid, wechat_nickname, wechat_authorized_at, student_bound_at, created_at, updated_at)
         VALUES ('demo', ?, '王小明', ?, '小明', ?, ?, ?, ?) RETURNING id`,
      )
      .get(`e2e${tag}`, `oE2E${tag}${"0".repeat(14)}`, iso, iso, iso, iso) as { id: number };
    const session = crypto.randomBytes(32).toString("base64url");
    database
      .prepare(`INSERT INTO sessions (id, user_id, device_id, platform, created_at, expires_at) VALUES (?, ?, ?, 'web', ?, ?)`)
      .run(session, user.id, `e2e-${tag}`, iso, new Date(at.getTime() + 86_400_000).toISOString());
    const order = database
      .prepare(
        `INSERT INTO orders (order_number, user_id, campus_code, campus_name, recipient_name, recipient_phone, recipient_dorm, recipient_room,
           delivery_address, pickup_codes, package_counts, parcel_count, original_fen, amount_fen, status, payment_status,
           estimated_delivery_at, expires_at, paid_at, created_at, updated_at)
         VALUES (?, ?, 'jinpenling', '金盆岭校区', '王小明', '13800001234', '西苑2栋', '512', '金盆岭校区 西苑2栋512', ?, '{"pocket":0,"small":1}', 1, 200, 200,
           'paid', 'paid', ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        number,
        user.id,
        JSON.stringify([{ company: "圆通速递", pickupCode: "6-2-1101", trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code", deadline: "今天18:00前", phoneTail: "0000" }]),
        slot,
        iso,
        paid,
        paid,
        iso,
      ) as { id: number };
    database
      .prepare(`INSERT INTO payments (order_id, provider, out_trade_no, amount_fen, state, success_time, created_at, updated_at) VALUES (?, 'simulated', ?, 200, 'paid', ?, ?, ?)`)
      .run(order.id, number, paid, paid, paid);
    // Assigned to the rider (the assignment journey is riders.spec's).
    const rider = database.prepare(`SELECT id FROM operators WHERE username = ?`).get(riderUsername) as { id: number };
    database.prepare(`UPDATE orders SET rider_id = ?, status = 'assigned', handover_code = '4821' WHERE id = ?`).run(rider.id, order.id);
    return { sessionId: session };
  });
  const cookie = (await sessionCookie.serialize(sessionId)).split(";")[0]!.slice("__session=".length);
  return { number, slot, cookie };
}

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
  const order = await insertPaidOrder(riderAccount.username);

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
  for (const open of [riderPhone, studentPhone]) await open.context.close();
});
