import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// The recognised list at 390×844: the whole pickup code is always visible (it was cut
// to '12-3-45…'), and the carrier is shown with the station on their own line below it.

const PASTE = [
  "【菜鸟驿站】您的中通包裹已到达梨园学生公寓十二栋一楼菜鸟驿站(南门店)，取件码 12-3-4567，请凭码取件。",
  "【兔喜生活】您的圆通快递已到书香苑兔喜快递超市，凭取件码 B15-2-33078 取件。",
  "【京东快递】您的快件JDVC30194857261已到达京东便民站(体育馆东门店)，请携带身份证领取。",
].join("\n\n");

const EXPECTED = [
  { credential: "12-3-4567", company: "中通快递", station: "梨园学生公寓十二栋一楼菜鸟驿站(南门店)" },
  { credential: "B15-2-33078", company: "圆通速递", station: "书香苑兔喜快递超市" },
  { credential: "JDVC30194857261", company: "京东快递", station: "京东便民站(体育馆东门店)" },
];

async function chooseCampusAndAuthorize(page: Page) {
  const selector = page.getByRole("dialog", { name: "选择你的校区" });
  await expect(selector).toBeVisible();
  await selector.getByRole("button", { name: /金盆岭校区/ }).click();
  await expect(selector).toBeHidden();
  await page.getByRole("link", { name: "去授权" }).click();
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/market/);
}

test("the list shows every pickup code whole at 390 px, the carrier with the station below it", async ({ page }) => {
  await page.goto("/market");
  await chooseCampusAndAuthorize(page);
  await page.getByRole("textbox", { name: "取件短信" }).fill(PASTE);
  const entries = page.getByTestId("pickup-entry");
  await expect(entries).toHaveCount(EXPECTED.length, { timeout: 8_000 });

  const viewport = page.viewportSize()!;
  expect(viewport.width).toBe(390);
  for (const [index, expected] of EXPECTED.entries()) {
    const entry = entries.nth(index);
    const credential = entry.getByTestId("pickup-credential");
    await expect(credential).toHaveText(expected.credential);
    // Not clipped: no ellipsis, no hidden overflow, and the whole box inside the screen.
    const layout = await credential.evaluate((element) => {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      return { textOverflow: style.textOverflow, scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, left: box.left, right: box.right, bottom: box.bottom };
    });
    expect(layout.textOverflow).not.toBe("ellipsis");
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    expect(layout.left).toBeGreaterThanOrEqual(0);
    expect(layout.right).toBeLessThanOrEqual(viewport.width);
    // The carrier and the station share the line under the code.
    const line = entry.getByTestId("pickup-carrier-station");
    await expect(line).toContainText(expected.company);
    await expect(line).toContainText(expected.station);
    const lineTop = await line.evaluate((element) => element.getBoundingClientRect().top);
    expect(lineTop).toBeGreaterThanOrEqual(layout.bottom - 1);
  }
});
