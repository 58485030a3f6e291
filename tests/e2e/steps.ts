// Steps several specs take the same way: logging in as a demo-school student, the simulated
// messenger authorization, choosing a campus, a draft post whose session is replaced before it is
// sent, and posts written straight into the e2e database for paging.
import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { E2E_DB_FILE } from "./env";
import { expect, replaceSession } from "./fixtures";

/** `text` with a random tail, so a run never meets an earlier run's rows. */
export function unique(text: string) {
  return `${text} ${crypto.randomBytes(3).toString("hex")}`;
}

/** Fills the open login form as a demo-school student (its password, the test captcha) and sends it. */
export async function submitDemoLogin(page: Page, studentId: string) {
  await page.getByLabel("学校").selectOption("demo");
  await page.getByLabel("学号", { exact: true }).fill(studentId);
  await page.getByLabel("密码", { exact: true }).fill("demo1234");
  await page.getByLabel("验证码").fill("AB23");
  await page.getByRole("button", { name: "登录", exact: true }).click();
}

/** Opens the login page on its way to `redirectTo` and logs in as a demo-school student. */
export async function demoLogin(page: Page, studentId: string, redirectTo: string) {
  await page.goto(`/crLogin?redirectTo=${encodeURIComponent(redirectTo)}`);
  await submitDemoLogin(page, studentId);
}

/** The messenger identity through the simulated authorization (development has no app id). */
export async function authorize(page: Page) {
  await page.getByRole("link", { name: "去授权" }).click();
  await expect(page.getByRole("heading", { name: "模拟微信授权" })).toBeVisible();
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/market/);
}

export async function chooseCampus(page: Page, name = "金盆岭校区") {
  const selector = page.getByRole("dialog", { name: "选择你的校区" });
  await expect(selector).toBeVisible();
  await selector.getByRole("button", { name: new RegExp(name) }).click();
  await expect(selector).toBeHidden();
}

/** A post in 二手闲置 written, the session replaced on another device, then 发布: it meets the login page. */
export async function publishAfterSessionReplaced(page: Page, sessionId: string, content: string) {
  await page.goto("/publish-post");
  await page.getByText("二手闲置", { exact: true }).click();
  await page.getByRole("textbox").fill(content);
  replaceSession(sessionId);
  await page.getByRole("button", { name: "发布", exact: true }).click();
  await expect(page).toHaveURL(/\/crLogin\?redirectTo=%2Fpublish-post&reason=replaced$/);
}

/** Posts straight into the e2e database in `categoryId` (for paging), oldest first. */
export function insertPosts(userId: number, count: number, prefix: string, categoryId: number) {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    const insert = database.prepare(
      `INSERT INTO posts (user_id, category_id, title, content, status, visibility, is_anonymous, view_count, comment_count, like_count, moderation, reviewed_at, created_at, updated_at)
       VALUES (?, ?, NULL, ?, NULL, 'public', 0, 0, 0, 0, 'visible', NULL, ?, ?)`,
    );
    for (let i = 1; i <= count; i++) {
      const at = new Date().toISOString();
      insert.run(userId, categoryId, `${prefix} #${i}`, at, at);
    }
  } finally {
    database.close();
  }
}
