// The messenger authorization in a real browser against the simulated provider (the e2e server
// runs without WECHAT_APP_ID and outside production, so /api/wechat/simulate stands in for the
// messenger's page and the server calls its own simulated API over loopback — the real client code).
import { expect, test } from "./fixtures";

test("authorize on the simulated page and come back signed in; the JSON endpoint answers on every visit", async ({ page }) => {
  await page.goto("/api/wechat/auth?redirect_url=/market");
  await expect(page).toHaveURL(/\/api\/wechat\/simulate\?appid=wx_simulated_app&redirect_uri=.+&response_type=code&scope=snsapi_userinfo&state=[A-Za-z0-9]{32}#wechat_redirect$/);
  await expect(page.getByRole("heading", { name: "模拟微信授权" })).toBeVisible();
  const nickname = page.getByLabel("微信昵称");
  await expect(nickname).toHaveValue(/^小.+瓜[A-Za-z0-9]{6}$|^小羊角蜜[A-Za-z0-9]{6}$/);
  await nickname.fill("端到端同学");
  await page.getByRole("button", { name: "允许" }).click();

  await expect(page).toHaveURL(/\/market$/);

  for (let visit = 0; visit < 2; visit += 1) {
    const answer = await page.request.get("/api/wechat/user-info", { headers: { Accept: "application/json" } });
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ success: true, data: { nickname: "端到端同学", wechat_nickname: "端到端同学", student_bound: false } });
  }
  // Opened as a page too, it answers instead of sending the browser to authorize again.
  await page.goto("/api/wechat/user-info");
  await expect(page).toHaveURL(/\/api\/wechat\/user-info$/);
  await expect(page.locator("body")).toContainText("端到端同学");
});

test("a second authorization within 10 seconds is refused with a clear message instead of looping", async ({ page }) => {
  await page.goto("/api/wechat/auth?redirect_url=/market");
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/market$/);

  await page.goto("/api/wechat/auth?redirect_url=/market");
  await expect(page).toHaveURL(/\/wx\/callback\?error=REDIRECT_LOCKED/);
  await expect(page.getByRole("alert")).toHaveText("授权请求过于频繁，请 10 秒后再试");
});

test("refusing lands on /wx/callback with the message and a retry link", async ({ page }) => {
  await page.goto("/api/wechat/auth?redirect_url=/orders");
  await page.getByRole("button", { name: "拒绝" }).click();

  await expect(page).toHaveURL(/\/wx\/callback\?error=AUTH_DENIED/);
  await expect(page.getByRole("alert")).toHaveText("你已取消微信授权，下单、优惠券等功能需要授权后才能使用");
  await expect(page.getByRole("link", { name: "重新授权" })).toHaveAttribute("href", "/api/wechat/auth?redirect_url=%2Forders");
  const answer = await page.request.get("/api/wechat/user-info", { headers: { Accept: "application/json" } });
  expect(answer.status()).toBe(401);

  // The retry works at once (the lock ends with the failed round trip).
  await page.getByRole("link", { name: "重新授权" }).click();
  await expect(page.getByRole("heading", { name: "模拟微信授权" })).toBeVisible();
});

test("the simulated page works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/api/wechat/auth?redirect_url=/market");
  await page.getByLabel("微信昵称").fill("");
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/market$/);
  const answer = await page.request.get("/api/wechat/user-info", { headers: { Accept: "application/json" } });
  const body = await answer.json();
  // No nickname given: none (never a made-up one); the student is asked before writing.
  expect(body.data.nickname).toBeNull();
  expect(body.data.wechat_nickname).toBeNull();
  await context.close();
});

test("a signed-in student who authorizes gets the identity on the same account", async ({ page, loginAsStudent }) => {
  const student = await loginAsStudent();
  await page.goto("/api/wechat/auth?redirect_url=/backpack");
  await page.getByLabel("微信昵称").fill("绑定的同学");
  await page.getByRole("button", { name: "允许" }).click();
  await expect(page).toHaveURL(/\/backpack$/);

  const answer = await page.request.post("/api/wechat/auto-login");
  expect(answer.status()).toBe(200);
  const body = await answer.json();
  expect(body).toMatchObject({ success: true, data: { student_id: student.studentId, user_name: "测试同学" } });
  expect(JSON.stringify(body)).not.toMatch(/password|token/i);
});

test("the result page shows the product rules' message for PARSE_ERROR and never signs in from a userInfo payload", async ({ page }) => {
  await page.goto("/wx/callback?error=PARSE_ERROR&message=x");
  await expect(page.getByRole("alert")).toHaveText("用户信息解析失败，请重新授权");
  await expect(page.getByRole("link", { name: "重新授权" })).toHaveAttribute("href", "/api/wechat/auth?redirect_url=%2Fmarket");

  const payload = Buffer.from(JSON.stringify({ openid: "oForged", nickname: "管理员" })).toString("base64");
  await page.goto(`/wx/callback?userInfo=${encodeURIComponent(payload)}`);
  await expect(page.getByRole("status")).toHaveText("请点击下方按钮继续使用校园帮");
  await expect(page.locator("body")).not.toContainText("管理员");
  const answer = await page.request.get("/api/wechat/user-info", { headers: { Accept: "application/json" } });
  expect(answer.status()).toBe(401);
});
