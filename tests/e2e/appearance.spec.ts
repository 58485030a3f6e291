// The dark appearance: chosen on the settings page (with JavaScript and without), rendered by the
// server in the first response (no flash), and "跟随系统" follows the phone's own setting.
import type { Page } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { expect, insertStudentSession, test } from "./fixtures";

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const isDark = (rgb: string) => {
  const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! < 60;
};

for (const javaScriptEnabled of [true, false]) {
  test(`深色 is saved and rendered by the server ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled, colorScheme: "light" });
    const page = await context.newPage();
    const student = await insertStudentSession({ nickname: "夜猫子" });
    await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);

    await page.goto("/backpack/settings");
    expect(isDark(await background(page))).toBe(false);
    await page.getByText("深色", { exact: true }).click();
    await page.getByRole("button", { name: "保存主题" }).click();
    await expect(page.getByRole("status")).toHaveText("主题已更新");
    await expect(page.locator("html")).toHaveAttribute("data-appearance", "dark");
    expect(isDark(await background(page))).toBe(true);

    // The server's HTML already carries it: no script needed, nothing flashes.
    const html = await (await context.request.get("/circle")).text();
    expect(html).toMatch(/<html[^>]*data-appearance="dark"/);
    await page.goto("/circle");
    expect(isDark(await background(page))).toBe(true);
    await context.close();
  });
}

test("跟随系统 follows the phone's light or dark setting", async ({ browser }) => {
  const student = await insertStudentSession({ nickname: "跟随系统的人" });
  for (const colorScheme of ["dark", "light"] as const) {
    const context = await browser.newContext({ colorScheme });
    await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    await page.goto("/backpack/settings");
    await page.getByText("跟随系统", { exact: true }).click();
    await page.getByRole("button", { name: "保存主题" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-appearance", "system");
    await page.goto("/schedule/mutual-help");
    expect(isDark(await background(page))).toBe(colorScheme === "dark");
    await context.close();
  }
});

test("logged out, pages follow the phone's dark setting; a new account starts on 跟随系统", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/blog");
  await expect(page.locator("html")).toHaveAttribute("data-appearance", "system");
  expect(isDark(await background(page))).toBe(true);
  const student = await insertStudentSession({ nickname: "新来的" });
  await context.addCookies([{ name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/backpack/settings");
  await expect(page.getByRole("radio", { name: "跟随系统" })).toBeChecked();
  expect(isDark(await background(page))).toBe(true);
  await context.close();
});
