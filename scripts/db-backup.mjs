#!/usr/bin/env node
// `npm run db:backup`: a consistent copy of the SQLite database while the server runs, through
// SQLite's online backup API (better-sqlite3's .backup()): pages are copied in steps and the copy
// restarts whenever another connection writes, so the result is one committed state of the
// database, never a half-written file. Written to ./data/backups/app-<timestamp>.db (or --out DIR)
// and checked with PRAGMA integrity_check. Restore: README "Backup and restore".
// PostgreSQL is backed up with pg_dump, not with this script.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);

/** The SQLite file of a DATABASE_URL ("file:./data/app.db"), or null for PostgreSQL. */
export function sqliteFile(databaseUrl = "file:./data/app.db") {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return null;
  if (!databaseUrl.startsWith("file:")) throw new Error("DATABASE_URL must start with file: or postgres://");
  return path.resolve(databaseUrl.slice("file:".length).replace(/^\/\/(?=\/)/, ""));
}

export function backupName(at = new Date()) {
  return `app-${at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}.db`;
}

/**
 * Copies `source` to `destination` online and checks the copy. After a first small step the rest
 * goes in one step: in WAL mode (the app's) a reader holds up no writer, and one step is one read
 * transaction, so a busy server cannot keep restarting the copy (a write by another connection
 * between two steps restarts it).
 */
export async function backupSqlite(source, destination, { pagesPerStep = 0x7fffffff } = {}) {
  if (!fs.existsSync(source)) throw new Error(`no database at ${source}`);
  // A backup holds every student's data: readable by the owner only (folder 0700, file 0600),
  // whatever the umask, from its first byte on.
  fs.mkdirSync(path.dirname(destination), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(destination, "w", 0o600));
  fs.chmodSync(destination, 0o600);
  const database = new Database(source, { readonly: true, fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  let steps = 0;
  try {
    await database.backup(destination, {
      progress: ({ remainingPages }) => {
        steps++;
        return remainingPages > 0 ? pagesPerStep : 0;
      },
    });
  } finally {
    database.close();
  }
  const copy = new Database(destination, { fileMustExist: true });
  try {
    const integrity = copy.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`the copy failed its integrity check: ${integrity}`);
    // The copy is a standalone file: no -wal beside it to carry around.
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
  fs.chmodSync(destination, 0o600);
  return { destination, bytes: fs.statSync(destination).size, steps };
}

async function main() {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf("--out");
  const outDir = path.resolve(outIndex >= 0 ? args[outIndex + 1] : "data/backups");
  const file = sqliteFile(process.env.DATABASE_URL);
  if (!file) {
    console.error("DATABASE_URL is PostgreSQL: back it up with pg_dump (README, \"Backup and restore\").");
    process.exit(1);
  }
  const started = Date.now();
  const result = await backupSqlite(file, path.join(outDir, backupName()));
  console.log(
    `backed up ${path.relative(process.cwd(), file)} to ${path.relative(process.cwd(), result.destination)} ` +
      `(${(result.bytes / 1024 / 1024).toFixed(1)} MB, integrity ok, ${Date.now() - started} ms)`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
