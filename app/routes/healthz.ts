import { sql } from "kysely";
import { db } from "~/server/db/db.server";
import { log } from "~/server/log.server";

export async function loader() {
  try {
    await sql`select 1`.execute(db());
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    log("error", "healthz", { error: String(error) });
    return Response.json({ status: "error" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
