// Renders SMS-app-like phone screenshots in the system Chromium, for the rendered-screenshot
// corpus test (tests/ocr/) and the recognition measurement (scripts/ocr-measure.mjs). A thread
// page as a phone's messages app draws it: status bar, the sender's header, a timestamp and a
// bubble per message, light or dark, at the phone's real pixel size (CSS viewport × device pixel
// ratio), in the CJK font the machine has (fonts-noto-cjk).
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { CHROMIUM_FLAGS } from "./chromium.mjs";

/** 2024 phones: CSS viewport and pixel ratio giving their screenshot size. */
export const PHONES = {
  "iphone-15": { width: 390, height: 844, scale: 3, style: "ios" }, // 1170×2532
  "iphone-15-pro-max": { width: 430, height: 932, scale: 3, style: "ios" }, // 1290×2796
  "android-1080": { width: 432, height: 960, scale: 2.5, style: "android" }, // 1080×2400
  // A screenshot after a messenger recompressed it: 720 px wide (JPEG quality 60, see VARIANTS).
  "android-720": { width: 360, height: 780, scale: 2, style: "android" }, // 720×1560
};

const THEMES = {
  light: { page: "#ffffff", bubble: "#e9e9eb", text: "#111111", meta: "#8e8e93", bar: "#f6f6f6" },
  dark: { page: "#000000", bubble: "#26252a", text: "#f2f2f7", meta: "#8e8e93", bar: "#1c1c1e" },
};

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/**
 * A notification shade as MIUI and ColorOS draw an SMS notification, expanded: one card per
 * message on a blurred wallpaper, the app's name and the time over the sender and the whole text.
 */
function cardsHtml({ messages, theme, layout, sender, fontSize }) {
  const dark = theme === "dark";
  const miui = layout === "miui";
  const wallpaper = dark ? "linear-gradient(#1d2330, #0b0d12)" : "linear-gradient(#c9d6e8, #e9eef5)";
  const card = dark ? (miui ? "#2a2a2c" : "rgba(40,40,44,0.92)") : miui ? "#ffffff" : "rgba(255,255,255,0.9)";
  const text = dark ? "#f2f2f7" : "#1a1a1a";
  const meta = dark ? "#9a9aa0" : "#6b6b70";
  const app = miui ? "短信" : "信息";
  const cards = messages
    .map(
      ({ text: body }) => `<section class="card"><p class="app"><span class="icon"></span>${app}<span class="when">${miui ? "· 现在" : "现在"}</span></p>
        <p class="title">${escapeHtml(sender)}</p><p class="body">${escapeHtml(body).replace(/\n/g, "<br>")}</p></section>`,
    )
    .join("");
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    * { box-sizing: border-box; }
    body { margin: 0; min-height: 100vh; background: ${wallpaper}; color: ${text};
      font-family: "Noto Sans CJK SC", "Noto Sans SC", "PingFang SC", sans-serif; }
    .status { height: 40px; display: flex; justify-content: space-between; align-items: center; padding: 0 22px;
      font-size: 14px; font-weight: 600; }
    .clock { font-size: 40px; font-weight: 300; padding: 8px 22px 16px; }
    .card { margin: 0 ${miui ? 12 : 10}px 10px; padding: 12px 16px 14px; border-radius: ${miui ? 22 : 16}px; background: ${card}; }
    .app { margin: 0 0 6px; font-size: 12px; color: ${meta}; display: flex; align-items: center; gap: 6px; }
    .icon { width: 16px; height: 16px; border-radius: ${miui ? 5 : 8}px; background: #34c759; display: inline-block; }
    .when { margin-left: ${miui ? 0 : "auto"}; }
    .title { margin: 0 0 2px; font-size: ${fontSize}px; font-weight: 600; }
    .body { margin: 0; font-size: ${fontSize - 1}px; line-height: 1.4; word-break: break-all; }
  </style></head><body>
    <div class="status"><span>10:24</span><span>5G 87%</span></div>
    <div class="clock">10:24</div>
    ${cards}
  </body></html>`;
}

/** The page of one thread: `messages` are `{ time?, text }`, drawn top to bottom. */
export function threadHtml({ messages, theme = "light", phone = "iphone-15", sender = "106 9800 0001", layout = "thread", fontSize: size }) {
  const colours = THEMES[theme];
  const { style } = PHONES[phone];
  const radius = style === "ios" ? 18 : 12;
  const fontSize = size ?? (style === "ios" ? 17 : 16);
  if (layout === "miui" || layout === "coloros") return cardsHtml({ messages, theme, layout, sender, fontSize });
  const bubbles = messages
    .map(
      ({ time, text }) =>
        (time ? `<p class="time">${escapeHtml(time)}</p>` : "") +
        `<div class="bubble">${escapeHtml(text).replace(/\n/g, "<br>")}</div>`,
    )
    .join("");
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    * { box-sizing: border-box; }
    body { margin: 0; background: ${colours.page}; color: ${colours.text};
      font-family: "Noto Sans CJK SC", "Noto Sans SC", "PingFang SC", sans-serif; }
    .status { height: 47px; display: flex; justify-content: space-between; align-items: center;
      padding: 0 28px; font-size: 15px; font-weight: 600; background: ${colours.bar}; }
    header { background: ${colours.bar}; text-align: center; padding: 6px 0 10px;
      border-bottom: 1px solid ${theme === "dark" ? "#2c2c2e" : "#d8d8d8"}; }
    header .avatar { width: 44px; height: 44px; border-radius: 50%; margin: 0 auto 4px; background: #9aa0a6; }
    header .name { font-size: 12px; }
    main { padding: 6px 14px 80px; }
    .time { text-align: center; color: ${colours.meta}; font-size: 12px; margin: 16px 0 8px; }
    .bubble { background: ${colours.bubble}; border-radius: ${radius}px; padding: 9px 13px;
      font-size: ${fontSize}px; line-height: 1.35; max-width: 78%; margin-bottom: 6px; word-break: break-all; }
    footer { position: fixed; bottom: 0; left: 0; right: 0; height: 64px; background: ${colours.bar};
      display: flex; align-items: center; padding: 0 14px; }
    footer div { flex: 1; height: 36px; border-radius: 18px; border: 1px solid ${colours.meta}; color: ${colours.meta};
      font-size: 15px; line-height: 34px; padding-left: 14px; }
  </style></head><body>
    <div class="status"><span>10:24</span><span>5G 87%</span></div>
    <header><div class="avatar"></div><div class="name">${escapeHtml(sender)} ›</div></header>
    <main>${bubbles}</main>
    <footer><div>短信</div></footer>
  </body></html>`;
}

export async function launchChromium() {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath} (set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
}

/** One phone-sized screenshot (exactly the phone's pixels) of a thread. */
export async function renderThread(browser, { messages, theme = "light", phone = "iphone-15", type = "png", sender = "106 9800 0001", layout = "thread", fontSize = undefined, quality = 85 }) {
  const device = PHONES[phone];
  const context = await browser.newContext({ viewport: { width: device.width, height: device.height }, deviceScaleFactor: device.scale });
  try {
    const page = await context.newPage();
    await page.setContent(threadHtml({ messages, theme, phone, sender, layout, fontSize }));
    await page.evaluate(() => document.fonts.ready);
    const image = await page.screenshot({ type, ...(type === "jpeg" ? { quality } : {}) });
    return new Uint8Array(image);
  } finally {
    await context.close();
  }
}

const TIME_LINE = /^\d{1,2}月\d{1,2}日\s+\d{1,2}:\d{2}$/;

/** A sample's text as the messages a phone shows: one bubble per SMS, a leading time line apart. */
export function sampleMessages(text) {
  const messages = [];
  for (const chunk of text.split(/\n\s*\n|\n(?=【)/)) {
    const lines = chunk.split("\n").map((line) => line.trim()).filter(Boolean);
    if (lines.length === 0) continue;
    const time = TIME_LINE.test(lines[0]) ? lines.shift() : undefined;
    if (lines.length > 0) messages.push({ time, text: lines.join("\n") });
  }
  return messages;
}

// The thread corpus cycles through the three phones; android-720 is a variant of its own.
const PHONE_NAMES = ["iphone-15", "iphone-15-pro-max", "android-1080"];

/**
 * The rendered corpus: every multi-SMS sample on its own, then the single-SMS samples two or
 * three to a screenshot, cycling through the phones, light and dark, PNG and JPEG. Each case
 * keeps its samples, so its labels are theirs in order.
 */
export function screenshotCorpus(samples, { count = 42 } = {}) {
  const withMessages = samples.map((sample) => ({ ...sample, messages: sampleMessages(sample.text) }));
  const multi = withMessages.filter((sample) => sample.messages.length >= 2);
  const single = withMessages.filter((sample) => sample.messages.length === 1);
  const groups = multi.map((sample) => [sample]);
  for (let j = 0; groups.length < count; j += 1) {
    const size = 2 + (j % 2);
    // Stride 7 over the singles (coprime with their count in practice) gives varied neighbours.
    const picked = [];
    for (let t = 0; picked.length < size && t < single.length; t += 1) {
      const candidate = single[(j * 3 + t * 7) % single.length];
      if (!picked.includes(candidate)) picked.push(candidate);
    }
    groups.push(picked);
  }
  return groups.map((group, index) => ({
    id: `shot-${String(index + 1).padStart(2, "0")}-${group.map((sample) => sample.id.replace(/^sample-/, "")).join("+")}`,
    phone: PHONE_NAMES[index % PHONE_NAMES.length],
    theme: Math.floor(index / 3) % 2 === 0 ? "light" : "dark",
    type: index % 4 === 3 ? "jpeg" : "png",
    samples: group,
    messages: group.flatMap((sample) => sample.messages),
    text: group.map((sample) => sample.text).join("\n\n"),
    expected: group.flatMap((sample) => sample.expected),
  }));
}

/**
 * Screenshots as phones really make them (docs/recognition.md "The corpora"): MIUI and ColorOS
 * notification cards in light and dark, a screenshot recompressed to 720 px wide at JPEG quality
 * 60, two bubbles of which only one is a pickup (the other a bank's or a login's code, labelled
 * with no parcel), and body text from 15 to 19 px. Each variant is one kind of look over a few
 * samples; the cases keep their samples' labels in order (none for a sample that is no pickup).
 */
export const VARIANTS = [
  { variant: "miui-card", layout: "miui", phone: "android-1080", theme: "light" },
  { variant: "miui-card", layout: "miui", phone: "android-1080", theme: "dark" },
  { variant: "coloros-card", layout: "coloros", phone: "android-1080", theme: "light" },
  { variant: "coloros-card", layout: "coloros", phone: "android-1080", theme: "dark" },
  { variant: "jpeg60-720", phone: "android-720", theme: "light", type: "jpeg", quality: 60 },
  { variant: "jpeg60-720", phone: "android-720", theme: "dark", type: "jpeg", quality: 60 },
  { variant: "one-of-two-pickup", phone: "iphone-15", theme: "light", mixed: true },
  { variant: "one-of-two-pickup", phone: "android-1080", theme: "dark", mixed: true },
  { variant: "font-15", phone: "iphone-15", theme: "light", fontSize: 15 },
  { variant: "font-16", phone: "android-1080", theme: "dark", fontSize: 16 },
  { variant: "font-18", phone: "iphone-15-pro-max", theme: "dark", fontSize: 18 },
  { variant: "font-19", phone: "iphone-15", theme: "light", fontSize: 19 },
];

export function variantCorpus(samples) {
  const withMessages = samples.map((sample) => ({ ...sample, messages: sampleMessages(sample.text) }));
  const pickups = withMessages.filter((sample) => sample.messages.length === 1 && sample.expected.length > 0);
  const others = withMessages.filter((sample) => sample.messages.length === 1 && sample.expected.length === 0);
  return VARIANTS.map((look, index) => {
    const first = pickups[(index * 5) % pickups.length];
    const second = look.mixed ? others[index % others.length] : pickups[(index * 5 + 3) % pickups.length];
    const group = look.mixed && index % 2 === 0 ? [second, first] : [first, second];
    return {
      id: `variant-${String(index + 1).padStart(2, "0")}-${look.variant}-${look.theme}`,
      variant: look.variant,
      phone: look.phone,
      theme: look.theme,
      type: /** @type {"png" | "jpeg"} */ (look.type ?? "png"),
      quality: look.quality,
      layout: look.layout,
      fontSize: look.fontSize,
      samples: group,
      messages: group.flatMap((sample) => sample.messages),
      text: group.map((sample) => sample.text).join("\n\n"),
      expected: group.flatMap((sample) => sample.expected),
    };
  });
}
