import { type Kysely, sql } from "kysely";
import { isPostgres } from "./helpers";

// Rate limits: the shared store of rate-limiter-flexible's RateLimiterPostgres, so that
// every instance of the app on one PostgreSQL sees the same counts. Its columns are the library's
// own (key, points, expire in epoch milliseconds). SQLite serves one instance and keeps its counts
// in memory, so the table is made on PostgreSQL only.
export async function up(db: Kysely<unknown>) {
  if (!isPostgres(db)) return;
  await sql`CREATE TABLE IF NOT EXISTS rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS rate_limits_expire_idx ON rate_limits (expire)`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  if (!isPostgres(db)) return;
  await sql`DROP TABLE IF EXISTS rate_limits`.execute(db);
}
