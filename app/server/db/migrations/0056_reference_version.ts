import { sql, type Kysely } from "kysely";
import { isPostgres } from "./helpers";

// Reference data (decision 056): what operators set and every page reads, kept in each server's
// memory. reference_version is one counter that every change of those tables raises, by triggers
// in the same transaction as the change, whatever code path (or person at a SQL prompt) made it.
// A request reads the counter once; a cached copy taken under another value is read afresh, so a
// second server sees an operator's change on its next request.
export const REFERENCE_TABLES = [
  "schools",
  "campuses",
  "forum_categories",
  "delivery_slots",
  "coupon_templates",
  "coupon_grant_rules",
  "school_calendar_entries",
] as const;

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("reference_version")
    .addColumn("id", "integer", (col) => col.primaryKey())
    .addColumn("version", "integer", (col) => col.notNull())
    .addCheckConstraint("reference_version_one_row", sql`id = 1`)
    .execute();
  await sql`INSERT INTO reference_version (id, version) VALUES (1, 0)`.execute(db);
  if (isPostgres(db)) {
    await sql`CREATE FUNCTION reference_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE reference_version SET version = version + 1 WHERE id = 1;
      RETURN NULL;
    END $$`.execute(db);
    for (const table of REFERENCE_TABLES) {
      await sql`CREATE TRIGGER ${sql.raw(`${table}_reference_changed`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION reference_changed()`.execute(db);
    }
    return;
  }
  for (const table of REFERENCE_TABLES) {
    for (const event of ["INSERT", "UPDATE", "DELETE"]) {
      await sql`CREATE TRIGGER ${sql.raw(`${table}_reference_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON ${sql.table(table)} BEGIN
        UPDATE reference_version SET version = version + 1 WHERE id = 1;
      END`.execute(db);
    }
  }
}
