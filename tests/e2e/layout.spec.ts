// Layout at 390×844 that students noticed: a toast does not push the list down, and a missing post
// leads back to the circle. (The timetable's layout checks are in schedule.spec.ts, with its login.)
import { expect, test } from "./fixtures";

test("a notice on the circle (a shortcut still in development) does not push the list down", async ({ page, loginAsStudent }) => {
  await loginAsStudent();
  await page.goto("/circle");
  const categories = page.getByRole("navigation", { name: "分类" });
  const before = await categories.boundingBox();
  await page.getByRole("link", { name: "倒数日" }).click();
  await expect(page.getByRole("status")).toBeVisible();
  const after = await categories.boundingBox();
  expect(after!.y).toBe(before!.y);
});

test("a missing post's 回到校园圈 leads back to the circle", async ({ page, loginAsStudent }) => {
  await loginAsStudent();
  await page.goto("/post/987654");
  await expect(page.getByRole("link", { name: "回到校园圈" })).toHaveAttribute("href", "/circle");
});
