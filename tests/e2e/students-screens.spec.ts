// The three screens Lighthouse checks, at 390×844 in both appearances, as screenshots
// to look at (test-results/students-screens-*.png); each must render its heading and landmarks.
import { E2E_BASE_URL } from "./env";
import { expect, test } from "./fixtures";

for (const appearance of ["light", "dark"] as const) {
  for (const path of ["/circle", "/schedule", "/market"]) {
    test(`${path} in the ${appearance} appearance`, async ({ page, context, loginAsStudent }) => {
      await loginAsStudent({ nickname: "看截图的同学" });
      await context.addCookies([{ name: "appearance", value: appearance, url: E2E_BASE_URL }]);
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("data-appearance", appearance);
      await expect(page.getByRole("main").first()).toBeVisible();
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: `test-results/students-screens${path.replace(/\//g, "-")}-${appearance}.png`, fullPage: false });
    });
  }
}
