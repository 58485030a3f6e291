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
