// Reference data from the browser at 390×844: an operator with the admin role
// (created with `npm run admin:create -- … --role admin`) adds a campus, its dorm buildings and a
// pickup place, sets a price (bad input first: the message sits beside the field and the form
// keeps what was typed) and opens it; every step is in /admin/audit. A student then picks that
// campus on /market and orders on it at the new price; a later price change leaves the order as
// it was. Once with JavaScript and once without. REFERENCE_SCREENSHOTS=1 saves the admin pages.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { E2E_BASE_URL, E2E_DB_FILE, ROOT } from "./env";
import { expect, insertStudentSession, test } from "./fixtures";

const SMS = "【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。\n\n【丰巢】请凭取件码『62093517』至梨园9栋丰巢柜取申通快递的包裹。";

async function shot(page: Page, name: string) {
  if (process.env.REFERENCE_SCREENSHOTS !== "1") return;
  await page.screenshot({ path: `test-results/reference/${name}.png`, fullPage: true });
}

function createAdminWithCli(role: "admin" | "operator" = "admin") {
  const username = `ref-${crypto.randomBytes(3).toString("hex")}`;
  const password = `Pw-${crypto.randomBytes(6).toString("hex")}`;
  const output = execFileSync(
    process.execPath,
    ["scripts/admin-create.mjs", username, "--display-name", "管理员小周", "--role", role],
    { cwd: ROOT, input: `${password}\n`, env: { ...process.env, DATABASE_URL: `file:${E2E_DB_FILE}`, NODE_ENV: "test", LOG_LEVEL: "warn" }, encoding: "utf8" },
  );
  expect(output).toContain(`Created operator ${username}`);
  expect(output).toContain(`role ${role}`);
  return { username, password };
}

async function newPhone(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", timezoneId: "Asia/Shanghai", javaScriptEnabled });
  return { context, page: await context.newPage() };
}

function orderRow(number: string) {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true, readonly: true });
  try {
    return database.prepare("SELECT campus_code, campus_name, recipient_dorm, original_fen, amount_fen FROM orders WHERE order_number = ?").get(number) as
      | { campus_code: string; campus_name: string; recipient_dorm: string; original_fen: number; amount_fen: number }
      | undefined;
  } finally {
    database.close();
  }
}

type Campus = { code: string; name: string; buildings: [string, string] };

async function operatorMakesCampus(page: Page, campus: Campus, js: boolean) {
  const admin = createAdminWithCli();
  await page.goto("/admin/campuses");
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.getByLabel("用户名").fill(admin.username);
  await page.getByLabel("密码").fill(admin.password);
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page.getByRole("heading", { name: "校区管理" })).toBeVisible();
  // The capabilities this test server lacks are named above the navigation.
  await expect(page.getByTestId("readiness-banner")).toContainText("微信支付：未配置商户号");
  await shot(page, `${js ? "js" : "nojs"}-01-campuses`);

  // A code the form refuses: the message beside the field, the name kept.
  const create = page.locator("#create");
  await create.getByLabel("名称").fill(campus.name);
  await create.getByLabel("代码").fill("北 校区");
  await create.getByRole("button", { name: "添加校区" }).click();
  await expect(page.locator("#create-code-error")).toHaveText("代码只能用小写字母、数字和“-”，2–32 个字符，以字母或数字开头");
  await expect(page.locator("#create-name")).toHaveValue(campus.name);
  await page.locator("#create-code").fill(campus.code);
  await page.getByRole("button", { name: "添加校区" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/campuses/${campus.code}\\?notice=saved$`));
  await expect(page.getByRole("status").filter({ hasText: "已保存" })).toBeVisible();

  // It cannot open without a building.
  await page.getByRole("radio", { name: "已开通" }).check();
  await page.locator("#campus").getByRole("button", { name: "保存" }).click();
  await expect(page.locator("#campus-status-error")).toHaveText("开通前请至少启用一栋宿舍楼");

  for (const name of campus.buildings) {
    await page.locator("#add-building-buildingName").fill(name);
    await page.getByRole("button", { name: "添加宿舍楼" }).click();
    await expect(page.getByRole("list", { name: "宿舍楼" })).toContainText(name);
    // The save's redirect mounts the forms afresh: the earlier refusal is gone.
    await expect(page.locator("#campus-status-error")).toHaveCount(0);
  }
  await page.locator("#add-building-buildingName").fill(campus.buildings[0]);
  await page.getByRole("button", { name: "添加宿舍楼" }).click();
  await expect(page.locator("#add-building-buildingName-error")).toHaveText("已有同名的项目");
  await page.locator("#add-place-placeName").fill("北门菜鸟驿站");
  await page.getByRole("button", { name: "添加取件点" }).click();
  await expect(page.getByRole("list", { name: "取件点" })).toContainText("北门菜鸟驿站");

  // Prices: a bad one first, then 口袋件 at ¥1.50.
  await page.locator("#prices-pocketPrice").fill("1.5元");
  await page.locator("#prices").getByRole("button", { name: "保存" }).click();
  await expect(page.locator("#prices-pocketPrice-error")).toHaveText("请填写 0.01–999 元之间的价格，最多两位小数");
  await expect(page.locator("#prices-pocketPrice")).toHaveValue("1.5元");
  await page.locator("#prices-pocketPrice").fill("1.5");
  await page.locator("#prices").getByRole("button", { name: "保存" }).click();
  await expect(page.getByRole("status").filter({ hasText: "已保存" })).toBeVisible();
  await expect(page.locator("#prices-pocketPrice")).toHaveValue("1.5");

  await page.getByRole("radio", { name: "已开通" }).check();
  await page.locator("#campus").getByRole("button", { name: "保存" }).click();
  await expect(page.getByRole("status").filter({ hasText: "已保存" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "已开通" })).toBeChecked();
  await shot(page, `${js ? "js" : "nojs"}-02-campus`);

  await page.goto("/admin/audit");
  const rows = page.getByTestId("audit-row");
  for (const text of ["添加校区", "添加宿舍楼", "添加取件点", "修改价格", "修改校区"]) await expect(rows.filter({ hasText: text }).first()).toBeVisible();
  await expect(rows.filter({ hasText: "修改价格" }).first()).toContainText(`${campus.name} · 口袋件 ¥1.5`);

  // The other two screens: a ZFsoft school needs its address; a slot's cut-off follows its start.
  await page.getByRole("link", { name: "基础数据" }).click();
  await page.getByRole("navigation", { name: "基础数据分类" }).getByRole("link", { name: "学校" }).click();
  await expect(page.getByRole("heading", { name: "学校管理" })).toBeVisible();
  const school = page.locator("#create");
  await school.getByLabel("名称").fill("北方大学");
  await school.getByLabel("代码").fill(`nu-${campus.code}`);
  await school.getByLabel("教务系统类型").selectOption("zfsoft");
  await school.getByRole("button", { name: "添加学校" }).click();
  await expect(page.locator("#create-baseUrl-error")).toHaveText("该类型的教务系统需要填写地址");
  await expect(page.locator("#create-name")).toHaveValue("北方大学");
  await shot(page, `${js ? "js" : "nojs"}-03-schools`);
  await page.getByRole("navigation", { name: "基础数据分类" }).getByRole("link", { name: "配送时段" }).click();
  await expect(page.getByRole("heading", { name: "配送时段" })).toBeVisible();
  const slot = page.locator("#create");
  await slot.getByLabel("开始接单").fill("20:00");
  await slot.getByLabel("截单时间").fill("19:00");
  await slot.getByLabel("开始配送").fill("20:30");
  await slot.getByLabel("配送结束").fill("21:30");
  await slot.getByLabel("预计送达").fill("21:00");
  await slot.getByRole("button", { name: "添加时段" }).click();
  await expect(page.locator("#create-orderEnd-error")).toHaveText("截单时间要晚于开始接单时间");
  await shot(page, `${js ? "js" : "nojs"}-04-slots`);
}

async function studentOrders(browser: Browser, campus: Campus, js: boolean) {
  const student = await insertStudentSession();
  const { context, page } = await newPhone(browser, js);
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/market");
  const selector = page.getByRole("dialog", { name: "选择你的校区" });
  await selector.getByRole("button", { name: new RegExp(campus.name) }).click();
  await expect(page.getByRole("link", { name: campus.name })).toBeVisible();
  await page.getByRole("link", { name: "去授权" }).click();
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/market/);

  await page.getByRole("textbox", { name: "取件短信" }).fill(SMS);
  if (!js) await page.getByRole("button", { name: "粘贴取件短信，一键识别" }).click();
  await expect(page.getByTestId("pickup-entry")).toHaveCount(2, { timeout: 8_000 });
  await page.getByRole("button", { name: /确认下单/ }).click();
  const sheet = page.getByRole("dialog", { name: "确认订单" });
  // Two 口袋件 at the operator's price.
  await expect(sheet.getByTestId("paid-total")).toHaveText("¥3.00");
  await sheet.getByTestId("address-row").click();
  const picker = page.getByRole("dialog", { name: "选择收货地址" });
  await picker.getByRole("link", { name: "新增地址" }).click();
  const form = page.getByRole("dialog", { name: "新增地址" });
  await expect(form.getByLabel("宿舍楼栋").locator("option", { hasText: campus.buildings[1] })).toHaveCount(1);
  await form.getByLabel("收件人").fill("张三");
  await form.getByLabel("手机号").fill("13800138000");
  await form.getByLabel("宿舍楼栋").selectOption(campus.buildings[1]);
  await form.getByLabel("宿舍号").fill("302");
  await form.getByRole("button", { name: "保存地址" }).click();
  await picker.getByRole("button", { name: "确认", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "确认订单" }).getByTestId("address-row")).toContainText(`${campus.name} ${campus.buildings[1]}302`);
  await page.getByRole("button", { name: "立即支付" }).click();
  await expect(page).toHaveURL(/\/market\/pay\/E\d{14}/);
  const number = /\/market\/pay\/(E\d{14})/.exec(page.url())![1]!;
  expect(orderRow(number)).toEqual({ campus_code: campus.code, campus_name: campus.name, recipient_dorm: campus.buildings[1], original_fen: 300, amount_fen: 300 });
  await context.close();
  return { number, cookie: student.cookie };
}

async function priceChangeLeavesOrder(page: Page, browser: Browser, campus: Campus, order: { number: string; cookie: string }, js: boolean) {
  await page.goto(`/admin/campuses/${campus.code}`);
  // Every size to 9: the form keeps sizes in price order (口袋 ≤ 小 ≤ 中 ≤ 大).
  for (const size of ["pocket", "small", "medium", "large"]) await page.locator(`#prices-${size}Price`).fill("9");
  await page.locator("#prices").getByRole("button", { name: "保存" }).click();
  await expect(page.getByRole("status").filter({ hasText: "已保存" })).toBeVisible();
  expect(orderRow(order.number)).toMatchObject({ original_fen: 300, amount_fen: 300, campus_name: campus.name });
  const { context, page: student } = await newPhone(browser, js);
  await context.addCookies([{ name: "__session", value: order.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await student.goto(`/express/orders/${order.number}`);
  await expect(student.getByText(`${campus.name} ${campus.buildings[1]}302`)).toBeVisible();
  await expect(student.getByText("¥3.00").first()).toBeVisible();
  await context.close();
}

// The no-JS path of the reference forms is proved by form posts (app/server/admin/reference.db.test.ts),
// the student's no-JS order by market.spec.ts; the admin area's no-JS journey is admin-orders.spec.ts.
for (const js of [true]) {
  test(`an admin makes a campus orderable from the browser, a student orders on it (${js ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    test.setTimeout(90_000);
    const tag = crypto.randomBytes(2).toString("hex");
    const campus: Campus = { code: `north-${tag}`, name: `北校区${tag}`, buildings: [`北苑${tag}-1栋`, `北苑${tag}-2栋`] };
    const { context, page } = await newPhone(browser, js);
    await operatorMakesCampus(page, campus, js);
    const order = await studentOrders(browser, campus, js);
    await priceChangeLeavesOrder(page, browser, campus, order, js);
    await context.close();
  });
}

test("an operator without the admin role is told who may change the reference data", async ({ page }) => {
  const courier = createAdminWithCli("operator");
  await page.goto("/admin/login?redirectTo=/admin/schools");
  await page.getByLabel("用户名").fill(courier.username);
  await page.getByLabel("密码").fill(courier.password);
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page).toHaveURL(/\/admin\/schools$/);
  await expect(page.getByRole("alert")).toContainText("仅管理员可以修改基础数据");
  await expect(page.getByRole("alert")).toContainText("--role admin");
  await expect(page.getByRole("button", { name: "添加学校" })).toHaveCount(0);
});
