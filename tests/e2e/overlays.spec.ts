// Modal overlays dim the whole screen: no undimmed strip at the top (a parent's space-y margin
// once pushed fixed overlays 12 px down), on the backpack's campus selector, the logout
// confirmation and a market sheet.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** True when the topmost element at (x, y) belongs to a full-screen fixed overlay. */
async function overlayAt(page: Page, x: number, y: number) {
  return page.evaluate(
    ([px, py]) => {
      const element = document.elementFromPoint(px!, py!);
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        const rect = node.getBoundingClientRect();
        if (style.position === "fixed" && rect.top <= 0 && rect.height >= window.innerHeight) return true;
      }
      return false;
    },
    [x, y],
  );
}

for (const [name, url, waitFor] of [
  ["the backpack's campus selector", "/backpack?selectCampus=1", "dialog"],
  ["the logout confirmation", "/backpack/settings?confirm=logout", "alertdialog"],
  ["the market's size-guide sheet", "/market?sheet=size", "dialog"],
] as const) {
  test(`${name} covers the screen from its very top`, async ({ page, loginAsStudent }) => {
    await loginAsStudent();
    await page.goto(url);
    await expect(page.getByRole(waitFor).first()).toBeVisible();
    for (const y of [1, 6, 11, 400, 840]) expect(await overlayAt(page, 195, y), `y=${y}`).toBe(true);
  });
}
