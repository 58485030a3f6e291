// The blog article's share card without React: public/share-card.js, a plain deferred
// script, sets the card through the JS-SDK inside the messenger (a stand-in SDK records what the
// page asks for, as in share.spec.ts); outside the messenger its share button copies the link.
import { E2E_BASE_URL } from "./env";
import { messengerContext, shareCalls } from "./messenger-sdk";
import { expect, test } from "./fixtures";

test("inside the messenger the blog article sets its share card from its title and summary", async ({ browser }) => {
  const context = await messengerContext(browser);
  const page = await context.newPage();
  const configs: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/wechat/jsapi-config")) configs.push(request.postData() ?? "");
  });
  await page.goto("/blog/article/1#top");
  const calls = await shareCalls(page);
  const [configCall, appMessage, timeline] = calls;
  expect(configCall![0]).toBe("config");
  expect(configCall![1]).toMatchObject({ jsApiList: expect.arrayContaining(["updateAppMessageShareData", "updateTimelineShareData"]) });
  // The config is asked for the page's URL without its #hash, as the hydrated pages do.
  expect(JSON.parse(configs[0]!)).toEqual({ url: `${E2E_BASE_URL}/blog/article/1` });
  const title = await page.getByRole("heading", { level: 2 }).textContent();
  expect(appMessage).toEqual(["appMessage", { title, desc: expect.any(String), link: `${E2E_BASE_URL}/blog/article/1`, imgUrl: `${E2E_BASE_URL}/share-card.png` }]);
  expect(appMessage![1].desc.length).toBeGreaterThan(10);
  expect(timeline).toEqual(["timeline", appMessage![1]]);
  await context.close();
});

test("outside the messenger the blog article's share button copies the link; no JS asks for the config", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  let configAsked = false;
  page.on("request", (request) => {
    if (request.url().includes("jsapi-config") || request.url().includes("res.wx.qq.com")) configAsked = true;
  });
  await page.goto("/blog/article/2");
  await page.getByRole("button", { name: "分享" }).click();
  await expect(page.getByRole("status")).toHaveText("链接已复制，快去分享给同学吧");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E_BASE_URL}/blog/article/2`);
  expect(configAsked).toBe(false);
});

test("without JavaScript the article reads as before and no share button is offered", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/blog/article/1");
  await expect(page.getByRole("heading", { level: 2 })).toBeVisible();
  await expect(page.getByRole("button", { name: "分享" })).toHaveCount(0);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{10,}/);
  await context.close();
});

test("the share script stays small (under 2 KB gzipped)", async ({ request }) => {
  const response = await request.get("/share-card.js", { headers: { "Accept-Encoding": "identity" } });
  expect(response.ok()).toBe(true);
  const { gzipSync } = await import("node:zlib");
  expect(gzipSync(await response.body(), { level: 9 }).length).toBeLessThan(2048);
});

test("inside the messenger the blog list sets a share card too, with the 300×300 PNG card", async ({ browser, request }) => {
  const context = await messengerContext(browser);
  const page = await context.newPage();
  await page.goto("/blog");
  const [, appMessage] = await shareCalls(page);
  expect(appMessage).toEqual(["appMessage", { title: expect.stringContaining("校园帮"), desc: expect.any(String), link: `${E2E_BASE_URL}/blog`, imgUrl: `${E2E_BASE_URL}/share-card.png` }]);
  await context.close();

  const image = await request.get("/share-card.png");
  expect(image.headers()["content-type"]).toBe("image/png");
  const png = await image.body();
  // PNG header: width and height are the big-endian words at bytes 16 and 20.
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([300, 300]);
});
