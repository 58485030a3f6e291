// Screenshot recognition end to end: SMS screenshots rendered here in headless Chromium (with the
// CJK font .ci/run installs), read by the OCR worker process (PaddleOCR models shipped in the npm
// package, nothing downloaded), joined into messages and parsed. What the screenshot yields is
// compared with what the same SMS text yields through the parser, so these tests judge the OCR,
// whatever the parser's conventions. The rendered corpus (tests/ocr/) measures accuracy.
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfig } from "../config.server";
import { stopOcr } from "./ocr.server";
import { recognizeImage, recognizeText } from "./recognition.server";
import { captureLogs } from "../../../tests/setup/log-capture";

const ticket = { owner: "ocr-test" };

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stopOcr();
});

/** A phone's SMS thread: a timestamp and a bubble per message, at a phone's 2× pixel density. */
async function screenshot(messages: string[], type: "png" | "jpeg" = "png") {
  const page = await browser.newPage({ viewport: { width: 390, height: 200 }, deviceScaleFactor: 2 });
  const bubbles = messages
    .map(
      (text) =>
        `<p style="text-align:center;color:#999;font-size:12px;margin:14px 0">11月03日 10:15</p>` +
        `<div style="background:#fff;border-radius:14px;padding:12px 14px;font-size:16px;line-height:1.55;color:#111;max-width:300px">${text}</div>`,
    )
    .join("");
  await page.setContent(`<body style="margin:0;background:#ededed;font-family:'Noto Sans CJK SC','Noto Sans SC',sans-serif"><div style="padding:8px 16px 24px">${bubbles}</div></body>`);
  const image = await page.screenshot({ fullPage: true, type });
  await page.close();
  return new Uint8Array(image);
}

describe("OCR of rendered SMS screenshots", () => {
  it(
    "reads every code, company and station of a two-message screenshot",
    async () => {
      const sms = ["【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。", "【丰巢】请凭取件码『62093517』至梨园9栋丰巢柜取申通快递的包裹。"];
      const image = await screenshot(sms);
      const started = performance.now();
      const outcome = await recognizeImage(image, ticket);
      const firstMs = performance.now() - started;
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.entries.map((e) => [e.pickupCode, e.stationName])).toEqual([
        ["5-5-1201", "梨园菜鸟驿站"],
        ["62093517", "梨园9栋丰巢柜"],
      ]);
      // The same parcels as the text, none flagged for checking (a clean read).
      expect(outcome.entries).toEqual(recognizeText(sms.join("\n\n")).map((entry) => ({ ...entry, check: null })));

      // A warm model, a JPEG, a tracking number and a letter code.
      const secondSms = ["【顺丰速运】您的快件SF1109876543210已放至云杉苑2栋丰巢柜，取件码 40217763。", "【菜鸟驿站】您的包裹已到达西区菜鸟驿站，取件码 A09-2215，请凭码取件。"];
      const second = await screenshot(secondSms, "jpeg");
      const warmStart = performance.now();
      const warm = await recognizeImage(second, ticket);
      const warmMs = performance.now() - warmStart;
      expect(warm.ok && warm.entries.map((e) => [e.pickupCode, e.trackingNumber, e.stationName])).toEqual([
        ["40217763", "SF1109876543210", "云杉苑2栋丰巢柜"],
        ["A09-2215", null, "西区菜鸟驿站"],
      ]);
      expect(warm.ok && warm.entries).toEqual(recognizeText(secondSms.join("\n\n")).map((entry) => ({ ...entry, check: null })));
      // Reported, not asserted: the machine is shared.
      process.stdout.write(`OCR: first image ${Math.round(firstMs)} ms (model load included), warm image ${Math.round(warmMs)} ms\n`);
    },
    180_000,
  );

  it("keeps serving other work while an image is read (the model runs in a worker process)", async () => {
    const image = await screenshot(["【妈妈驿站】取货码1-3-2270，您有申通快递包裹，已到柳岸小区妈妈驿站。"]);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 20);
    const outcome = await recognizeImage(image, ticket);
    clearInterval(timer);
    expect(outcome.ok && outcome.entries[0]?.pickupCode).toBe("1-3-2270");
    expect(ticks).toBeGreaterThan(3);
  }, 120_000);

  it("loads the model on the first image and releases it after idle, logging both", async () => {
    await stopOcr();
    const logs = captureLogs();
    const events = logs.events;
    process.env.OCR_IDLE_MS = "300";
    resetConfig();
    try {
      const image = await screenshot(["【菜鸟驿站】您的包裹已到达西区菜鸟驿站，取件码 A09-2215，请凭码取件。"]);
      expect(events.some((event) => event.event === "ocr-model-loaded")).toBe(false);
      const outcome = await recognizeImage(image, ticket);
      expect(outcome.ok).toBe(true);
      const loaded = events.find((event) => event.event === "ocr-model-loaded");
      expect(loaded).toMatchObject({ pid: expect.any(Number), loadMs: expect.any(Number), rssMb: expect.any(Number) });
      const read = events.find((event) => event.event === "ocr");
      expect(read).toMatchObject({ cpuMs: expect.any(Number), workerRssMb: expect.any(Number), workerPeakRssMb: expect.any(Number) });

      await vi.waitFor(() => expect(events.find((event) => event.event === "ocr-model-released")).toMatchObject({ reason: "idle", pid: loaded!.pid }), { timeout: 10_000, interval: 50 });
      // The worker process is gone, and its memory with it.
      await vi.waitFor(() => expect(() => process.kill(loaded!.pid as number, 0)).toThrow(), { timeout: 5_000, interval: 50 });
    } finally {
      delete process.env.OCR_IDLE_MS;
      resetConfig();
      logs.restore();
    }
  }, 120_000);
});
