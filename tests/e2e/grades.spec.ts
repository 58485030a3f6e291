import type { Page } from "@playwright/test";
import { formatGpa, summariseGrades } from "../../app/lib/grades";
import { createDemoSystem } from "../../app/server/school/demo.server";
import { expect, test } from "./fixtures";

// The demo school's fourth student (20230001's grades, exams and ranking): no other spec logs in
// with it, so a login elsewhere never ends this test's session.
const STUDENT = "20230004";

async function login(page: Page, path: string) {
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`/crLogin\\?redirectTo=${encodeURIComponent(path)}$`));
  await page.getByLabel("学校").selectOption("demo");
  await page.getByLabel("学号", { exact: true }).fill(STUDENT);
  await page.getByLabel("密码", { exact: true }).fill("demo1234");
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

/** What the page must show, from the same demo data and GPA rules. */
async function expected() {
  const demo = createDemoSystem();
  const login = await demo.login(STUDENT, "demo1234");
  if (!login.ok) throw new Error("demo login failed");
  const report = await demo.grades(login.session);
  if ("sessionExpired" in report) throw new Error("expired");
  return summariseGrades(report.grades);
}

async function checkGrades(page: Page) {
  const summary = await expected();
  await expect(page.getByTestId("overall-gpa")).toHaveText(formatGpa(summary.overall));
  await expect(page.getByTestId("required-gpa")).toHaveText(formatGpa(summary.required));
  // The chart: one point per term, labelled for screen readers with every term's GPA.
  const chart = page.getByRole("img", { name: /各学期绩点折线图/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator("circle")).toHaveCount(summary.terms.length);
  for (const term of summary.terms) await expect(chart).toHaveAttribute("aria-label", new RegExp(formatGpa(term.gpa)));
  // The ranking the demo school's system publishes.
  await expect(page.getByTestId("ranking")).toHaveText("专业排名 第 12 / 86 名");
  // 补考 and 重修 rows, and the original they replaced greyed out.
  await expect(page.getByText("补考", { exact: true })).toBeVisible();
  await expect(page.getByText("重修", { exact: true })).toBeVisible();
  await expect(page.getByText("已被补考/重修成绩替代").first()).toBeVisible();
}

async function checkExams(page: Page) {
  const exams = page.getByTestId("exam");
  await expect(exams).toHaveCount(6);
  // Upcoming first, soonest on top, each with its countdown; then the unscheduled; past ones last, greyed.
  await expect(page.getByTestId("countdown")).toHaveText(["还有 2 天", "还有 9 天", "还有 16 天", "时间待定", "已结束", "已结束"]);
  await expect(exams.first()).toContainText("离散数学");
  await expect(exams.first()).toContainText("教二-204");
  await expect(exams.first()).toContainText("23");
  await expect(exams.nth(4)).toHaveAttribute("data-past", "true");
  await expect(exams.nth(4)).toHaveCSS("opacity", "0.6");
  await expect(exams.first()).toHaveCSS("opacity", "1");
}

test("grades with the GPA chart and ranking; the new-grade switch and refresh", async ({ page }) => {
  await login(page, "/backpack/grades");
  await checkGrades(page);
  await page.screenshot({ path: test.info().outputPath("grades.png"), fullPage: true });

  await page.getByLabel("有新成绩时通过微信模板消息提醒我").check();
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByRole("status").filter({ hasText: "提醒设置已保存" })).toBeVisible();
  await expect(page.getByLabel("有新成绩时通过微信模板消息提醒我")).toBeChecked();

  await page.getByRole("button", { name: "刷新" }).click();
  await expect(page.getByText("已从教务系统刷新")).toBeVisible();
  await expect(page).toHaveURL(/notice=synced$/);

  // The backpack's entries lead here now.
  await page.goto("/backpack");
  await page.getByRole("link", { name: "考试安排" }).click();
  await expect(page).toHaveURL(/\/backpack\/exams$/);
  await checkExams(page);
  await page.screenshot({ path: test.info().outputPath("exams.png"), fullPage: true });
  await page.goto("/backpack");
  await page.getByRole("link", { name: "绩点排名" }).click();
  await expect(page).toHaveURL(/\/backpack\/grades#ranking$/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("grades, the switch and exams work as plain pages", async ({ page }) => {
    await login(page, "/backpack/grades");
    await checkGrades(page);
    await page.getByLabel("有新成绩时通过微信模板消息提醒我").check();
    await page.getByRole("button", { name: "保存" }).click();
    await expect(page.getByText("提醒设置已保存")).toBeVisible();
    await page.getByRole("button", { name: "刷新" }).click();
    await expect(page.getByText("已从教务系统刷新")).toBeVisible();

    await page.goto("/backpack/exams");
    await checkExams(page);
    await page.getByLabel("学期").selectOption({ index: 1 });
    await page.getByRole("button", { name: "切换" }).click();
    await expect(page).toHaveURL(/term=/);
    // An earlier term: its empty list is history, not "not yet".
    await expect(page.getByText(/学期已经结束，没有查到这个学期的考试安排/)).toBeVisible();
  });
});

