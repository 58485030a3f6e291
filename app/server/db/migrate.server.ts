import { Migrator } from "kysely";
import type { DB } from "./db.server";
import { migrations } from "./migrations";

export async function migrateToLatest(database: DB) {
  const migrator = new Migrator({
    db: database,
    provider: { getMigrations: async () => migrations },
    // Numbers are handed out per piece of work and land in any order (0019 may be applied before
    // 0012 arrives): a missing earlier migration runs instead of stopping the server.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === "Error");
    if (!failed) throw new Error(`the database cannot be reached: ${connectionProblem(error)}`);
    throw new Error(`Migration ${failed.migrationName} failed: ${String(error)}`);
  }
  return results?.filter((result) => result.status === "Success").map((result) => result.migrationName) ?? [];
}

/** A plain sentence for the errors an operator meets before any migration runs. */
export function connectionProblem(error: unknown) {
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // PostgreSQL's invalid_catalog_name: DATABASE_URL names a database that was never created.
  if (code === "3D000") {
    const name = /database "([^"]+)"/.exec(message)?.[1];
    return `PostgreSQL database ${name ? `"${name}" ` : ""}does not exist: create it (createdb ${name ?? "<name>"}) or correct DATABASE_URL`;
  }
  if (code === "ECONNREFUSED") return `nothing answers at the DATABASE_URL's host and port (${message})`;
  if (code === "28P01" || code === "28000") return `PostgreSQL refused the user or password in DATABASE_URL (${message})`;
  return message;
}
