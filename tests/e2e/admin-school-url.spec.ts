// The school form at 390×844 refuses a base URL that points inside our own network — here the
// loopback address written as a decimal number — with the message beside the field, keeping what
// was typed. Without JavaScript the same refusal is proved by form posts
// (app/server/admin/school-url.db.test.ts); the admin area's no-JS journey is admin-orders.spec's.
// SCHOOL_URL_SCREENSHOTS=1 saves the page light and dark.
import crypto from "node:crypto";
import { adminReference } from "../../app/lib/messages/adminReference";
import { createOperatorWithCli } from "./admin-helpers";
import { expect, test } from "./fixtures";

test("the school form refuses an address inside our network beside the field (with JavaScript)", async ({ page }) => {
  const admin = createOperatorWithCli("管理员小周", "admin");
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
    await page.screenshot({ path: "test-results/school-url/js-light.png" });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: "test-results/school-url/js-dark.png" });
  }
});
