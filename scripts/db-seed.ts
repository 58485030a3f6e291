// `npm run db:seed`: migrates, then adds the reference data (categories, delivery schedule, coupon
// rules; with demo data also the demo school and campuses; existing rows are kept) and, into a
// database without users, the demo content. The server does the same at start. Demo data follows
// SEED_DEMO_DATA: on by default outside production, off in production unless it is set to true.
import { config } from "~/server/config.server";
import { createDatabase } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { seedDemoData, seedReferenceData } from "~/server/db/seed.server";

const settings = config();
const database = createDatabase(settings.databaseUrl);
try {
  await migrateToLatest(database);
  await seedReferenceData(database, { demo: settings.seedDemoData });
  console.log("Reference data in place");
  if (!settings.seedDemoData) console.log("Demo data skipped: SEED_DEMO_DATA is off (the production default)");
  else console.log((await seedDemoData(database)) ? "Demo data added" : "Demo data skipped: the database already has users");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
