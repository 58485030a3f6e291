// `npm run db:migrate`: applies the pending migrations to DATABASE_URL (default file:./data/app.db).
// The server also does this at every start; this is for deploy steps and for checking a database.
import { config } from "~/server/config.server";
import { createDatabase, dialectOf } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";

const { databaseUrl } = config();
const database = createDatabase(databaseUrl);
try {
  const applied = await migrateToLatest(database);
  const where = dialectOf(databaseUrl) === "sqlite" ? databaseUrl : "PostgreSQL";
  console.log(applied.length > 0 ? `Applied ${applied.join(", ")} to ${where}` : `${where} is up to date`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
