import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run test:faults`: tests/faults/** — the built app started as real processes (killed with
// SIGKILL, run twice on one PostgreSQL, pointed at failing or slow fakes). Like the security
// suite it needs the build, so scripts/test.mjs runs it as its own stage after the build.
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    name: "faults",
    environment: "node",
    pool: "forks",
    include: ["tests/faults/**/*.test.ts"],
    passWithNoTests: true,
    env: { TZ: "UTC" },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
