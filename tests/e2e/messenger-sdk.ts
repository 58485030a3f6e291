// The messenger's in-app browser for the share-card specs: its user agent, and a stand-in JS-SDK
// (served for res.wx.qq.com) that records wx.config and the share cards the page sets, calling
// ready at once as the SDK does once configured.
import type { Browser, BrowserContextOptions, Page } from "@playwright/test";
import { expect } from "./fixtures";

export const MESSENGER_UA =
  "Mozilla/5.0 (Linux; Android 13; Phone) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0 Mobile Safari/537.36 MicroMessenger/8.0.49";

const STAND_IN_SDK = `window.wx = {
  calls: [],
  config(options) { this.calls.push(["config", options]); },
  ready(callback) { setTimeout(callback, 0); },
  error() {},
  updateAppMessageShareData(card) { this.calls.push(["appMessage", card]); },
  updateTimelineShareData(card) { this.calls.push(["timeline", card]); },
};`;

export type SdkCall = [string, Record<string, string>];

/** A phone-sized context with the messenger's user agent and the stand-in SDK. */
export async function messengerContext(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ userAgent: MESSENGER_UA, viewport: { width: 390, height: 844 }, ...options });
  await context.route("https://res.wx.qq.com/**", (route) => route.fulfill({ contentType: "text/javascript", body: STAND_IN_SDK }));
  return context;
}

/** The SDK calls once the page has set its cards: config, the chat card, the timeline card. */
export async function shareCalls(page: Page): Promise<SdkCall[]> {
  await expect.poll(() => page.evaluate(() => (window as unknown as { wx?: { calls: unknown[] } }).wx?.calls.length ?? 0)).toBeGreaterThanOrEqual(3);
  return page.evaluate(() => (window as unknown as { wx: { calls: SdkCall[] } }).wx.calls);
}
