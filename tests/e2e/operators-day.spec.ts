// The operator's day on a 390×844 phone: a delivery that failed at the station (驿站已关门) is
// recorded from the order's panel without JavaScript and ends in a refund the student sees; the
// day's reconciliation matches the simulated provider's trade bill, itemised, with its CSV.
import { E2E_BASE_URL } from "./env";
import { createOperatorWithCli, customerPage, insertCustomer, loginOperator, withDb } from "./admin-helpers";
import { expect, test } from "./fixtures";
import crypto from "node:crypto";
import type { Page } from "@playwright/test";

/** An order of the customer, paid through the simulated provider (its 1.5 s, then the poll). */
async function paidOrder(page: Page, userId: number, amountFen: number) {
  const at = new Date();
  const day = new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll("-", "");
  const number = `E${day}${String(crypto.randomInt(1_000_000)).padStart(6, "0")}`;
  const iso = at.toISOString();
  withDb((database) =>
    database
      .prepare(
        `INSERT INTO orders (order_number, user_id, campus_code, campus_name, recipient_name, recipient_phone, recipient_dorm, recipient_room,
           delivery_address, pickup_codes, package_counts, parcel_count, original_fen, amount_fen, status, payment_status,
           estimated_delivery_at, expires_at, created_at, updated_at)
         VALUES (?, ?, 'jinpenling', '金盆岭校区', '王小明', '13700005555', '西苑2栋', '512', '金盆岭校区 西苑2栋512', ?, '{"small":1}', 1, ?, ?, 'created', 'pending', ?, ?, ?, ?)`,
      )
      .run(
        number,
        userId,
        JSON.stringify([{ company: "圆通速递", pickupCode: `F-${crypto.randomInt(1000, 9999)}`, trackingNumber: null, stationName: "东门菜鸟驿站", pickupType: "code" }]),
        amountFen,
        amountFen,
        new Date(at.getTime() + 3 * 3600_000).toISOString(),
        new Date(at.getTime() + 86_400_000).toISOString(),
        iso,
        iso,
      ),
  );
  const created = await page.request.post("/api/pay/wechat/create-payment", { data: { order_id: number } });
  expect((await created.json()).data.simulated).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get(`/api/express/orders/${number}/payment-status`)).json()).data.paid, { timeout: 10_000, intervals: [500] })
    .toBe(true);
  return number;
}

test("a failed delivery ends in a refund (without JavaScript)", async ({ browser }) => {
  test.slow(); // the CLI, the simulated provider's 1.5 s and two pages
  const customer = await insertCustomer();
  const student = await customerPage(browser, customer.cookie);
  const number = await paidOrder(student.page, customer.userId, 560);
  withDb((database) => database.prepare(`UPDATE orders SET status = 'delivering' WHERE order_number = ?`).run(number));

  const operator = createOperatorWithCli("配送员小吴");
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", timezoneId: "Asia/Shanghai", javaScriptEnabled: false });
  const page = await context.newPage();
  await loginOperator(page, operator);
  await page.goto(`/admin/orders?order=${number}`);
  const dialog = page.getByRole("dialog", { name: "订单操作" });
  await dialog.getByRole("link", { name: "配送失败" }).click();
  const sheet = page.getByRole("dialog", { name: "登记配送失败" });
  await expect(sheet).toBeVisible();
  // 其他原因 without words is refused beside the form, the choice kept.
  await sheet.getByLabel("其他原因").check();
  await sheet.getByRole("button", { name: "确认并退款" }).click();
  // The message stands beside the reason's field.
  await expect(page.getByRole("dialog", { name: "登记配送失败" })).toContainText("请选择或填写配送失败的原因");
  await page.screenshot({ path: test.info().outputPath("fail-panel.png") });
  await page.getByRole("dialog", { name: "登记配送失败" }).getByLabel("驿站已关门").check();
  await page.getByRole("dialog", { name: "登记配送失败" }).getByRole("button", { name: "确认并退款" }).click();
  await expect(page.getByRole("status")).toHaveText("已登记配送失败，未送达的快递已退款");
  await context.close();

  await student.page.goto(`/express/orders/${number}`);
  await expect(student.page.getByText("退款成功").first()).toBeVisible();
  await expect(student.page.getByText("驿站已关门").first()).toBeVisible();
  await student.page.screenshot({ path: test.info().outputPath("student-refunded.png") });
  await student.context.close();
});

test("the day's reconciliation matches the provider's trade bill, itemised, with its CSV", async ({ page, browser }) => {
  test.slow();
  const customer = await insertCustomer();
  const student = await customerPage(browser, customer.cookie);
  const number = await paidOrder(student.page, customer.userId, 730);
  await student.context.close();
  const operator = createOperatorWithCli("财务小陈");
  await loginOperator(page, operator);
  await page.getByRole("navigation", { name: "管理导航" }).getByRole("link", { name: "对账" }).click();
  await expect(page).toHaveURL(/\/admin\/reconciliation$/);
  await expect(page.getByTestId("reconciliation-status")).toContainText("与支付平台账单一致");
  await expect(page.getByText(number).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("reconciliation.png"), fullPage: true });
  const csv = await page.request.get(`${E2E_BASE_URL}/admin/reconciliation.csv`);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(await csv.text()).toContain(number);
});
