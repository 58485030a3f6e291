// Orders in the browser at 390×844 with the simulated pay provider of development: recognise,
// checkout, pay, see the order paid in /orders and its detail; pay an unpaid order from its page
// (it reloads after 2 s); cancel an order; request a refund (reason required); review a completed
// order. ORDERS_SCREENSHOTS=1 also saves the pages as PNGs in test-results/orders/.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { insertOrder } from "./orders-db";

const SMS = "【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。\n\n【丰巢】请凭取件码『62093517』至梨园9栋丰巢柜取申通快递的包裹。";

async function shot(page: Page, name: string, fullPage = false) {
  if (process.env.ORDERS_SCREENSHOTS !== "1") return;
  await page.screenshot({ path: `test-results/orders/${name}.png`, fullPage });
}

test("recognise, checkout and pay with the simulated provider; the order is paid in /orders and its detail", async ({ page, loginAsStudent }) => {
  test.setTimeout(60_000);
  await loginAsStudent();
  await page.goto("/market");
  const selector = page.getByRole("dialog", { name: "选择你的校区" });
  await selector.getByRole("button", { name: /金盆岭校区/ }).click();
  await expect(selector).toBeHidden();
  // The messenger identity joins the signed-in student's row (the simulated authorization).
  await page.getByRole("link", { name: "去授权" }).click();
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/market/);

  await page.getByRole("textbox", { name: "取件短信" }).fill(SMS);
  await expect(page.getByTestId("pickup-entry")).toHaveCount(2, { timeout: 8_000 });
  await page.getByRole("button", { name: /确认下单/ }).click();
  const sheet = page.getByRole("dialog", { name: "确认订单" });
  await expect(sheet.getByTestId("paid-total")).toHaveText("¥2.40");
  await sheet.getByTestId("address-row").click();
  const picker = page.getByRole("dialog", { name: "选择收货地址" });
  await picker.getByRole("link", { name: "新增地址" }).click();
  const form = page.getByRole("dialog", { name: "新增地址" });
  await form.getByLabel("收件人").fill("张三");
  await form.getByLabel("手机号").fill("13800138000");
  await form.getByLabel("宿舍楼栋").selectOption("西苑3栋");
  await form.getByLabel("宿舍号").fill("302");
  await form.getByRole("button", { name: "保存地址" }).click();
  await picker.getByRole("button", { name: "确认", exact: true }).click();
  await expect(sheet.getByTestId("address-row")).toContainText("金盆岭校区 西苑3栋302");
  await shot(page, "01-confirm-sheet");

  // One tap: the order is created, the payment created and paid (1.5 s), the status polled.
  await sheet.getByRole("button", { name: "立即支付" }).click();
  await expect(page).toHaveURL(/\/market\/pay\/E\d{14}/);
  await expect(page.getByText("正在支付…").or(page.getByText("正在确认支付结果…")).first()).toBeVisible();
  await shot(page, "02-pay-in-progress");
  await expect(page.getByRole("heading", { name: "支付成功" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId("pay-success")).toContainText("¥2.40");
  await shot(page, "03-pay-success");
  const number = /\/market\/pay\/(E\d{14})/.exec(page.url())![1]!;

  // The checkout was emptied: the market shows no parcels any more.
  await page.goto("/market");
  await expect(page.getByTestId("pickup-entry")).toHaveCount(0);

  await page.goto("/orders");
  const card = page.getByRole("link", { name: new RegExp(`${number} 进行中`) });
  await expect(card).toBeVisible();
  await expect(card).toContainText("等待骑手接单");
  await expect(card).toContainText("¥2.40");
  await expect(card).toContainText("2 件");
  await shot(page, "04-orders");
  await card.click();

  await expect(page).toHaveURL(`/express/orders/${number}`);
  await expect(page.getByTestId("order-status")).toHaveText("等待骑手接单");
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "30");
  await expect(page.getByTestId("pickup-codes")).toContainText("5-5-1201");
  await expect(page.getByTestId("pickup-codes")).toContainText("62093517");
  await expect(page.getByText("金盆岭校区 西苑3栋302")).toBeVisible();
  await shot(page, "05-detail-paid");

  // Cancelling a paid order refunds it at once (the simulated refund succeeds): 退款成功.
  await page.getByRole("link", { name: "取消订单" }).click();
  const cancel = page.getByRole("dialog", { name: "取消订单" });
  await expect(cancel).toContainText("订单已支付，取消后将原路退款。");
  await cancel.getByRole("button", { name: "确认取消" }).click();
  // The banner agrees with the header: refunded at once, so '已退款', not '退款处理中'.
  await expect(page.getByRole("status").filter({ hasText: "订单已取消，已退款" })).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("退款成功");
  await expect(page.getByText("预计送达")).toHaveCount(0);
});

test("pay an unpaid order from its page, cancel another, request a refund, review a completed one", async ({ page, loginAsStudent }) => {
  test.setTimeout(60_000);
  const student = await loginAsStudent();
  // The simulated provider pays for the session's messenger identity: give the student one.
  await page.goto("/api/wechat/auth?redirect_url=/orders");
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/orders$/);
  const unpaid = insertOrder(student.userId, { status: "created", payment: "pending" });
  const another = insertOrder(student.userId, { status: "created", payment: "pending" });
  const delivering = insertOrder(student.userId, { status: "delivering", payment: "paid" }, ["8-8-8101", "8-8-8102"]);
  const completed = insertOrder(student.userId, { status: "completed", payment: "paid" });

  // Pay from the order page: the page reloads 2 s after the payment and shows it paid.
  await page.goto(`/express/orders/${unpaid}`);
  await expect(page.getByTestId("order-status")).toHaveText("订单已创建");
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "10");
  await shot(page, "06-detail-unpaid", true);
  await page.getByRole("button", { name: "立即支付 ¥2.00" }).click();
  await expect(page.getByText("支付完成后页面将自动刷新")).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId("order-status")).toHaveText("等待骑手接单", { timeout: 10_000 });
  await expect(page.getByRole("status").filter({ hasText: "支付成功" })).toBeVisible();

  // Cancel another (unpaid): the optional reason, then 订单已取消.
  await page.goto(`/express/orders/${another}`);
  await page.getByRole("link", { name: "取消订单" }).click();
  const cancel = page.getByRole("dialog", { name: "取消订单" });
  await cancel.getByLabel("取消原因（选填）").fill("地址写错了");
  await shot(page, "07-cancel-dialog");
  await cancel.getByRole("button", { name: "确认取消" }).click();
  await expect(cancel).toBeHidden();
  await expect(page.getByTestId("order-status")).toHaveText("订单已取消");
  await expect(page.getByRole("link", { name: "取消订单" })).toHaveCount(0);

  // A refund request needs a reason; the dialog also offers contacting service.
  await page.goto(`/express/orders/${delivering}`);
  await expect(page.getByTestId("order-status")).toHaveText("配送中");
  await page.getByRole("link", { name: "申请退款" }).click();
  const refund = page.getByRole("dialog", { name: "申请退款" });
  await expect(refund.getByRole("link", { name: "联系客服" })).toBeVisible();
  await refund.getByLabel("退款原因").fill("   ");
  await refund.getByRole("button", { name: "提交申请" }).click();
  await expect(refund.getByText("请输入退款原因")).toBeVisible();
  await refund.getByLabel("退款原因").fill("少送了一件");
  await shot(page, "08-refund-dialog");
  await refund.getByRole("button", { name: "提交申请" }).click();
  await expect(page.getByTestId("refund-state")).toHaveText("退款审核中");
  await expect(page.getByTestId("order-status")).toHaveText("配送中");
  await expect(page.getByRole("link", { name: "申请退款" })).toHaveCount(0);

  // Review the completed one: 5 stars by default, then 4 ('满意') with a comment.
  await page.goto(`/express/orders/${completed}`);
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await page.getByRole("link", { name: "评价订单" }).click();
  const review = page.getByRole("dialog", { name: "评价订单" });
  await expect(review.getByTestId("rating-text")).toHaveText("非常满意");
  await review.locator("label").filter({ has: page.getByRole("radio", { name: "4 星 满意" }) }).click();
  await expect(review.getByTestId("rating-text")).toHaveText("满意");
  await review.getByLabel("评价内容（选填）").fill("送得很快，谢谢");
  await shot(page, "09-review-dialog");
  await review.getByRole("button", { name: "提交评价" }).click();
  await expect(page.getByTestId("my-review")).toContainText("满意");
  await expect(page.getByTestId("my-review")).toContainText("送得很快，谢谢");
  await expect(page.getByRole("link", { name: "评价订单" })).toHaveCount(0);

  // Contact service: the hours of the order page's dialog.
  await page.getByRole("link", { name: "联系客服" }).click();
  await expect(page.getByRole("dialog", { name: "联系客服" })).toContainText("9:00–21:00");
  await shot(page, "10-contact-dialog");

  await page.goto("/orders");
  await expect(page.getByTestId("order-card")).toHaveCount(4);
  await shot(page, "11-orders-list");

  // Paying fails after the order exists (the payment cannot be created): the dialog says the order
  // exists and can be paid after the student-id login, with its button to the login.
  const failing = insertOrder(student.userId, { status: "created", payment: "pending" });
  await page.route("**/api/pay/wechat/create-payment", (route) => route.fulfill({ status: 502, json: { success: false, message: "创建支付订单失败" } }));
  await page.goto(`/market/pay/${failing}`);
  await page.getByRole("button", { name: /立即支付/ }).click();
  const failed = page.getByRole("alertdialog", { name: "支付未完成" });
  await expect(failed).toContainText("创建支付订单失败");
  await expect(failed).toContainText("使用学号登录后可在「我的订单」中继续支付");
  await expect(failed.getByRole("link", { name: "去登录" })).toHaveAttribute("href", `/login?redirectTo=%2Fexpress%2Forders%2F${failing}`);
  await shot(page, "12-pay-failed");
  await failed.getByRole("link", { name: "关闭" }).click();
  await expect(failed).toBeHidden();
});

test("without JavaScript the order page's forms work: cancel with the dialog, 'undefined' is an invalid order ID", async ({ browser, context: withCookie, loginAsStudent }) => {
  const student = await loginAsStudent();
  const number = insertOrder(student.userId, { status: "created", payment: "pending" });
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await withCookie.storageState() });
  const page = await context.newPage();
  await page.goto(`/express/orders/${number}`);
  await page.getByRole("link", { name: "取消订单" }).click();
  await page.getByRole("dialog", { name: "取消订单" }).getByRole("button", { name: "确认取消" }).click();
  await expect(page.getByTestId("order-status")).toHaveText("订单已取消");
  await page.goto("/express/orders/undefined");
  await expect(page.getByRole("alert")).toContainText("无效的订单ID");
  await context.close();
});
