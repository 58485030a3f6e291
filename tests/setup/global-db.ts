// Vitest globalSetup for the db-sqlite and db-postgres projects: builds one migrated template
// database per run (with the reference data every installation gets at start), which each test
// file then copies (tests/setup/db.ts). Migrating once keeps a test file's start cheap.
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createDatabase } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { seedReferenceData } from "~/server/db/seed.server";
import { PG_PREFIX, SQLITE_DIR, dropDatabase, postgresUrlFor, quoteIdent, uniqueSuffix, withAdmin } from "./test-db";

async function migrate(url: string) {
  const database = createDatabase(url);
  try {
    await migrateToLatest(database);
    await seedReferenceData(database);
  } finally {
    await database.destroy();
  }
}

async function sqliteTemplate(project: TestProject) {
  fs.mkdirSync(SQLITE_DIR, { recursive: true });
  // Files left by an interrupted run (their vitest process is gone).
  for (const name of fs.readdirSync(SQLITE_DIR)) {
    const pid = Number(/^(?:tpl|db)-(\d+)_/.exec(name)?.[1]);
    if (pid && !isAlive(pid)) fs.rmSync(path.join(SQLITE_DIR, name), { force: true });
  }
  const file = path.join(SQLITE_DIR, `tpl-${uniqueSuffix()}.db`);
  await migrate(`file:${file}`);
  // Closing the connection checkpointed the WAL into the main file: the .db file alone is the template.
  project.provide("sqliteTemplate", file);
  return () => {
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  };
}

async function postgresTemplate(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const runPrefix = `${PG_PREFIX}${process.pid}_`;
  const template = `${runPrefix}tpl`;
  await withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1",
      [`${PG_PREFIX}%`],
    );
    for (const { datname } of rows) {
      const pid = Number(datname.slice(PG_PREFIX.length).split("_")[0]);
      if (datname.startsWith(runPrefix) || !isAlive(pid)) await dropDatabase(client, datname);
    }
    await client.query(`CREATE DATABASE ${quoteIdent(template)}`);
  });
  await migrate(postgresUrlFor(adminUrl, template));
  project.provide("pgTemplate", template);
  project.provide("pgRunPrefix", runPrefix);
  return async () => {
    await withAdmin(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE $1",
        [`${runPrefix}%`],
      );
      for (const { datname } of rows) await dropDatabase(client, datname);
    });
  };
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export default async function setup(project: TestProject) {
  const dialect = project.config.env?.TEST_DIALECT;
  if (dialect === "postgres") return postgresTemplate(project);
  if (dialect === "sqlite") return sqliteTemplate(project);
  throw new Error(`global-db setup: unknown TEST_DIALECT ${String(dialect)} in project ${project.name}`);
}
