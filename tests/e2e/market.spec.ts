import type { BrowserContext } from "@playwright/test";
import sharp from "sharp";
import { renderThread } from "../../scripts/lib/sms-screenshots.mjs";
import { expect, test } from "./fixtures";
import { authorize, chooseCampus } from "./steps";

const TWO_SMS = "【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。\n\n【丰巢】请凭取件码『62093517』至梨园9栋丰巢柜取申通快递的包裹。";

test("choose a campus, paste two SMS, edit one, add an address, change counts, see the total", async ({ page }) => {
  await page.goto("/market");
  await chooseCampus(page);
  await expect(page.getByRole("link", { name: "金盆岭校区" })).toBeVisible();
  await authorize(page);

  // Recognition 1.5 s after typing stops.
  await page.getByRole("textbox", { name: "取件短信" }).fill(TWO_SMS);
  const entries = page.getByTestId("pickup-entry");
  await expect(entries).toHaveCount(2, { timeout: 8_000 });
  await expect(entries.nth(0)).toContainText("5-5-1201");
  await expect(entries.nth(0)).toContainText("梨园菜鸟驿站");
  await expect(entries.nth(1)).toContainText("62093517");
  await expect(page.getByText("已识别 2 个快递，点击条目可修改")).toBeVisible();

  // Edit one: a pickup place of the campus and a corrected credential.
  await page.getByRole("link", { name: "编辑 62093517" }).click();
  const edit = page.getByRole("dialog", { name: "修改取件信息" });
  // Chosen from the campus's places or typed: the datalist offers them, the field takes any text.
  await edit.getByLabel("取件地点").fill("西苑丰巢快递柜（西苑3栋楼下）");
  await edit.getByLabel("取件凭证").fill("62093518");
  await edit.getByRole("button", { name: "保存" }).click();
  await expect(edit).toBeHidden();
  await expect(entries.nth(1)).toContainText("62093518");
  await expect(entries.nth(1)).toContainText("西苑丰巢快递柜（西苑3栋楼下）");

  // The confirm sheet, then an address.
  await page.getByRole("button", { name: /确认下单/ }).click();
  const sheet = page.getByRole("dialog", { name: "确认订单" });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByTestId("paid-total")).toHaveText("¥2.40");
  await expect(sheet.getByRole("button", { name: "立即支付" })).toBeEnabled();
  await sheet.getByTestId("address-row").click();
  const picker = page.getByRole("dialog", { name: "选择收货地址" });
  await expect(picker.getByText("还没有收货地址，先添加一个吧")).toBeVisible();
  await picker.getByRole("link", { name: "新增地址" }).click();
  const form = page.getByRole("dialog", { name: "新增地址" });
  await form.getByRole("button", { name: "保存地址" }).click();
  await expect(form.getByText("请输入收件人姓名")).toBeVisible();
  await expect(form.getByText("请输入手机号")).toBeVisible();
  await form.getByLabel("收件人").fill("张三");
  await form.getByLabel("手机号").fill("12345678901");
  await form.getByLabel("宿舍楼栋").selectOption("西苑3栋");
  await form.getByLabel("宿舍号").fill("302");
  await form.getByRole("button", { name: "保存地址" }).click();
  await expect(form.getByText("请输入正确的手机号")).toBeVisible();
  await form.getByLabel("手机号").fill("13800138000");
  await form.getByRole("button", { name: "保存地址" }).click();
  await expect(picker.getByText("金盆岭校区 西苑3栋302")).toBeVisible();
  await expect(picker.getByText("默认", { exact: true })).toBeVisible();
  await picker.getByRole("button", { name: "确认", exact: true }).click();
  await expect(sheet.getByTestId("address-row")).toContainText("金盆岭校区 西苑3栋302");

  // Counts: one parcel moves to 大件, then 中件 cannot go below 0.
  await sheet.getByRole("button", { name: "增加大件" }).click();
  await expect(sheet.getByTestId("paid-total")).toHaveText("¥5.20");
  await expect(sheet.getByTestId("stepper-large").locator("output")).toHaveText("1");
  await expect(sheet.getByTestId("stepper-pocket").locator("output")).toHaveText("1");
  await sheet.getByRole("button", { name: "减少中件" }).click();
  await expect(page.getByText("中件数量已为0")).toBeVisible();
  await expect(sheet.getByTestId("paid-total")).toHaveText("¥5.20");

  // A reload keeps everything: the checkout lives on the server.
  await page.reload();
  await expect(page.getByRole("dialog", { name: "确认订单" }).getByTestId("paid-total")).toHaveText("¥5.20");

  // The pay button creates the order and pays it (the simulated provider of development).
  await page.getByRole("button", { name: "立即支付" }).click();
  await expect(page).toHaveURL(/\/market\/pay\/E\d{14}/);
  await expect(page.getByRole("heading", { name: "支付成功" })).toBeVisible({ timeout: 10_000 });
});

test("the market works without JavaScript: forms and server-rendered panels", async ({ browser, page }) => {
  // The identity and the campus first (with JS), then the same browser state without it.
  await page.goto("/market");
  await chooseCampus(page, "云塘校区");
  await authorize(page);
  const state = await page.context().storageState();
  const context: BrowserContext = await browser.newContext({ javaScriptEnabled: false, storageState: state });
  const noJs = await context.newPage();
  await noJs.goto("/market");
  await noJs.getByRole("button", { name: "粘贴取件短信，一键识别" }).click();
  await expect(noJs.getByText("请先输入取件短信内容再进行识别")).toBeVisible();
  await noJs.getByRole("textbox", { name: "取件短信" }).fill(TWO_SMS);
  await noJs.getByRole("button", { name: "粘贴取件短信，一键识别" }).click();
  await expect(noJs.getByTestId("pickup-entry")).toHaveCount(2);
  await expect(noJs.getByText("识别到 2 个快递")).toBeVisible();
  await noJs.getByRole("button", { name: /确认下单/ }).click();
  const sheet = noJs.getByRole("dialog", { name: "确认订单" });
  await expect(sheet.getByTestId("paid-total")).toHaveText("¥2.40");
  await sheet.getByRole("button", { name: "增加小件" }).click();
  await expect(noJs.getByRole("dialog", { name: "确认订单" }).getByTestId("paid-total")).toHaveText("¥3.20");
  await noJs.getByRole("link", { name: /口袋件/ }).click();
  await expect(noJs.getByRole("dialog", { name: "包裹规格说明" })).toContainText("半个鞋盒以内");
  await context.close();
});

test("the other tabs show their intro and take a feature request", async ({ page }) => {
  await page.goto("/market");
  await chooseCampus(page);
  await page.getByRole("link", { name: "万能跑腿" }).click();
  await expect(page.getByRole("heading", { name: "万能跑腿" })).toBeVisible();
  await page.getByRole("button", { name: "我需要这个功能" }).click();
  await expect(page.getByText("感谢您的反馈！我们会尽快开发这个功能")).toBeVisible();
  await page.getByRole("link", { name: "超市代买" }).click();
  await page.getByRole("button", { name: "提交代买需求" }).click();
  await expect(page.getByText("超市代买功能暂未开放，敬请期待！")).toBeVisible();
});

test("a phone screenshot is shrunk, followed step by step and its parcels join the list", async ({ page, browser }) => {
  test.setTimeout(90_000); // the first image loads the model, on a shared machine
  // The screenshot: an SMS thread as an iPhone 15 shows it, 1170×2532, drawn here.
  const png = Buffer.from(
    await renderThread(browser, {
      phone: "iphone-15",
      theme: "dark",
      messages: TWO_SMS.split("\n\n").map((text, index) => ({ time: `11月03日 10:1${index}`, text })),
    }),
  );
  expect((await sharp(png).metadata()).width).toBe(1170);

  await page.goto("/market");
  await chooseCampus(page);
  await authorize(page);
  // Hydrated first: a file chosen before React attaches its handler sends nothing.
  await page.waitForLoadState("networkidle");
  const sent = page.waitForRequest((request) => request.url().endsWith("/errands/pickup-code/recognize-image"));
  await page.locator("#screenshot-input").setInputFiles({ name: "sms.png", mimeType: "image/png", buffer: png });

  // The browser sent a WebP (or JPEG) at most 1080 px wide, not the 1170 px PNG.
  const body = (await sent).postDataJSON() as { base64_data: string; upload_id: string };
  expect(body.base64_data).toMatch(/^data:image\/(webp|jpeg);base64,/);
  const uploaded = Buffer.from(body.base64_data.replace(/^data:[^,]*,/, ""), "base64");
  expect((await sharp(uploaded).metadata()).width).toBeLessThanOrEqual(1080);
  expect(uploaded.length).toBeLessThan(png.length);

  // Its own line of progress, ending with what was found.
  const step = page.getByTestId("image-step");
  await expect(step).toHaveCount(1);
  await expect(step).toContainText("第 1 张：");
  await expect(step).toHaveText("第 1 张：识别到 2 个快递", { timeout: 60_000 });
  const entries = page.getByTestId("pickup-entry");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText("5-5-1201");
  await expect(entries.nth(1)).toContainText("62093517");
  await expect(entries.first()).toContainText("截图");

  // A fourth image is refused on the page.
  await page.locator("#screenshot-input").setInputFiles([1, 2, 3].map((n) => ({ name: `${n}.png`, mimeType: "image/png", buffer: png })));
  await expect(page.getByText("最多只能上传3张图片")).toBeVisible();
});

test("a busy server is said in plain words, counted down and tried again", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const png = Buffer.from(
    await renderThread(browser, { phone: "android-1080", theme: "light", messages: [{ text: TWO_SMS.split("\n\n")[0]! }, { text: "【农业银行】您的验证码 570261，用于快捷支付，5分钟内有效，请勿泄露。" }] }),
  );
  await page.goto("/market");
  await chooseCampus(page);
  await authorize(page);
  await page.waitForLoadState("networkidle"); // hydrated before the file is chosen
  // The first answer is the server's full-queue answer (the queue itself is tested in
  // recognition-queue.db.test.ts); the retry goes to the real server.
  let refused = 0;
  await page.route("**/errands/pickup-code/recognize-image", async (route) => {
    if (refused > 0) return route.continue();
    refused += 1;
    await route.fulfill({
      status: 503,
      headers: { "Retry-After": "2", "Content-Type": "application/json" },
      body: JSON.stringify({ success: false, message: "现在识别截图的人有点多，请 2 秒后再试，也可以直接粘贴短信文字", data: [] }),
    });
  });
  await page.locator("#screenshot-input").setInputFiles({ name: "sms.png", mimeType: "image/png", buffer: png });
  const step = page.getByTestId("image-step");
  await expect(step).toContainText("现在识别截图的人有点多，请 2 秒后再试");
  await expect(step).toContainText(/秒后自动重试/);
  await expect(page.getByText(/上传失败/)).toHaveCount(0);
  await expect(step).toHaveText("第 1 张：识别到 1 个快递", { timeout: 60_000 });
  await expect(page.getByTestId("pickup-entry")).toHaveCount(1);
  await expect(page.getByTestId("pickup-entry").first()).toContainText("5-5-1201");
});

test("the same SMS pasted and uploaded as a recompressed dark screenshot is one entry; its station is corrected by typing", async ({ page, browser }) => {
  test.setTimeout(120_000); // the first image loads the model, on a shared machine
  const sms = "【菜鸟驿站】您的中通包裹已到梨园菜鸟驿站，请于今天18:00前凭6-2-1101取件。";
  // What phones produce: a dark thread, recompressed as JPEG at quality 60 and 720 px wide.
  const png = await renderThread(browser, { phone: "android-1080", theme: "dark", messages: [{ time: "11月03日 10:10", text: sms }] });
  const jpeg = await sharp(Buffer.from(png)).resize({ width: 720 }).jpeg({ quality: 60 }).toBuffer();

  await page.goto("/market");
  await chooseCampus(page);
  await authorize(page);
  await page.getByRole("textbox", { name: "取件短信" }).fill(sms);
  const entries = page.getByTestId("pickup-entry");
  await expect(entries).toHaveCount(1, { timeout: 8_000 });
  await expect(entries.first().getByTestId("pickup-deadline")).toHaveText("今天18:00前领取");

  await page.locator("#screenshot-input").setInputFiles({ name: "sms.jpg", mimeType: "image/jpeg", buffer: jpeg });
  await expect(page.getByTestId("image-step")).toContainText("识别到", { timeout: 90_000 });
  await expect(entries).toHaveCount(1);

  await page.getByRole("link", { name: "编辑 6-2-1101" }).click();
  const edit = page.getByRole("dialog", { name: "修改取件信息" });
  await edit.getByLabel("取件地点").fill("梨园食堂东侧快递点");
  await edit.getByRole("button", { name: "保存" }).click();
  await expect(edit).toBeHidden();
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText("梨园食堂东侧快递点");
  await expect(entries.first().getByTestId("pickup-deadline")).toHaveText("今天18:00前领取");
});
