// The browser (390×844), with JavaScript (the no-JS paths: see the loop below): one parcel is never listed or
// ordered twice, the unpaid order stays within reach (pay or cancel) and holds its parcels, and
// the delivery address is on the order's campus.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { E2E_DB_FILE } from "./env";
import { expect, test } from "./fixtures";
import { authorize, chooseCampus } from "./steps";

const SMS = "【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。\n\n【丰巢】请凭取件码『62093517』至梨园9栋丰巢柜取申通快递的包裹。";

/** A market user with a campus and the messenger identity; `js: false` gives a page of the same browser without JavaScript. */
async function marketUser(browser: Browser, page: Page, js: boolean): Promise<{ market: Page; context: BrowserContext | null }> {
  await page.goto("/market");
  await chooseCampus(page);
  await authorize(page);
  if (js) return { market: page, context: null };
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const market = await context.newPage();
  await market.goto("/market");
  return { market, context };
}

async function recognize(page: Page) {
  await page.getByRole("textbox", { name: "取件短信" }).fill(SMS);
  await page.getByRole("button", { name: "粘贴取件短信，一键识别" }).click();
}

async function addAddress(page: Page, building = "西苑3栋") {
  await page.goto("/market/address/new");
  const form = page.getByRole("dialog", { name: "新增地址" });
  await form.getByLabel("收件人").fill("张三");
  await form.getByLabel("手机号").fill("13800138000");
  await form.getByLabel("校区").selectOption({ label: "金盆岭校区" });
  await form.getByLabel("宿舍楼栋").selectOption(building);
  await form.getByLabel("宿舍号").fill("302");
  await form.getByRole("button", { name: "保存地址" }).click();
  await expect(page.getByRole("dialog", { name: "选择收货地址" }).getByText(`金盆岭校区 ${building}302`)).toBeVisible();
}

// Without JavaScript the same promises are form posts (app/server/market/market.db.test.ts "one parcel,
// one charge on the market page", tests/security/errand-promises.test.ts), and the unpaid-order test
// below still makes its order without JavaScript; the market's no-JS journey is market.spec.ts.
for (const js of [true]) {
  const mode = js ? "with JavaScript" : "without JavaScript";

  test(`a parcel is listed once: carrier edited, recognised again, added by hand (${mode})`, async ({ browser, page }) => {
    const { market, context } = await marketUser(browser, page, js);
    await recognize(market);
    const entries = market.getByTestId("pickup-entry");
    await expect(entries).toHaveCount(2, { timeout: 8_000 });

    // Another carrier on one entry, then the same text again: still two parcels.
    await market.getByRole("link", { name: "编辑 5-5-1201" }).click();
    const edit = market.getByRole("dialog", { name: "修改取件信息" });
    await edit.getByLabel("快递公司").fill("韵达快递");
    await edit.getByRole("button", { name: "保存" }).click();
    await expect(edit).toBeHidden();
    await market.getByRole("button", { name: "粘贴取件短信，一键识别" }).click();
    await expect(market.getByText("该快递信息已存在，请勿重复添加").first()).toBeVisible();
    await expect(entries).toHaveCount(2);

    // The same code by hand under another carrier: refused with the product rules' message.
    await market.goto("/market/parcel/new");
    const add = market.getByRole("dialog", { name: "手动添加快递" });
    await add.getByLabel("取件凭证").fill("5-5-1201");
    await add.getByLabel("快递公司").fill("圆通速递");
    await add.getByRole("button", { name: "保存" }).click();
    await expect(add.getByText("该取件码信息已存在，请勿重复添加")).toBeVisible();
    await market.goto("/market");
    await expect(entries).toHaveCount(2);
    await context?.close();
  });

  test(`the unpaid order holds its parcels and stays within reach (${mode})`, async ({ browser, page }) => {
    test.setTimeout(60_000); // two students' markets, an order, a refusal, a payment and a cancel
    // The order is left unpaid: made without JavaScript (nothing starts the payment).
    const { market: noJs, context: noJsContext } = await marketUser(browser, page, false);
    await recognize(noJs);
    await expect(noJs.getByTestId("pickup-entry")).toHaveCount(2);
    await addAddress(noJs);
    await noJs.goto("/market/checkout");
    await noJs.getByRole("dialog", { name: "确认订单" }).getByRole("button", { name: "立即支付" }).click();
    await expect(noJs).toHaveURL(/\/market\/pay\/E\d{14}/);
    const number = /E\d{14}/.exec(noJs.url())![0];

    const market = js ? page : noJs;
    await market.goto("/market");
    // Its parcels left the list; /market links to the order.
    await expect(market.getByTestId("pickup-entry")).toHaveCount(0);
    await expect(market.getByTestId("unpaid-order")).toContainText(number);

    // The same parcels again: refused, with the way to the live order.
    await recognize(market);
    await expect(market.getByTestId("pickup-entry")).toHaveCount(2, { timeout: 8_000 });
    await market.goto("/market/checkout");
    if (js) await market.waitForLoadState("networkidle"); // hydrated before 立即支付
    await market.getByRole("dialog", { name: "确认订单" }).getByRole("button", { name: "立即支付" }).click();
    const refused = market.getByTestId("live-order-error");
    await expect(refused).toContainText(`该快递已在订单 ${number} 中，请勿重复下单`);
    await expect(refused.getByRole("link", { name: "查看该订单" })).toHaveAttribute("href", `/express/orders/${number}`);

    // Cancelled where it is paid: the parcels are released and the order can be made.
    await market.goto("/market");
    await market.getByTestId("unpaid-order").getByRole("link", { name: "去支付" }).click();
    await expect(market).toHaveURL(new RegExp(`/market/pay/${number}`));
    await market.getByTestId("pay-page-cancel").click();
    await expect(market.getByText("订单已取消，快递可重新下单")).toBeVisible();
    await market.goto("/market");
    await expect(market.getByTestId("unpaid-order")).toHaveCount(0);
    await market.goto("/market/checkout");
    await market.getByRole("dialog", { name: "确认订单" }).getByRole("button", { name: "立即支付" }).click();
    await expect(market).toHaveURL(/\/market\/pay\/E\d{14}/);
    expect(/E\d{14}/.exec(market.url())![0]).not.toBe(number);
    await noJsContext?.close();
  });

  test(`the address is on the order's campus (${mode})`, async ({ browser, page }) => {
    const { market, context } = await marketUser(browser, page, js);
    await recognize(market);
    await expect(market.getByTestId("pickup-entry")).toHaveCount(2, { timeout: 8_000 });
    // The address form offers only the service campus.
    await market.goto("/market/address/new");
    const form = market.getByRole("dialog", { name: "新增地址" });
    const campuses = await form.getByLabel("校区").locator("option").allTextContents();
    expect(campuses.filter((text) => text !== "请选择校区")).toEqual(["金盆岭校区"]);
    await addAddress(market, "西苑2栋");
    await market.goto("/market/checkout");
    const sheet = market.getByRole("dialog", { name: "确认订单" });
    await expect(sheet.getByTestId("address-row")).toContainText("金盆岭校区 西苑2栋302");
    await sheet.getByRole("button", { name: "立即支付" }).click();
    await expect(market).toHaveURL(/\/market\/pay\/E\d{14}/);
    const number = /E\d{14}/.exec(market.url())![0];
    // With JavaScript the simulated payment goes on to the success card; without, the pay page shows the address.
    if (!js) await expect(market.getByText("金盆岭校区 西苑2栋302")).toBeVisible();
    const database = new Database(E2E_DB_FILE, { readonly: true });
    try {
      expect(database.prepare("SELECT campus_code, delivery_address FROM orders WHERE order_number = ?").get(number)).toEqual({ campus_code: "jinpenling", delivery_address: "金盆岭校区 西苑2栋302" });
    } finally {
      database.close();
    }
    await context?.close();
  });
}
