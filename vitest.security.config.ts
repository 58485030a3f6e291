import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run test:security`: tests/security/** against the built app started in production mode
// (tests/security/server.ts). Kept out of vitest.config.ts's projects: it needs the build, and
// scripts/test.mjs runs it as its own stage after the build.
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    name: "security",
    environment: "node",
    pool: "forks",
    include: ["tests/security/**/*.test.ts"],
    env: { TZ: "UTC" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
