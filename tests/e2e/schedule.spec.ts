import type { Page } from "@playwright/test";
import { currentWeek } from "../../app/lib/schedule";
import { defaultWeek1Start, termForDate } from "../../app/lib/term";
import { shanghaiToday } from "../../app/lib/time";
import { E2E_BASE_URL } from "./env";
import { expect, insertStudentSession, test } from "./fixtures";

// The demo school's third student (20230001's courses): no other spec logs in with it, so a login
// elsewhere never ends this test's session. The demo's current term follows the clock.
const STUDENT = "20230003";
const TERM = termForDate(new Date()).code;
const THIS_WEEK = currentWeek(shanghaiToday(), defaultWeek1Start(TERM)!);

async function login(page: Page) {
  await page.goto("/schedule");
  await expect(page).toHaveURL(/\/crLogin\?redirectTo=%2Fschedule$/);
  await expect(page.getByRole("alert")).toHaveText("请先登录");
  await page.getByLabel("学校").selectOption("demo");
  await page.getByLabel("学号", { exact: true }).fill(STUDENT);
  await page.getByLabel("密码", { exact: true }).fill("demo1234");
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page).toHaveURL(/\/schedule$/);
}

const grid = (page: Page) => page.getByRole("table");
const weekHeading = (page: Page, week: number) => page.getByRole("link", { name: `选择周次：第${week}周` });

test("a student sees this week, moves to the next, opens a course and publishes a mutual-help request that others answer", async ({ page, browser }) => {
  test.setTimeout(60_000); // a week, a course, a request, two helpers (one without JavaScript) and the circle
  await login(page);

  // This week of the current term, Monday to Sunday, with the week marked.
  await expect(weekHeading(page, THIS_WEEK)).toContainText("本周");
  await expect(page.getByLabel("学期", { exact: true })).toHaveValue(TERM);
  await expect(grid(page).getByRole("columnheader")).toHaveText(["", "周一", "周二", "周三", "周四", "周五", "周六", "周日"].map((day) => new RegExp(day)));
  await expect(page.getByText(/同步于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/)).toBeVisible();
  if (THIS_WEEK <= 16) await expect(grid(page).getByRole("link", { name: /数据结构/ }).first()).toBeVisible();

  // Next week; the demo teaches weeks 1–16, so pick week 3 from the list when next week is empty.
  await page.getByRole("link", { name: "下一周" }).click();
  const next = Math.min(THIS_WEEK + 1, 26);
  await expect(page).toHaveURL(new RegExp(`week=${next}$`));
  await expect(weekHeading(page, next)).toBeVisible();
  let week = next;
  if (next > 16) {
    await page.getByRole("dialog", { name: "本周没有课程" }).getByRole("link", { name: "知道了" }).click();
    await weekHeading(page, next).click();
    await page.getByRole("dialog", { name: "选择周次" }).getByRole("link", { name: "3", exact: true }).click();
    week = 3;
    await expect(weekHeading(page, 3)).toBeVisible();
  }
  // Odd/even weeks: the classes 离散数学 (odd weeks) and 大学物理实验 (even weeks) never show together.
  // Their exams sit in the grid too, on their own day and marked 考试: those are not the classes.
  const odd = week % 2 === 1;
  const classCard = (name: RegExp) => grid(page).getByRole("link", { name }).filter({ hasNotText: "考试" });
  await expect(classCard(/离散数学/)).toHaveCount(odd ? 1 : 0);
  await expect(classCard(/大学物理实验/)).toHaveCount(odd ? 0 : 1);

  // The course dialog: name, teacher, place, weeks as ranges; materials are 'coming soon'.
  await grid(page).getByRole("link", { name: /数据结构/ }).first().click();
  const dialog = page.getByRole("dialog", { name: "数据结构" });
  await expect(dialog).toContainText("王建华");
  await expect(dialog).toContainText("信息楼A301");
  await expect(dialog).toContainText("1-16周");
  await dialog.getByRole("link", { name: "课程资料" }).click();
  await expect(page.getByRole("status")).toHaveText("课程资料功能即将上线，敬请期待");

  // Mutual help for this class of the student's own timetable: named by its place, never by text.
  await page.getByRole("dialog", { name: "数据结构" }).getByRole("link", { name: "互助代签" }).click();
  await expect(page).toHaveURL(new RegExp(`/schedule/mutual-help\\?term=${TERM}&week=${week}&course=\\d+$`));
  await expect(page.getByRole("heading", { name: "互助代签" })).toBeVisible();
  await expect(page.getByText("信息楼A301")).toBeVisible();
  await expect(page.getByText("王芳")).toBeVisible();
  await expect(page.getByText(STUDENT)).toBeVisible();
  const publish = page.getByRole("button", { name: "发布互助" });
  await expect(publish).toBeDisabled();
  await page.getByText("普通课").click();
  await expect(page.locator("[aria-live=polite]")).toHaveText("¥25");
  await page.getByText("实验课").click();
  await expect(page.locator("[aria-live=polite]")).toHaveText("¥30");
  await page.getByLabel("备注（选填）").fill("老师会点名，请坐前三排");
  // A contact that is neither a WeChat id nor a mobile number is refused beside the field, the note kept.
  await page.getByLabel("联系方式（选填）").fill("abc");
  await publish.click();
  await expect(page.getByText("请填写正确的微信号（6-20位，字母开头）或11位手机号")).toBeVisible();
  await expect(page.getByLabel("备注（选填）")).toHaveValue("老师会点名，请坐前三排");
  await page.getByText("实验课").click();
  await page.getByLabel("联系方式（选填）").fill("wx_demo_req");
  await publish.click();

  // The request is a circle post: titled with the course, in progress.
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByText("数据结构").first()).toBeVisible();
  await expect(page.getByText("费用：30元")).toBeVisible();
  await expect(page.getByText("进行中").first()).toBeVisible();
  await expect(page.getByText("wx_demo_req")).toHaveCount(0); // the contact is not in the post's text

  // Another student answers with 我来帮忙 (without JavaScript): both get the other's contact.
  const postUrl = page.url();
  for (const javaScriptEnabled of [false, true]) {
    const helperContext = await browser.newContext({ javaScriptEnabled });
    const helper = await insertStudentSession({ nickname: javaScriptEnabled ? "热心同学乙" : "热心同学甲" });
    await helperContext.addCookies([{ name: "__session", value: helper.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
    const helperPage = await helperContext.newPage();
    await helperPage.goto(postUrl);
    await helperPage.getByRole("link", { name: "我来帮忙" }).click();
    const sheet = helperPage.getByRole("dialog", { name: "我来帮忙" });
    await sheet.getByRole("button", { name: "确认帮忙" }).click();
    await expect(sheet.getByText("请填写你的联系方式（微信号或手机号），方便对方联系你")).toBeVisible();
    await sheet.getByLabel("你的联系方式").fill(javaScriptEnabled ? "13800001111" : "wx_helper_a");
    await sheet.getByRole("button", { name: "确认帮忙" }).click();
    await expect(sheet.getByText("已通知对方，对方的联系方式已发到你的消息中心")).toBeVisible();
    await expect(sheet.getByText("wx_demo_req")).toBeVisible();
    await helperPage.goto("/backpack/inbox");
    await expect(helperPage.getByText("对方的联系方式：wx_demo_req")).toBeVisible();
    await helperContext.close();
  }
  await page.getByRole("link", { name: "查看报名" }).click();
  const offers = page.getByRole("dialog", { name: "报名帮忙的同学" });
  await expect(offers.getByText("热心同学甲")).toBeVisible();
  await expect(offers.getByText("wx_helper_a")).toBeVisible();
  await expect(offers.getByText("13800001111")).toBeVisible();
  await page.goto("/backpack/inbox");
  await expect(page.getByText("热心同学甲 愿意帮你代签「数据结构」")).toBeVisible();
  await page.goto(postUrl);

  // Its author marks it completed on the post (the circle's button); the circle shows it too.
  const postPath = new URL(page.url()).pathname;
  await page.getByRole("button", { name: "标记为已完成" }).click();
  await expect(page.getByText("已完成").first()).toBeVisible();
  await expect(page.getByText("进行中")).toHaveCount(0);
  // Other journeys publish at the same time: the list from this post down (its cursor) has its card first.
  await page.goto(`/circle?before=${Number(postPath.split("/").pop()) + 1}`);
  const card = page.locator(`a[href="${postPath}"]`).first();
  await expect(card).toContainText("数据结构");
  await expect(card).toContainText("已完成");
});

test("the timetable works without JavaScript: weeks, the week list, dialogs, mutual help, terms and the reminder switches", async ({ browser }) => {
  test.setTimeout(60_000); // weeks, the week list, dialogs, mutual help, terms and the reminders, page by page
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await login(page);

  await expect(weekHeading(page, THIS_WEEK)).toBeVisible();
  const target = THIS_WEEK < 26 ? THIS_WEEK + 1 : THIS_WEEK - 1;
  await page.getByRole("link", { name: THIS_WEEK < 26 ? "下一周" : "上一周" }).click();
  await expect(page).toHaveURL(`/schedule?term=${TERM}&week=${target}`);
  await expect(weekHeading(page, target)).toBeVisible();
  await page.getByRole("link", { name: "回到本周" }).click();
  await expect(weekHeading(page, THIS_WEEK)).toBeVisible();

  // The week list is a sheet of links.
  await weekHeading(page, THIS_WEEK).click();
  await page.getByRole("dialog", { name: "选择周次" }).getByRole("link", { name: "2", exact: true }).click();
  await expect(page).toHaveURL(`/schedule?term=${TERM}&week=2`);
  await expect(grid(page).getByRole("link", { name: /大学物理实验/ })).toHaveCount(1);

  // A course dialog opens and closes with links.
  await grid(page).getByRole("link", { name: /数据结构/ }).first().click();
  await expect(page.getByRole("dialog", { name: "数据结构" })).toBeVisible();
  await page.getByRole("link", { name: "关闭" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Mutual help is a plain form: a bad contact comes back beside its field with the note kept,
  // then the request is published as a circle post.
  await grid(page).getByRole("link", { name: /数据结构/ }).first().click();
  await page.getByRole("dialog", { name: "数据结构" }).getByRole("link", { name: "互助代签" }).click();
  await expect(page).toHaveURL(new RegExp(`/schedule/mutual-help\\?term=${TERM}&week=2&course=\\d+$`));
  const publish = page.getByRole("button", { name: "发布互助" });
  await page.getByText("普通课").click();
  await page.getByLabel("备注（选填）").fill("无脚本也能发布");
  await page.getByLabel("联系方式（选填）").fill("abc");
  await publish.click();
  await expect(page.getByText("请填写正确的微信号（6-20位，字母开头）或11位手机号")).toBeVisible();
  await expect(page.getByLabel("备注（选填）")).toHaveValue("无脚本也能发布");
  await expect(page.getByLabel("联系方式（选填）")).toHaveValue("abc");
  await page.getByLabel("联系方式（选填）").fill("13800002222");
  await page.getByRole("button", { name: "发布互助" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByText("费用：25元")).toBeVisible();
  await expect(page.getByText("13800002222")).toHaveCount(0); // shown to helpers only, not in the post
  await page.goto(`/schedule?term=${TERM}&week=2`);

  // Another term through the form's own button.
  const other = await page.getByLabel("学期", { exact: true }).locator("option").nth(1).getAttribute("value");
  await page.getByLabel("学期", { exact: true }).selectOption(other!);
  await page.getByRole("button", { name: "切换学期" }).click();
  await expect(page).toHaveURL(new RegExp(`term=${other}`));
  await expect(page.getByLabel("学期", { exact: true })).toHaveValue(other!);

  // The notification sheet saves the switches on the server.
  await page.getByRole("link", { name: "提醒设置" }).click();
  const sheet = page.getByRole("dialog", { name: "提醒设置" });
  await expect(sheet.getByRole("switch", { name: /上课提醒/ })).not.toBeChecked();
  await sheet.getByText("上课提醒").click();
  await sheet.getByText("公告提醒").click();
  await sheet.getByRole("button", { name: "保存提醒设置" }).click();
  await expect(page.getByRole("status")).toHaveText("提醒设置已保存");
  await page.goto("/schedule?dialog=notify");
  const again = page.getByRole("dialog", { name: "提醒设置" });
  await expect(again.getByRole("switch", { name: /上课提醒/ })).toBeChecked();
  await expect(again.getByRole("switch", { name: /代签提醒/ })).not.toBeChecked();
  await expect(again.getByRole("switch", { name: /公告提醒/ })).toBeChecked();

  // The calendar address, and the feed behind it.
  await again.getByRole("button", { name: "生成订阅地址" }).click();
  const address = await page.getByLabel("订阅地址").inputValue();
  expect(address).toMatch(/\/schedule\/calendar\/[\w-]{43}\.ics$/);
  const feed = await page.request.get(new URL(address).pathname);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  expect(await feed.text()).toContain("SUMMARY:数据结构");
  await context.close();
});

test("the timetable keeps Latin words whole and its floating buttons clear the grid", async ({ page }) => {
  await login(page);
  await page.goto(`/schedule?term=${TERM}&week=3`);
  const card = page.getByRole("link", { name: /Python程序设计/ }).first();
  await expect(card).toBeVisible();
  // "Python" sits on one line: the range over its six letters has a single line box.
  const pythonLines = await card.evaluate((link) => {
    const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf("Python") ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + "Python".length);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    }
    return -1;
  });
  expect(pythonLines).toBe(1);

  // Today's card above the grid, and this week's exams sharing cells with classes, leave the
  // whole grid above the floating buttons, in week 3 and in this week.
  await expect(page.getByRole("heading", { name: "今日课程" })).toBeVisible();
  for (const week of [3, THIS_WEEK]) {
    await page.goto(`/schedule?term=${TERM}&week=${week}`);
    await expect(page.getByRole("heading", { name: "今日课程" })).toBeVisible();
    const grid = await page.getByRole("table").boundingBox();
    for (const [role, name] of [["link", "回到本周"], ["button", "刷新课表"], ["link", "提醒设置"]] as const) {
      const box = await page.getByRole(role, { name, exact: true }).boundingBox();
      expect(box!.y, `${name} starts below the grid of week ${week}`).toBeGreaterThanOrEqual(grid!.y + grid!.height);
    }
  }
});
