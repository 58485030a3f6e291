// Setup file of the db-* projects. It runs before the test file's own imports, so by the time
// a test calls db() it opens a database of its own: a copy of the migrated template (SQLite) or
// a database created from the template (PostgreSQL). The database is removed after the file.
import fs from "node:fs";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { resetConfig } from "~/server/config.server";
import { closeDb } from "~/server/db/db.server";
import { SQLITE_DIR, TEST_ENCRYPTION_KEY, TEST_SESSION_SECRET, dropDatabase, postgresUrlFor, quoteIdent, uniqueSuffix, withAdmin } from "./test-db";

const dialect = process.env.TEST_DIALECT;
let cleanup: () => Promise<void>;

if (dialect === "sqlite") {
  const file = path.join(SQLITE_DIR, `db-${uniqueSuffix()}.db`);
  fs.copyFileSync(inject("sqliteTemplate"), file);
  process.env.DATABASE_URL = `file:${file}`;
  cleanup = async () => {
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  };
} else if (dialect === "postgres") {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${inject("pgRunPrefix")}${uniqueSuffix()}`;
  await withAdmin(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(inject("pgTemplate"))}`),
  );
  process.env.DATABASE_URL = postgresUrlFor(adminUrl, name);
  cleanup = () => withAdmin(adminUrl, (client) => dropDatabase(client, name));
} else {
  throw new Error(`tests/setup/db.ts: TEST_DIALECT must be sqlite or postgres, got ${String(dialect)}`);
}

process.env.SESSION_SECRET = TEST_SESSION_SECRET;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
process.env.LOG_LEVEL ??= "warn";
resetConfig();
await closeDb();

afterAll(async () => {
  await closeDb();
  resetConfig();
  await cleanup();
});
