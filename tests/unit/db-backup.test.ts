// scripts/db-backup.mjs: an online copy of a SQLite database that another process keeps writing.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { backupName, backupSqlite, sqliteFile } from "../../scripts/db-backup.mjs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "db-backup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The writer: another process inserting in small transactions until told to stop.
const WRITER = `
const Database = require("better-sqlite3");
const db = new Database(process.argv[1]);
db.pragma("journal_mode = WAL");
db.pragma("busy_timeout = 5000");
const insert = db.prepare("INSERT INTO items (body, n) VALUES (?, ?)");
const many = db.transaction((n) => { for (let i = 0; i < 50; i++) insert.run("x".repeat(200), n); });
let n = 0;
const deadline = Date.now() + 20000;
process.stdout.write("ready\\n");
while (!require("fs").existsSync(process.argv[1] + ".stop") && Date.now() < deadline) many(n++);
process.stdout.write("wrote " + n + "\\n");
`;

describe("db:backup", () => {
  it("names DATABASE_URL's file and refuses PostgreSQL", () => {
    expect(sqliteFile("file:./data/app.db")).toBe(path.resolve("data/app.db"));
    expect(sqliteFile("postgres://u@localhost/db")).toBeNull();
    expect(backupName(new Date("2026-11-22T06:40:01.123Z"))).toBe("app-20261122T064001Z.db");
  });

  it("writes the backup readable by its owner only (0600, folder 0700), whatever the umask", async () => {
    const source = path.join(dir, "small.db");
    const database = new Database(source);
    database.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('学生');");
    database.close();
    const previous = process.umask(0o000);
    try {
      const out = path.join(dir, "private", "copy.db");
      await backupSqlite(source, out);
      expect(fs.statSync(out).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(out)).mode & 0o777).toBe(0o700);
      const copy = new Database(out, { readonly: true });
      expect(copy.prepare("SELECT x FROM t").get()).toEqual({ x: "学生" });
      copy.close();
    } finally {
      process.umask(previous);
    }
  });

  it("copies a database being written into a file that passes integrity_check", async () => {
    const source = path.join(dir, "app.db");
    const database = new Database(source);
    database.pragma("journal_mode = WAL");
    database.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT NOT NULL, n INTEGER NOT NULL)");
    const seed = database.prepare("INSERT INTO items (body, n) VALUES (?, -1)");
    database.transaction(() => {
      for (let i = 0; i < 20_000; i++) seed.run("seed".repeat(50));
    })();
    database.close();

    const writer = spawn(process.execPath, ["-e", WRITER, source], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    writer.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (output.includes("ready")) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    const destination = path.join(dir, "backups", backupName());
    const result = await backupSqlite(source, destination);
    fs.writeFileSync(`${source}.stop`, "");
    await new Promise((resolve) => writer.once("exit", resolve));
    expect(output).toMatch(/wrote \d+/);

    expect(result.steps).toBeGreaterThanOrEqual(1);
    const copy = new Database(destination, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const { seeded } = copy.prepare("SELECT count(*) AS seeded FROM items WHERE n = -1").get() as { seeded: number };
      expect(seeded).toBe(20_000);
      // Whole transactions only: every batch of the writer is all there or not at all.
      const partial = copy.prepare("SELECT n, count(*) AS c FROM items WHERE n >= 0 GROUP BY n HAVING c <> 50").all();
      expect(partial).toEqual([]);
    } finally {
      copy.close();
    }
  }, 30_000);
});
