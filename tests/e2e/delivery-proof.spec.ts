import { createOperatorWithCli, phone, shots, signInOperator, withDb } from "./admin-helpers";
import { E2E_BASE_URL } from "./env";
import { expect, test } from "./fixtures";
import { insertPaidOrder } from "./orders-db";

/** A small PNG: an 8×8 picture of a door (any real image will do). */
const PHOTO = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPoitLGihiGlgQAkQ5DwaCooigAAAAASUVORK5CYII=", "base64");

// Proof by photo and a size found wrong at pickup (decision 047), on 390×844 phones without
// JavaScript: every page a full load and every form a plain post. SCREENSHOTS=<dir> keeps light
// and dark shots of the new screens.
test("the rider records a bigger size, the student pays the difference, the rider hands over with a photo (without JavaScript)", async ({ browser }) => {
  test.setTimeout(120_000);
  const riderAccount = createOperatorWithCli("骑手小李", "rider");
  const order = await insertPaidOrder({ riderUsername: riderAccount.username });

  const riderPhone = await phone(browser, { javaScriptEnabled: false });
  const rider = riderPhone.page;
  await signInOperator(rider, riderAccount, /\/admin\/run$/);
  await rider.goto(`/admin/run?slot=${encodeURIComponent(order.slot)}`);
  await expect(rider.getByTestId("run-parcel")).toContainText("6-2-1101");
  // The parcel is bigger than declared: the real size, the difference the server's.
  await rider.getByText("记录实际尺寸").first().click();
  await rider.locator(`select[name="real"]`).selectOption({ label: "大件" });
  await shots(rider, "run-size");
  await rider.getByRole("button", { name: "记录实际尺寸" }).click();
  await expect(rider.getByTestId("run-supplement")).toContainText("待学生补差价");

  // The student pays the supplement on the order page (the simulated provider pays by itself).
  const studentPhone = await phone(browser, { javaScriptEnabled: false, cookie: order.cookie });
  const student = studentPhone.page;
  await student.goto(`/express/orders/${order.number}`);
  const card = student.getByTestId("order-supplement");
  await expect(card).toContainText("骑手取件时发现包裹为大件（下单为小件）");
  await shots(student, "student-supplement");
  await card.getByRole("button", { name: /^补差价/ }).click();
  await expect(student.getByTestId("order-supplement")).toContainText("已补差价", { timeout: 20_000 });
  await shots(student, "student-supplement-paid");
  // The operator's card says it beside the amount.
  const adminPhone = await phone(browser, { javaScriptEnabled: false });
  await signInOperator(adminPhone.page, createOperatorWithCli("值班管理员", "admin"), /\/admin\/orders/);
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
  const riderAccount = createOperatorWithCli("骑手小王", "rider");
  const order = await insertPaidOrder({ riderUsername: riderAccount.username });
  const riderPhone = await phone(browser, { javaScriptEnabled: false });
  await signInOperator(riderPhone.page, riderAccount, /\/admin\/run$/);
  await riderPhone.page.goto(`/admin/run?slot=${encodeURIComponent(order.slot)}`);
  await riderPhone.page.getByText("记录实际尺寸").first().click();
  await riderPhone.page.locator(`select[name="real"]`).selectOption({ label: "大件" });
  await riderPhone.page.getByRole("button", { name: "记录实际尺寸" }).click();
  await expect(riderPhone.page.getByTestId("run-supplement")).toContainText("待学生补差价");

  const studentPhone = await phone(browser, { cookie: order.cookie });
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

/**
 * A succeeded refund of the order's paid supplement on its own trade; returns its amount. Dated
 * yesterday: the provider never saw it, and today's reconciliation (operators-day.spec.ts, running
 * beside this) must match the provider's bill.
 */
function supplementRefunded(orderNumber: string) {
  return withDb((database) => {
    const row = database
      .prepare(`SELECT s.order_id AS orderId, s.amount_fen AS amountFen, s.out_trade_no AS tradeNo FROM order_supplements s JOIN orders o ON o.id = s.order_id WHERE o.order_number = ? AND s.state = 'paid'`)
      .get(orderNumber) as { orderId: number; amountFen: number; tradeNo: string };
    const at = new Date(Date.now() - 86_400_000).toISOString();
    database
      .prepare(
        `INSERT INTO refunds (order_id, out_refund_no, kind, amount_fen, state, reason, refund_id, operator_id, error, decided_at, succeeded_at, created_at, updated_at, out_trade_no)
         VALUES (?, ?, 'delivery_failed', ?, 'succeeded', '驿站已关门', 'sim-refund', NULL, NULL, ?, ?, ?, ?, ?)`,
      )
      .run(row.orderId, `${orderNumber}R9`, row.amountFen, at, at, at, at, row.tradeNo);
    return row.amountFen;
  });
}
