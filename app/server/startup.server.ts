import { config } from "./config.server";
import { closeDb, db, dialect } from "./db/db.server";
import { migrateToLatest } from "./db/migrate.server";
import { seedDemoData, seedReferenceData } from "./db/seed.server";
import { stopOcr } from "./market/ocr.server";
import { log, runJob } from "./log.server";
import { logCapabilityWarnings } from "./admin/readiness.server";
import { startNotifyWorkers, stopNotifyWorkers } from "./notify/worker.server";
import { scheduleOrderJobs, stopOrderJobs } from "./orders/jobs.server";
import { runAccountDeletionJob, scheduleAccountDeletion, stopAccountDeletion } from "./users/deletion.server";

/** Everything the server does before it listens: read the config, migrate, seed. */
export async function startup() {
  const settings = config();
  const applied = await migrateToLatest(db());
  if (applied.length > 0) log("info", "migrated", { migrations: applied, dialect: dialect() });
  await seedReferenceData(db(), { demo: settings.seedDemoData });
  if (settings.seedDemoData && (await seedDemoData(db()))) log("info", "seeded demo data");
  // Payment, template messages, the academic system: each one that is off is one warning line.
  await logCapabilityWarnings(settings);
  await runJob("account-deletion", runAccountDeletionJob);
  scheduleAccountDeletion();
  startNotifyWorkers();
  // Unpaid orders close after 24 hours; processing refunds are checked with the provider.
  scheduleOrderJobs();
  return {
    port: settings.port,
    host: settings.host,
    env: settings.env,
    http: settings.http,
    metrics: settings.metrics,
  };
}

export async function shutdown() {
  stopAccountDeletion();
  stopOrderJobs();
  await stopNotifyWorkers();
  await stopOcr();
  await closeDb();
}
