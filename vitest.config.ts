import fs from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import type { TestProjectInlineConfiguration } from "vitest/config";

// Four projects (docs/testing.md has the whole map):
//   lib         the pure rules of app/lib: no I/O, no globals, so they share worker threads
//               without isolation (one module load for 40 files instead of a fork each)
//   unit        everything else that needs no database (components, server modules with fakes,
//               tests/unit: production start, backups, budget rules), one fork per file
//   db-sqlite   every *.db.test.ts against a fresh SQLite file per test file
//   db-postgres the dialect-sensitive db tests (BOTH_DIALECTS below) against a fresh PostgreSQL
//               database per test file, only when TEST_DATABASE_URL is set (npm test finds the
//               local PostgreSQL itself)
// Playwright specs (tests/e2e/**) are never collected here.

const DB_TESTS = ["app/**/*.db.test.{ts,tsx}", "tests/**/*.db.test.{ts,tsx}"];
const NEVER = ["**/node_modules/**", "build/**", "public/build/**", "tests/e2e/**", "tests/.tmp/**"];

// app/lib files that touch process-wide state (process.env.TZ, a spy on Intl's prototype), which
// threads without isolation would share, or that measure the process's CPU time, which would
// count the other threads' work too: they run in the unit project's forks.
const LIB_WITH_GLOBALS = ["app/lib/term.test.ts", "app/lib/time.test.ts", "app/lib/pickup-parser.test.ts"];
function testFilesUnder(dir: string): string[] {
  return fs
    .readdirSync(new URL(dir, import.meta.url), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.test\.tsx?$/.test(name) && !/\.db\.test\./.test(name))
    .map((name) => `${dir}/${name.split("\\").join("/")}`)
    .sort();
}
const PURE_LIB_TESTS = testFilesUnder("app/lib").filter((file) => !LIB_WITH_GLOBALS.includes(file));

// The db tests that also run on PostgreSQL: those whose outcome can differ between the dialects.
// Every other db test goes through the same Kysely builders and runs on SQLite only. A file
// belongs here when it tests concurrency or locking (parallel requests, two workers at once),
// counters or triggers, query plans, money (orders, payment, coupons), a unique-violation code
// mapped to an answer, dialect-specific SQL, or PostgreSQL-only storage. Adding a db test that
// does any of these? Add it here.
export const BOTH_DIALECTS = [
  "app/server/db/query-plans.db.test.ts", // query plans of every list, per dialect
  "app/server/db/compiled.db.test.ts", // queries compiled once: the same SQL as each dialect's compiler gives
  "app/server/db/reference-cache.db.test.ts", // the reference_version triggers, per dialect
  "app/server/db/schema.db.test.ts", // schema.ts against each dialect's migrated tables (introspection)
  "app/server/orders/orders.db.test.ts", // money; one order under 20 parallel submissions
  "app/server/orders/payment.db.test.ts", // money; repeated notifications under a lock
  "app/server/orders/transitions.db.test.ts", // conditional UPDATEs racing each other
  "app/server/orders/money.db.test.ts", // money; the invariants' regression cases
  "app/server/orders/money-properties.db.test.ts", // money; generated sequences checked against the ledger
  "app/server/orders/pickup-deadline.db.test.ts", // migration 0044 (a column and an index) on each dialect
  "app/server/orders/reconciliation.db.test.ts", // money; the day itemised and matched with the trade bill
  "app/server/orders/supplements.db.test.ts", // money; a second trade per order, paid once, refunded on its own
  "app/server/orders/slots.db.test.ts", // a slot's last place taken once by two payments at once
  "app/server/coupons/coupons.db.test.ts", // money; a coupon reserved once under concurrency
  "app/server/coupons/invites.db.test.ts", // one assist per person under parallel requests
  "app/server/forum/likes.db.test.ts", // like counters under parallel toggles
  "app/server/forum/comment-scale.db.test.ts", // 10,000 comments, a 3,000-deep chain: per-dialect queries
  "app/server/forum/moderation.db.test.ts", // report counters reaching the threshold in parallel
  "app/server/forum/search.db.test.ts", // dialect SQL: FTS5 trigram and pairs tables by triggers; pg_trgm and a pairs tsvector
  "app/server/forum/favourites-hot.db.test.ts", // the stored hot score (floating point per dialect), row-value cursors
  "app/server/notify/outbox.db.test.ts", // two workers claiming messages; the shared access token
  "app/server/notify/reminders.db.test.ts", // two reminder runs at once queue each reminder once
  "app/server/admin/admin.db.test.ts", // tab counts kept by triggers; two operators completing at once
  "app/server/admin/reference.db.test.ts", // unique violations mapped to 409 (23505 / SQLITE_CONSTRAINT)
  "app/server/auth/proof-of-work.db.test.ts", // a solution spent once (a unique violation)
  "app/server/auth/operator.db.test.ts", // a unique violation mapped to openid_taken; login throttles
  "app/server/auth/messenger.db.test.ts", // two user rows merged in one transaction; bound-account conflicts
  "app/server/rate-limits.db.test.ts", // PostgreSQL keeps the counters in its rate_limits table
  "app/server/users/deletion.db.test.ts", // every table dumped (per-dialect introspection)
  "app/server/users/nicknames.db.test.ts", // one name per campus: a unique expression index under parallel saves
  "app/server/riders/riders.db.test.ts", // two riders completing at once; wrong codes counted under concurrency
  "app/server/schedule/import.db.test.ts", // an imported timetable inserted whole in one transaction (all or none)
];
for (const file of BOTH_DIALECTS) {
  // A renamed or moved file must not drop out of PostgreSQL silently.
  if (!fs.existsSync(new URL(file, import.meta.url))) throw new Error(`vitest.config.ts BOTH_DIALECTS: ${file} does not exist`);
}

function dbProject(dialect: "sqlite" | "postgres"): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name: `db-${dialect}`,
      include: dialect === "sqlite" ? DB_TESTS : BOTH_DIALECTS,
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

const UNIT_ENV = {
  // Business time is Asia/Shanghai whatever the server's zone: the tests run in UTC.
  TZ: "UTC",
  SESSION_SECRET: "unit-test-session-secret-0123456789",
  APP_ENCRYPTION_KEY: "ab".repeat(32),
};

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    // Each project names its own `include` (root-level arrays would be concatenated into every
    // project by `extends: true`); none of them reaches tests/e2e, which is Playwright's.
    environment: "node",
    pool: "forks",
    // One worker per core. Vitest's own default is a core fewer (1 on a 2-core machine), which left
    // the second core idle while a db file waits on its database or a unit file on the process it
    // started. Every file has its own database, temporary directory and free port, so any two run
    // side by side.
    maxWorkers: Math.max(2, os.availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: "lib",
          include: PURE_LIB_TESTS,
          exclude: NEVER,
          setupFiles: ["tests/setup/console.ts"],
          pool: "threads",
          isolate: false,
          testTimeout: 30_000,
          env: UNIT_ENV,
        },
      },
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.{ts,tsx}"],
          exclude: [...NEVER, "**/*.db.test.{ts,tsx}", ...PURE_LIB_TESTS],
          setupFiles: ["tests/setup/console.ts"],
          // Some unit files start a real server process; under a loaded 2-core machine 5 s is tight.
          testTimeout: 30_000,
          env: UNIT_ENV,
        },
      },
      dbProject("sqlite"),
      ...(process.env.TEST_DATABASE_URL ? [dbProject("postgres")] : []),
    ],
  },
});
