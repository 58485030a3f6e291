// `npm run db:seed`: migrates, then adds the reference data (categories, campuses, buildings,
// package types, schools; existing rows are kept) and, into a database without users, the demo
// content. The server does the same at start (demo content unless SEED_DEMO_DATA=false).
import { config } from "~/server/config.server";
import { createDatabase } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { seedDemoData, seedReferenceData } from "~/server/db/seed.server";

const database = createDatabase(config().databaseUrl);
try {
  await migrateToLatest(database);
  await seedReferenceData(database);
  console.log("Reference data in place");
  console.log((await seedDemoData(database)) ? "Demo data added" : "Demo data skipped: the database already has users");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
