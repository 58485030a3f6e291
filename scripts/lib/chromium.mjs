import fs from "node:fs";

// The switches the system Chromium runs with wherever the project drives it (Playwright's tests,
// Lighthouse): no sandbox (containers), no GPU, and nothing that reaches the network on its own.
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

// The browser tests drive Debian's `chromium-headless-shell` (the same Chromium build without its
// windowed browser: what Playwright itself runs headless by default) when it is installed: the
// full `chromium` started headless still runs its whole browser UI, which cost 1.8 times the
// CPU (identity.spec.ts: 46 against 26 CPU-seconds). CHROMIUM_PATH, when set, wins; without the
// shell, the full Chromium.
export const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
export const FULL_CHROMIUM = "/usr/bin/chromium";

/** The browser of the Playwright tests: CHROMIUM_PATH, else the headless shell if installed, else the full Chromium. */
export function browserTestsChromium(env = process.env) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
