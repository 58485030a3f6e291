import type { Browser, Page } from "@playwright/test";
import { scheduleHref } from "../../app/lib/schedule";
import { termForDate } from "../../app/lib/term";
import { expect, test } from "./fixtures";
import { demoLogin } from "./steps";

// The timetable a student can change: their own courses (with and without JavaScript), overrides
// of the school's courses that survive a refresh, hiding, undo, the greyed other weeks and today's
// card. The demo's 20230040 has 20230001's courses and is used by no other spec.
const STUDENT = "20230040";
const TERM = termForDate(new Date()).code;

async function login(page: Page, to = "/schedule") {
  await demoLogin(page, STUDENT, to);
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[?]/g, "\\?")}$`), { timeout: 30_000 });
}

async function newPage(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  return context.newPage();
}

const grid = (page: Page) => page.getByRole("table");

test.describe.configure({ mode: "serial" });
// Long journeys on a shared 2-core machine.
test.setTimeout(60_000);

test("without JavaScript a student adds a course: errors beside the fields, the clash marked, and 撤销", async ({ browser }) => {
  const page = await newPage(browser, false);
  await login(page, scheduleHref(TERM, 3));
  await expect(page.getByRole("heading", { name: "今日课程" })).toBeVisible();

  await page.getByRole("link", { name: "添加课程" }).click();
  await expect(page).toHaveURL(/\/schedule\/courses\/new\?/);
  await page.getByLabel("教室").fill("图书馆301");
  await page.getByLabel("周次").fill("1-8,30");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("请填写课程名称")).toBeVisible();
  await expect(page.getByText("周次格式不对，例如 1-8,10-16 或 1-15单")).toBeVisible();
  // What was typed is still there.
  await expect(page.getByLabel("教室")).toHaveValue("图书馆301");
  await expect(page.getByLabel("周次")).toHaveValue("1-8,30");

  await page.getByLabel("课程名称").fill("考研英语");
  await page.getByLabel("星期").selectOption("1");
  await page.getByLabel("开始节次").selectOption("1");
  await page.getByLabel("结束节次").selectOption("2");
  await page.getByLabel("周次").fill("1-8,10-16");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/schedule\?term=.*week=3.*notice=saved/);
  await expect(page.getByRole("status").filter({ hasText: "已保存" })).toContainText("与「数据结构」时间冲突，已在课表中标出");
  const own = grid(page).getByRole("link", { name: /考研英语/ });
  await expect(own).toContainText("冲突");
  await expect(grid(page).getByRole("link", { name: /冲突\s*数据结构/ })).toBeVisible();

  await page.getByRole("button", { name: "撤销" }).click();
  await expect(page.getByRole("status").filter({ hasText: "已撤销" })).toBeVisible();
  await expect(grid(page).getByRole("link", { name: /考研英语/ })).toHaveCount(0);
  await page.context().close();
});

test("a school course's room changed here survives a refresh; hidden and shown again; other weeks greyed", async ({ browser }) => {
  const page = await newPage(browser, true);
  await login(page, scheduleHref(TERM, 3));

  await grid(page).getByRole("link", { name: /数据结构/ }).first().click();
  await page.getByRole("dialog", { name: "数据结构" }).getByRole("link", { name: "修改这门课" }).click();
  await expect(page.getByRole("heading", { name: "编辑课程" })).toBeVisible();
  await expect(page.getByText("这门课来自教务系统")).toBeVisible();
  await page.getByLabel("教室").fill("信息楼B999");
  await page.getByLabel("备注").fill("带笔记本电脑");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByRole("status").filter({ hasText: "已保存" })).toBeVisible();
  await expect(grid(page).getByRole("link", { name: /数据结构\s*@信息楼B999/ })).toBeVisible();

  // A refresh from the school replaces its copy; the change stays.
  await page.getByRole("button", { name: "刷新课表" }).click();
  await expect(page.getByRole("status").filter({ hasText: "课表已更新" })).toBeVisible({ timeout: 20_000 });
  await expect(grid(page).getByRole("link", { name: /数据结构\s*@信息楼B999/ })).toBeVisible();

  // Hide it; it is listed under the grid and comes back from there.
  await grid(page).getByRole("link", { name: /数据结构\s*@信息楼B999/ }).click();
  await page.getByRole("dialog", { name: "数据结构" }).getByRole("link", { name: "修改这门课" }).click();
  await page.getByRole("button", { name: "在课表中隐藏" }).click();
  await expect(page.getByRole("status").filter({ hasText: "已隐藏" })).toBeVisible();
  await expect(grid(page).getByRole("link", { name: /数据结构\s*@信息楼B999/ })).toHaveCount(0);
  const hidden = page.getByRole("region", { name: "已隐藏的课程" });
  await expect(hidden).toContainText("数据结构");
  await hidden.getByRole("button", { name: "恢复显示" }).click();
  await expect(grid(page).getByRole("link", { name: /数据结构\s*@信息楼B999/ })).toBeVisible();

  // Back to the school's data.
  await grid(page).getByRole("link", { name: /数据结构\s*@信息楼B999/ }).click();
  await page.getByRole("dialog", { name: "数据结构" }).getByRole("link", { name: "修改这门课" }).click();
  await page.getByRole("button", { name: "恢复为教务数据" }).click();
  await expect(page.getByRole("status").filter({ hasText: "已恢复为教务数据" })).toBeVisible();
  await expect(grid(page).getByRole("link", { name: /数据结构\s*@信息楼A301/ }).first()).toBeVisible();

  // Week 3 is odd: 大学物理实验 (even weeks) shows greyed once the setting is on.
  await expect(grid(page).getByRole("link", { name: /大学物理实验/ })).toHaveCount(0);
  await page.getByRole("link", { name: "提醒设置" }).click();
  const sheet = page.getByRole("dialog", { name: "提醒设置" });
  await sheet.getByLabel("显示非本周课程").check();
  await sheet.getByLabel("日历提醒").selectOption("30");
  await sheet.getByRole("button", { name: "保存", exact: true }).click();
  await expect(sheet.getByText("设置已保存")).toBeVisible();
  await expect(sheet.getByLabel("日历提醒")).toHaveValue("30");
  await expect(grid(page).getByRole("link", { name: /非本周\s*大学物理实验/ })).toBeVisible();
  await page.context().close();
});

test("offline, /schedule opens this week's copy with the 离线 mark; other pages are not kept", async ({ browser }) => {
  const page = await newPage(browser, true);
  await login(page);
  // The login lands on /schedule by a client-side navigation: that document was created at
  // /crLogin, outside the worker's scope, so its serviceWorker.ready never settles. A full load
  // of /schedule is what a student opening the timetable gets.
  await page.goto("/schedule");
  await expect(page.locator("#offline-mark")).toBeHidden();
  // The service worker is registered by this page only; once it controls the page, a load is kept.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await page.reload();
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).sort())).toEqual(["schedule-assets-v1", "schedule-page-v1"]);

  await page.context().setOffline(true);
  await page.goto("/schedule");
  await expect(page.locator("#offline-mark")).toBeVisible();
  await expect(page.locator("#offline-mark")).toHaveText(/离线 · 更新于/);
  expect(await page.locator("#offline-mark").getAttribute("data-time")).toMatch(/\d{2}\/\d{2} \d{2}:\d{2}/);
  await expect(grid(page).getByRole("link", { name: /数据结构/ }).first()).toBeVisible();
  // Only the page and the built assets are kept: nothing of /backpack, the market or orders.
  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    return urls;
  });
  expect(kept.filter((path) => !path.startsWith("/build/") && !path.startsWith("/assets/") && path !== "/favicon.svg")).toEqual(["/schedule"]);
  await page.context().setOffline(false);
  await page.context().close();
});
