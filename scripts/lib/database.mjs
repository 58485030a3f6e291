// One small async interface over the app's two databases for the scripts (seeding, checking):
// `file:` paths open with better-sqlite3, `postgres://` URLs with pg. SQL is written with `?`
// placeholders (turned into $1, $2… for PostgreSQL: never put a literal '?' in the SQL text).
import crypto from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";

export function isPostgresUrl(url) {
  return /^postgres(ql)?:\/\//.test(url);
}

export async function openDatabase(url) {
  if (isPostgresUrl(url)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const statements = new Map();
    const convert = (sql) => {
      let text = statements.get(sql);
      if (!text) {
        let n = 0;
        text = sql.replace(/\?/g, () => `$${++n}`);
        statements.set(sql, text);
      }
      return text;
    };
    const database = {
      dialect: "postgres",
      async all(sql, params = []) {
        return (await client.query(convert(sql), params)).rows;
      },
      async get(sql, params = []) {
        return (await client.query(convert(sql), params)).rows[0];
      },
      async run(sql, params = []) {
        return { changes: (await client.query(convert(sql), params)).rowCount };
      },
      async exec(sql) {
        await client.query(sql);
      },
      async transaction(fn) {
        await client.query("BEGIN");
        try {
          const result = await fn();
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      },
      async close() {
        await client.end();
      },
    };
    return database;
  }
  const sqlite = new Database(url.replace(/^file:/, ""), { fileMustExist: true });
  sqlite.pragma("busy_timeout = 10000");
  const statements = new Map();
  const prepare = (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = sqlite.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    dialect: "sqlite",
    sqlite,
    async all(sql, params = []) {
      return prepare(sql).all(...params);
    },
    async get(sql, params = []) {
      return prepare(sql).get(...params);
    },
    async run(sql, params = []) {
      const statement = prepare(sql);
      // A statement that returns rows (INSERT … RETURNING) is run with get().
      if (statement.reader) return { changes: 1, row: statement.get(...params) };
      return { changes: statement.run(...params).changes };
    },
    async exec(sql) {
      sqlite.exec(sql);
    },
    async transaction(fn) {
      sqlite.exec("BEGIN");
      try {
        const result = await fn();
        sqlite.exec("COMMIT");
        return result;
      } catch (error) {
        sqlite.exec("ROLLBACK");
        throw error;
      }
    },
    async close() {
      sqlite.close();
    },
  };
}

/**
 * A throwaway database on the PostgreSQL server of `serverUrl` (its own database name is only
 * used to connect): created empty, dropped by drop() (after every connection to it has ended).
 */
export async function createThrowawayPostgres(serverUrl) {
  const name = `campus_load_${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
  const admin = new URL(serverUrl);
  if (!admin.pathname || admin.pathname === "/") admin.pathname = "/postgres";
  const run = async (sql) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
