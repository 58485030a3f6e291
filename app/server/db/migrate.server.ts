import { Migrator } from "kysely";
import type { DB } from "./db.server";
import { migrations } from "./migrations";

export async function migrateToLatest(database: DB) {
  const migrator = new Migrator({
    db: database,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? "?"} failed: ${String(error)}`);
  }
  return results?.filter((result) => result.status === "Success").map((result) => result.migrationName) ?? [];
}
