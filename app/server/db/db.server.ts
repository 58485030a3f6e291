import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from "kysely";
import pg from "pg";
import { config } from "../config.server";
import { log } from "../log.server";
import type { Database } from "./schema";

export type Dialect = "sqlite" | "postgres";
export type DB = Kysely<Database>;
/** A transaction begun on the database (the argument of db().transaction().execute()). */
export type Trx = Transaction<Database>;
/** What a query runs on: the database itself or a transaction on it. */
export type Executor = DB | Trx;

export function dialectOf(databaseUrl: string): Dialect {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? "postgres" : "sqlite";
}

export function sqlitePath(databaseUrl: string) {
  return path.resolve(databaseUrl.replace(/^file:/, ""));
}

/** A Kysely instance for a file: or postgres:// URL. The caller owns it and must destroy() it. */
export function createDatabase(databaseUrl: string): DB {
  return openDatabase(databaseUrl).db;
}

const POOL_MAX = 10;

function openDatabase(databaseUrl: string): { db: DB; pool?: pg.Pool } {
  if (dialectOf(databaseUrl) === "postgres") {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_MAX });
    // An idle connection the server ends (a restart, a failover, an administrator) is an 'error'
    // event on the pool; unhandled, it would crash the process. The pool replaces it on next use.
    pool.on("error", (error) => log("warn", "db-idle-connection-lost", { error: error.message }));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool };
  }
  const file = sqlitePath(databaseUrl);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers run while a write is in progress; the busy timeout waits out a writer.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  // Deleted rows are overwritten with zeros, not left in free pages (decision 033: a deleted
  // account must not stay readable in the file; the deletion job also checkpoints the WAL).
  sqlite.pragma("secure_delete = ON");
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log: process.env.DEBUG_SQL ? (e) => { if (e.level === 'query') console.error('SQL', (e.queryDurationMillis).toFixed(2), e.query.sql.slice(0, 200)); } : undefined }) };
}

/**
 * Kysely's SQLite driver prepares every query anew: SQLite parses and plans the same SQL text on
 * each request (about 4% of a page's server CPU in a profile of /post/:id under load). Prepared
 * statements are kept by their text instead, the most recently used STATEMENT_CACHE_SIZE of
 * them. Safe because the driver runs each statement to completion synchronously (all()/run());
 * the app never streams a query (iterate()), which would hold its statement busy.
 */
const STATEMENT_CACHE_SIZE = 300;

function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((text: string) => {
    // Kysely begins with a deferred `begin`: a transaction that reads, then writes after another
    // connection (a CLI script beside the server) committed, is refused at once with "database is
    // locked". Taking the write lock at the start makes the other writer wait its busy timeout.
    const source = text === "begin" ? "begin immediate" : text;
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, statement);
    return statement;
  }) as typeof sqlite.prepare;
  return sqlite;
}

let instance: { url: string; db: DB; pool?: pg.Pool } | undefined;

/** The process-wide database, opened on first use from the configured DATABASE_URL. */
export function db(): DB {
  const url = config().databaseUrl;
  if (!instance || instance.url !== url) {
    instance = { url, ...openDatabase(url) };
  }
  return instance.db;
}

/** Connections of the process-wide database (metrics): the PostgreSQL pool, or SQLite's one connection. */
export function poolStats() {
  const pool = instance?.pool;
  if (!pool) return { total: instance ? 1 : 0, idle: 0, waiting: 0, max: 1 };
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_MAX };
}

export function dialect(): Dialect {
  return dialectOf(config().databaseUrl);
}

/**
 * SQLite: copies the WAL into the database file and empties it (TRUNCATE), so page versions
 * written before a deletion no longer sit in the -wal file. Nothing to do on PostgreSQL (its
 * side is VACUUM, see docs/operations.md). Returns false when a reader kept the WAL busy.
 */
export async function checkpointWal(): Promise<boolean> {
  if (dialect() !== "sqlite") return true;
  const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db());
  return (rows[0]?.busy ?? 0) === 0;
}

export async function closeDb() {
  const current = instance;
  instance = undefined;
  await current?.db.destroy();
}

export function now() {
  return new Date().toISOString();
}

/** Whether a write failed on a unique index (SQLite and PostgreSQL codes). */
export function isUniqueViolation(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}
