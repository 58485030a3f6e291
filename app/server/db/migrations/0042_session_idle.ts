import type { Kysely } from "kysely";

// When a session was last used, for the 30-day idle timeout (app/server/auth/session.server.ts).
// Existing rows start at null, which counts as their creation time.
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
}
