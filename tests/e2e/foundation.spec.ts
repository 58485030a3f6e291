// The foundation's browser tests on a 390×844 phone viewport: the shell, the guard's redirects,
// the blog reader with and without JavaScript, the theme and the 404 page.
import { pythonTutorials } from "../../app/lib/content/blog";
import { expect, test } from "./fixtures";

const TAB_ROUTES = ["/schedule", "/circle", "/market", "/backpack"];
const NO_TAB_ROUTES = ["/about", "/backpack/settings", "/blog"];

test.describe("tab bar", () => {
  for (const path of TAB_ROUTES) {
    test(`is shown on ${path} with its tab marked`, async ({ page, loginAsStudent }) => {
      await loginAsStudent();
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(path);
      const nav = page.getByRole("navigation", { name: "主导航" });
      await expect(nav).toBeVisible();
      await expect(nav.getByRole("link")).toHaveCount(4);
      const active = nav.locator('a[aria-current="page"]');
      await expect(active).toHaveCount(1);
      await expect(active).toHaveAttribute("href", path);
    });
  }

  for (const path of NO_TAB_ROUTES) {
    test(`is not shown on ${path}`, async ({ page, loginAsStudent }) => {
      await loginAsStudent();
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(path);
      await expect(page.locator("h1").first()).toBeVisible();
      await expect(page.getByRole("navigation", { name: "主导航" })).toHaveCount(0);
    });
  }
});

test("/ goes to /market", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/market$/);
});

test("a protected route sends a visitor to the login page with redirectTo", async ({ page }) => {
  await page.goto("/schedule");
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/crLogin?redirectTo=%2Fschedule");
});

test.describe("blog reader", () => {
  const first = pythonTutorials[0]!;

  test("clicking the first article card opens it in a dialog", async ({ page }) => {
    await page.goto("/blog");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.getByRole("link", { name: first.title }).first().click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { name: first.title })).toBeVisible();
    await expect(page).toHaveURL(`/blog?read=${first.id}`);
  });

  test("works without JavaScript: the card is a link to /blog?read=1", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const direct = await page.goto(`/blog?read=${first.id}`);
      expect(direct?.status()).toBe(200);
      await expect(page.getByRole("dialog").getByRole("heading", { name: first.title })).toBeVisible();

      await page.goto("/blog");
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await page.getByRole("link", { name: first.title }).first().click();
      await expect(page).toHaveURL(`/blog?read=${first.id}`);
      await expect(page.getByRole("dialog").getByRole("heading", { name: first.title })).toBeVisible();
    } finally {
      await context.close();
    }
  });
});

test("a theme change persists across a reload", async ({ page, loginAsStudent }) => {
  await loginAsStudent();
  await page.goto("/backpack/settings");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "blue");
  // The radio itself is visually hidden under its colour swatch: choose it as a person does, by its label.
  const green = page.getByRole("radio", { name: "森林绿" });
  await page.locator("label").filter({ has: green }).click();
  await expect(green).toBeChecked();
  await page.getByRole("button", { name: "保存主题" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "green");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "green");
  await expect(green).toBeChecked();
});

test("an unknown URL shows the 404 page with status 404", async ({ page, loginAsStudent }) => {
  await loginAsStudent();
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "页面走丢了" })).toBeVisible();
});
