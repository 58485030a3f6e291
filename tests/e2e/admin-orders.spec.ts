// The operators' order management on a 390×844 phone: an operator created with the command line
// logs in, filters by campus and tab, searches by a pickup code, moves an order along the
// courier steps and completes it, and the customer's order page reaches 100%; a refund request
// of a paid order (paid through the simulated provider) is approved and ends 'refund succeeded';
// the same panel works without JavaScript.
import crypto from "node:crypto";
import { createOperatorWithCli, customerPage, insertCustomer, loginOperator, withDb } from "./admin-helpers";
import { expect, test } from "./fixtures";

type OrderInput = { userId?: number | null; status: string; payment: string; campus: "jinpenling" | "yuntang"; name: string; phone: string | null; code: string; amountFen?: number };

/** An order row as the orders issue writes it (number 'E' + today + 6 random digits). */
function insertOrder(input: OrderInput) {
  const at = new Date();
  const day = new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll("-", "");
  const number = `E${day}${String(crypto.randomInt(1_000_000)).padStart(6, "0")}`;
  const iso = at.toISOString();
  const campusName = input.campus === "yuntang" ? "云塘校区" : "金盆岭校区";
  const dorm = input.campus === "yuntang" ? "3栋" : "西苑2栋";
  const amount = input.amountFen ?? 320;
  withDb((database) =>
    database
      .prepare(
        `INSERT INTO orders (order_number, user_id, campus_code, campus_name, recipient_name, recipient_phone, recipient_dorm, recipient_room,
           delivery_address, pickup_codes, package_counts, parcel_count, remark, original_fen, amount_fen, status, payment_status,
           estimated_delivery_at, expires_at, paid_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, '512', ?, ?, '{"pocket":1,"small":1}', 2, '放宿舍门口', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        number,
        input.userId ?? null,
        input.campus,
        campusName,
        input.name,
        input.phone,
        dorm,
        `${campusName} ${dorm}512`,
        JSON.stringify([{ company: "圆通速递", pickupCode: input.code, trackingNumber: null, stationName: "东门菜鸟驿站", pickupType: "code" }]),
        amount,
        amount,
        input.status,
        input.payment,
        new Date(at.getTime() + 3 * 3600_000).toISOString(),
        new Date(at.getTime() + 86_400_000).toISOString(),
        input.payment === "paid" ? iso : null,
        iso,
        iso,
      ),
  );
  return number;
}

test("an operator from the CLI filters, searches and completes an order; the customer's order reaches 100%", async ({ page, browser }) => {
  // Starts the CLI (tsx) and drives two pages: more than the default 30 s on a busy 2-core machine.
  test.slow();
  const customer = await insertCustomer();
  const code = `B-${crypto.randomInt(10)}-${crypto.randomInt(1000, 9999)}`;
  const mine = insertOrder({ userId: customer.userId, status: "paid", payment: "paid", campus: "yuntang", name: "王小明", phone: "13700001111", code });
  const otherCampus = insertOrder({ status: "paid", payment: "paid", campus: "jinpenling", name: "李雷", phone: "13700002222", code: "C-1-1000" });
  const unpaid = insertOrder({ status: "created", payment: "pending", campus: "yuntang", name: "韩梅梅", phone: null, code: "C-1-2000" });
  const operator = createOperatorWithCli("配送员小周");

  await loginOperator(page, operator);
  await expect(page.getByTestId("operator-name")).toHaveText("配送员小周");
  await expect(page.getByRole("heading", { name: "今日概况" })).toBeVisible();
  await expect(page.getByTestId(`admin-order-${mine}`)).toBeVisible();

  // The campus filter (submits itself with JavaScript).
  await page.getByRole("combobox", { name: "校区" }).selectOption("yuntang");
  await expect(page).toHaveURL(/campus=yuntang/);
  await expect(page.getByTestId(`admin-order-${mine}`)).toBeVisible();
  await expect(page.getByTestId(`admin-order-${unpaid}`)).toBeVisible();
  await expect(page.getByTestId(`admin-order-${otherCampus}`)).toHaveCount(0);

  // The 'in progress' tab keeps the campus; the unpaid order is under 'pending payment'.
  await page.getByRole("navigation", { name: "订单状态" }).getByRole("link", { name: /进行中/ }).click();
  await expect(page).toHaveURL(/status=in_progress/);
  await expect(page).toHaveURL(/campus=yuntang/);
  await expect(page.getByTestId(`admin-order-${mine}`)).toBeVisible();
  await expect(page.getByTestId(`admin-order-${unpaid}`)).toHaveCount(0);

  // Search by the pickup code.
  await page.getByRole("searchbox", { name: "搜索订单" }).fill(code);
  await page.getByRole("button", { name: "搜索", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(code)}`));
  await expect(page.locator("[data-testid^=admin-order-]")).toHaveCount(1);
  await expect(page.getByTestId("count-in_progress")).toHaveText("1");
  const card = page.getByTestId(`admin-order-${mine}`);
  await expect(card).toContainText("王小明");
  await expect(card).toContainText(code);
  await expect(card).toContainText("口袋件×1");
  await page.screenshot({ path: test.info().outputPath("admin-orders-search.png") });

  // The 'more actions' panel: the courier steps move the customer's progress bar, then complete.
  await card.getByRole("link", { name: `更多操作 ${mine}` }).click();
  const dialog = page.getByRole("dialog", { name: "订单操作" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("link", { name: /拨打客户电话/ })).toHaveAttribute("href", "tel:13700001111");
  await page.screenshot({ path: test.info().outputPath("admin-orders-panel.png") });
  await dialog.getByRole("button", { name: "接单" }).click();
  await expect(page.getByRole("status")).toHaveText("已接单");

  const customerView = await customerPage(browser, customer.cookie);
  await customerView.page.goto(`/express/orders/${mine}`);
  await expect(customerView.page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "50");

  await page.getByTestId(`admin-order-${mine}`).getByRole("link", { name: `更多操作 ${mine}` }).click();
  await dialog.getByRole("button", { name: "完成订单" }).click();
  await expect(page.getByRole("status")).toHaveText("订单已完成");
  await expect(dialog).toHaveCount(0);
  // It left 'in progress'; under 'completed' it shows the final label.
  await expect(page.getByText("没有找到匹配的订单")).toBeVisible();
  await page.getByRole("navigation", { name: "订单状态" }).getByRole("link", { name: /已完成/ }).click();
  await expect(page.getByTestId(`admin-order-${mine}`).getByTestId("order-status")).toHaveText("订单已完成");

  await customerView.page.reload();
  await expect(customerView.page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await expect(customerView.page.getByText("订单已完成").first()).toBeVisible();
  await customerView.page.screenshot({ path: test.info().outputPath("customer-order-completed.png") });
  await customerView.context.close();

  // The customer's DELIVERY_COMPLETED message was queued once, with the operator as the courier.
  const messages = withDb((database) =>
    database.prepare(`SELECT data, link FROM outbox_messages WHERE template_key = 'DELIVERY_COMPLETED' AND user_id = ?`).all(customer.userId),
  ) as { data: string; link: string }[];
  expect(messages).toHaveLength(1);
  expect(JSON.parse(messages[0]!.data)).toMatchObject({ orderNumber: mine, courier: "配送员小周" });
  expect(messages[0]!.link).toBe("/market");

  // Every step is in the audit log.
  await page.getByRole("link", { name: "操作日志" }).click();
  await expect(page.getByTestId("audit-row").filter({ hasText: mine })).toHaveCount(2);
  // This order's rows, newest first (other tests write to the same log in parallel).
  await expect(page.getByTestId("audit-row").filter({ hasText: mine }).first()).toContainText("完成订单");
  await expect(page.getByTestId("audit-row").filter({ hasText: mine }).first()).toContainText("配送员小周");
});

test("a refund request of an order paid through the simulated provider is approved and ends 'refund succeeded'", async ({ page, browser }) => {
  test.slow(); // the CLI, the simulated provider's 1.5 s and two pages
  const customer = await insertCustomer();
  const number = insertOrder({ userId: customer.userId, status: "created", payment: "pending", campus: "jinpenling", name: "王小明", phone: "13700003333", code: "D-4-4444", amountFen: 450 });

  // The customer pays: the simulated provider pays 1.5 s after the pay params; the poll confirms.
  const customerView = await customerPage(browser, customer.cookie);
  const created = await customerView.page.request.post("/api/pay/wechat/create-payment", { data: { order_id: number } });
  expect((await created.json()).data.simulated).toBe(true);
  await expect
    .poll(async () => (await (await customerView.page.request.get(`/api/express/orders/${number}/payment-status`)).json()).data.paid, { timeout: 10_000, intervals: [500] })
    .toBe(true);

  // Delivered, then the customer asks for a refund (what the order page's refund dialog records).
  const at = new Date().toISOString();
  withDb((database) => {
    const order = database.prepare(`SELECT id FROM orders WHERE order_number = ?`).get(number) as { id: number };
    database.prepare(`UPDATE orders SET status = 'delivering', refund_state = 'requested', refund_reason = ? WHERE id = ?`).run("送错宿舍了", order.id);
    database
      .prepare(
        `INSERT INTO refunds (order_id, out_refund_no, kind, amount_fen, state, reason, created_at, updated_at)
         VALUES (?, ?, 'request', 450, 'requested', '送错宿舍了', ?, ?)`,
      )
      .run(order.id, `${number}R1`, at, at);
  });

  const operator = createOperatorWithCli("值班员阿杰");
  await loginOperator(page, operator);
  await page.getByRole("navigation", { name: "管理导航" }).getByRole("link", { name: /退款申请/ }).click();
  await expect(page).toHaveURL(/\/admin\/refunds$/);
  const request = page.getByTestId(`refund-${number}`);
  await expect(request).toContainText("¥4.50");
  await expect(request).toContainText("送错宿舍了");
  await expect(request).toContainText("配送中");
  await page.screenshot({ path: test.info().outputPath("admin-refunds.png") });

  // The reject sheet is conform's form: a blank reason is refused beside the field, what was
  // typed stays; closed and opened again, the sheet carries no stale message.
  await request.getByRole("link", { name: `拒绝 ${number}` }).click();
  const reason = page.locator("#reject-reason");
  await reason.fill("   ");
  await page.getByRole("button", { name: "确认拒绝" }).click();
  await expect(page.locator("#reject-reason-error")).toHaveText("请填写拒绝原因");
  await expect(reason).toHaveAttribute("aria-invalid", "true");
  await expect(reason).toHaveValue("   ");
  await page.locator("#reject").getByRole("link", { name: "返回" }).click();
  await request.getByRole("link", { name: `拒绝 ${number}` }).click();
  await expect(page.locator("#reject-reason")).toBeVisible();
  await expect(page.locator("#reject-reason-error")).toHaveCount(0);
  await page.locator("#reject").getByRole("link", { name: "返回" }).click();

  await request.getByRole("button", { name: `同意退款 ${number}` }).click();
  await expect(page.getByRole("status")).toHaveText("已同意退款，退款成功");
  await expect(page.getByTestId(`refund-${number}`)).toHaveCount(0);

  await customerView.page.goto(`/express/orders/${number}`);
  await expect(customerView.page.getByText("退款成功").first()).toBeVisible();
  await customerView.context.close();
  const row = withDb((database) => database.prepare(`SELECT status, payment_status, refund_state FROM orders WHERE order_number = ?`).get(number));
  expect(row).toEqual({ status: "refunded", payment_status: "refunded", refund_state: "refunded" });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the panel opens by its link; cancel asks first and closes an unpaid order; a refused action shows the product rules' message", async ({ page }) => {
    test.slow(); // the CLI
    const unpaid = insertOrder({ status: "created", payment: "pending", campus: "jinpenling", name: "赵六", phone: null, code: "E-5-5555" });
    const operator = createOperatorWithCli("配送员小林");
    await loginOperator(page, operator);
    await page.getByRole("searchbox", { name: "搜索订单" }).fill(unpaid);
    await page.getByRole("button", { name: "搜索", exact: true }).click();
    await page.getByRole("link", { name: `更多操作 ${unpaid}` }).click();
    const dialog = page.getByRole("dialog", { name: "订单操作" });
    await expect(dialog.getByTestId("no-phone")).toHaveText("客户未提供电话");
    await expect(dialog.getByRole("button", { name: "完成订单" })).toHaveCount(0);
    await dialog.getByRole("link", { name: "取消订单" }).click();
    const confirm = page.getByRole("dialog", { name: "确认取消订单" });
    await expect(confirm).toContainText("订单尚未支付，取消后将直接关闭。");
    await confirm.getByLabel("原因（选填，客户可见）").fill("重复下单");
    await confirm.getByRole("button", { name: "确认取消" }).click();
    await expect(page.getByRole("status")).toHaveText("订单已取消");
    await expect(page.getByTestId(`admin-order-${unpaid}`).getByTestId("order-status")).toHaveText("订单已取消");

    // The same cancel again (a stale panel): the product rules' 'cancel failed' with the reason.
    await page.goto(`/admin/orders?order=${unpaid}&panel=cancel`);
    await page.getByRole("dialog", { name: "确认取消订单" }).getByRole("button", { name: "确认取消" }).click();
    await expect(page.getByRole("dialog", { name: "确认取消订单" }).getByRole("alert")).toHaveText("取消订单失败：当前订单状态不支持该操作");
  });
});
