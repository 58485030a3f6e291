// A server shedding load refuses a data request before Remix runs; the student must read that the
// server is busy and get the same page back with one tap, not the generic error screen.
import { singleFetchRefusal } from "../../app/server/http/data-refusal";
import { errors } from "../../app/lib/messages/errors";
import { refusals } from "../../app/lib/messages/refusals";
import { expect, test } from "./fixtures";

test("a navigation refused while the server is busy says so and 重试 brings the page", async ({ page, loginAsStudent }) => {
  await loginAsStudent();
  await page.goto("/circle");
  await page.waitForLoadState("networkidle"); // hydrated: the tab bar navigates on the client
  // The refusal as the pipeline writes it (fairness.test.ts proves the pipeline sends exactly this).
  await page.route("**/backpack.data*", async (route) => {
    const url = new URL(route.request().url());
    await route.fulfill({ status: 503, headers: { "Content-Type": "text/x-script", "Retry-After": "1" }, body: await singleFetchRefusal("GET", url.search, 503, refusals.overloaded) });
  });
  await page.getByRole("link", { name: "书包" }).click();
  await expect(page.getByRole("heading", { name: errors.overloadedTitle })).toBeVisible();
  await expect(page.getByText(refusals.overloaded)).toBeVisible();
  await expect(page.getByText("出了点问题")).toHaveCount(0);
  await page.unroute("**/backpack.data*");
  await page.getByRole("link", { name: "重试" }).click();
  await expect(page).toHaveURL(/\/backpack$/);
  await expect(page.getByRole("heading", { name: errors.overloadedTitle })).toHaveCount(0);
});
