import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { scheduleHref } from "../../app/lib/schedule";
import { termForDate } from "../../app/lib/term";
import { FIXTURES } from "../fixtures/timetable-exports";
import { expect, test } from "./fixtures";
import { demoLogin } from "./steps";

// Importing a timetable file without JavaScript: the link from 添加课程, a refused .xls with its
// message beside the file field, a ZFsoft export read into a preview (with what could not be
// read), confirmed into the grid. 20230047 has 20230001's courses and is used by no other spec.
const STUDENT = "20230047";
const TERM = termForDate(new Date()).code;

async function login(page: Page, to: string) {
  await demoLogin(page, STUDENT, to);
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[?]/g, "\\?")}$`), { timeout: 30_000 });
}

test.setTimeout(60_000);

test("without JavaScript a student imports a ZFsoft export: .xls refused, preview, confirm, in the grid", async ({ browser }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "timetable-import-"));
  const xlsx = path.join(dir, "课表.xlsx");
  fs.writeFileSync(xlsx, await FIXTURES.find((fixture) => fixture.name === "zfsoft-v9")!.build());
  const xls = path.join(dir, "课表.xls");
  fs.writeFileSync(xls, Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(1024)]));

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await login(page, scheduleHref(TERM, 3));
  await page.getByRole("link", { name: "添加课程" }).click();
  await page.getByRole("link", { name: "从教务系统导出的文件导入" }).click();
  await expect(page.getByRole("heading", { name: "从文件导入课表" })).toBeVisible();

  await page.getByLabel("课表文件（.xlsx，不超过 1 MB）").setInputFiles(xls);
  await page.getByRole("button", { name: "读取课表" }).click();
  await expect(page.getByRole("alert")).toHaveText("这是旧版 Excel（.xls）文件，暂不支持。请用 Excel 或 WPS 打开后「另存为」.xlsx 格式，再上传。");

  await page.getByLabel("课表文件（.xlsx，不超过 1 MB）").setInputFiles(xlsx);
  await page.getByRole("button", { name: "读取课表" }).click();
  await expect(page.getByRole("heading", { name: "识别到 7 门课" })).toBeVisible();
  await expect(page.getByTestId("import-course").filter({ hasText: "高等数学A(2)" })).toContainText("周一 第1-2节 · 1-16周");
  await expect(page.getByTestId("import-course").filter({ hasText: "生理学(甲)" })).toContainText("1-8周,10-16周(双)");
  await expect(page.getByTestId("import-unread")).toHaveText("其他课程：形势与政策4 陈老师 12-15周 无上课时间");
  await page.screenshot({ path: path.join("test-results", "timetable-import-preview.png"), fullPage: true });

  await page.getByRole("button", { name: "确认导入" }).click();
  await expect(page).toHaveURL(/\/schedule\?term=.*week=3.*notice=imported/);
  await expect(page.getByRole("status").filter({ hasText: "已导入课程" })).toBeVisible();
  const grid = page.getByRole("table");
  await expect(grid.getByRole("link", { name: /高等数学A\(2\)/ })).toContainText("冲突");
  // Periods 1-5 take three of the grid's slots.
  await expect(grid.getByRole("link", { name: /动画基础/ })).toHaveCount(3);
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("with JavaScript a QiangZhi export is previewed in the week's order and confirmed", async ({ browser }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "timetable-import-"));
  const xlsx = path.join(dir, "学期理论课表.xlsx");
  fs.writeFileSync(xlsx, await FIXTURES.find((fixture) => fixture.name === "qiangzhi-jsxsd")!.build());
  const context = await browser.newContext({ javaScriptEnabled: true });
  const page = await context.newPage();
  await login(page, `/schedule/import?term=${TERM}&week=3`);
  await page.getByLabel("课表文件（.xlsx，不超过 1 MB）").setInputFiles(xlsx);
  await page.getByRole("button", { name: "读取课表" }).click();
  await expect(page.getByRole("heading", { name: "识别到 6 门课" })).toBeVisible();
  await expect(page.getByTestId("import-course").first()).toContainText("线性代数");
  await expect(page.getByTestId("import-course").filter({ hasText: "操作系统" })).toContainText("周三 第3-4节 · 2-10周(双),14-18周(双)");
  await expect(page.getByTestId("import-unread")).toHaveText("周一 备注：实训12-13周");
  await page.getByRole("button", { name: "确认导入" }).click();
  await expect(page).toHaveURL(/\/schedule\?term=.*week=3.*notice=imported/);
  await expect(page.getByRole("table").getByRole("link", { name: /计算机网络/ })).toBeVisible();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
