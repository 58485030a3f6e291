// Shared by the Vitest global setup and the per-file DB setup: where test databases live and
// how they are named. Nothing here touches the app's process-wide db().
import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const TMP_DIR = path.join(ROOT, "tests/.tmp");
export const SQLITE_DIR = path.join(TMP_DIR, "sqlite");

export const TEST_SESSION_SECRET = "test-session-secret-0123456789abcdef";
export const TEST_ENCRYPTION_KEY = "ab".repeat(32);

/** Per-run databases are named campus_t_<pid of the vitest process>_…, so stale ones can be found. */
export const PG_PREFIX = "campus_t_";

declare module "vitest" {
  export interface ProvidedContext {
    sqliteTemplate: string;
    pgTemplate: string;
    pgRunPrefix: string;
  }
}

export function uniqueSuffix() {
  return `${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
}

/** The same server and credentials as `base`, another database. */
export function postgresUrlFor(base: string, database: string) {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export function quoteIdent(name: string) {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  return `"${name}"`;
}

/** Runs statements on the admin database (TEST_DATABASE_URL itself), one short connection. */
export async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(client: pg.Client, name: string) {
  await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
}

/**
 * Ends a pool and waits for its connections to close. pg-pool's end() resolves once it has asked
 * each client to end, before the sockets close; a DROP DATABASE … WITH (FORCE) then terminates a
 * backend still open, and its client throws the FATAL 57P01 as an uncaught error.
 */
export async function endPool(pool: pg.Pool) {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on("remove", () => {
      open -= 1;
      if (open === 0) resolve();
    });
  });
  await pool.end();
  await closed;
}
