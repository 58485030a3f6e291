// The school form at 390×844 refuses a base URL that points inside our own network — here the
// loopback address written as a decimal number — with the message beside the field, keeping what
// was typed, with and without JavaScript. SCHOOL_URL_SCREENSHOTS=1 saves the page light and dark.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { adminReference } from "../../app/lib/messages/adminReference";
import { E2E_DB_FILE, ROOT } from "./env";
import { expect, test } from "./fixtures";

function createAdmin() {
  const username = `url-${crypto.randomBytes(3).toString("hex")}`;
  const password = `Pw-${crypto.randomBytes(6).toString("hex")}`;
  execFileSync(process.execPath, ["scripts/admin-create.mjs", username, "--display-name", "管理员小周", "--role", "admin"], {
    cwd: ROOT,
    input: `${password}\n`,
    env: { ...process.env, DATABASE_URL: `file:${E2E_DB_FILE}`, NODE_ENV: "test", LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  return { username, password };
}

for (const js of [true, false]) {
  test(`the school form refuses an address inside our network beside the field (${js ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", timezoneId: "Asia/Shanghai", javaScriptEnabled: js });
    const page = await context.newPage();
    const admin = createAdmin();
    await page.goto("/admin/login?redirectTo=/admin/schools");
    await page.getByLabel("用户名").fill(admin.username);
    await page.getByLabel("密码").fill(admin.password);
    await page.getByLabel("验证码").fill("AB23");
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByRole("heading", { name: "学校管理" })).toBeVisible();

    const form = page.locator("#create");
    const code = `in-${crypto.randomBytes(2).toString("hex")}`;
    await form.getByLabel("名称").fill("内网大学");
    await form.getByLabel("代码").fill(code);
    await form.getByLabel("教务系统类型").selectOption("zfsoft");
    await form.getByLabel("教务系统地址").fill("http://2130706433/jwglxt");
    await form.getByRole("button", { name: "添加学校" }).click();

    await expect(page.locator("#create-baseUrl-error")).toHaveText(adminReference.errors.baseUrlForbidden);
    await expect(page.locator("#create-baseUrl")).toHaveValue("http://2130706433/jwglxt");
    await expect(page.locator("#create-name")).toHaveValue("内网大学");
    await expect(page.getByText(code)).toHaveCount(0);
    if (process.env.SCHOOL_URL_SCREENSHOTS === "1") {
      await page.locator("#create").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/school-url/${js ? "js" : "nojs"}-light.png` });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: `test-results/school-url/${js ? "js" : "nojs"}-dark.png` });
    }
    await context.close();
  });
}
