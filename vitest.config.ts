import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import type { TestProjectInlineConfiguration } from "vitest/config";

// Three projects:
//   unit        pure code and anything that needs no database (app/**, tests/unit/**)
//   db-sqlite   every *.db.test.ts against a fresh SQLite file per test file
//   db-postgres the same files against a fresh PostgreSQL database per test file, only when
//               TEST_DATABASE_URL is set (CI sets it; locally: TEST_DATABASE_URL=postgres://… npm test)
// Playwright specs (tests/e2e/**) are never collected here.

const DB_TESTS = ["app/**/*.db.test.{ts,tsx}", "tests/**/*.db.test.{ts,tsx}"];
const NEVER = ["**/node_modules/**", "build/**", "public/build/**", "tests/e2e/**", "tests/.tmp/**"];

function dbProject(dialect: "sqlite" | "postgres"): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name: `db-${dialect}`,
      include: DB_TESTS,
      exclude: NEVER,
      env: { TEST_DIALECT: dialect, TZ: "UTC" },
      globalSetup: ["tests/setup/global-db.ts"],
      setupFiles: ["tests/setup/console.ts", "tests/setup/db.ts"],
      // Each file gets its own database, so files may run in parallel; one migration template is shared.
      testTimeout: 20_000,
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    // Each project names its own `include` (root-level arrays would be concatenated into every
    // project by `extends: true`); none of them reaches tests/e2e, which is Playwright's.
    environment: "node",
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.{ts,tsx}"],
          exclude: [...NEVER, "**/*.db.test.{ts,tsx}"],
          setupFiles: ["tests/setup/console.ts"],
          // Some unit files start a real server process; under a loaded 2-core machine 5 s is tight.
          testTimeout: 30_000,
          env: {
            // Business time is Asia/Shanghai whatever the server's zone: the tests run in UTC.
            TZ: "UTC",
            SESSION_SECRET: "unit-test-session-secret-0123456789",
            APP_ENCRYPTION_KEY: "ab".repeat(32),
          },
        },
      },
      dbProject("sqlite"),
      ...(process.env.TEST_DATABASE_URL ? [dbProject("postgres")] : []),
    ],
  },
});
