import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The slower tier: the rendered-screenshot corpus (tests/ocr/). Every screenshot is drawn in the
// system Chromium and read by the real recognition worker; about a minute on two shared cores.
// scripts/test.mjs runs it as its own stage; alone: `npx vitest run --config vitest.ocr.config.ts`.
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    name: "ocr-corpus",
    environment: "node",
    pool: "forks",
    include: ["tests/ocr/**/*.test.ts"],
    env: { TZ: "UTC", LOG_LEVEL: "warn" },
    // About a minute on a quiet 2-core machine; generous because the machine may be shared.
    testTimeout: 480_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
