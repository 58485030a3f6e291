import { type Kysely, sql } from "kysely";

// Performance (issue 11): the admin order lists (a tab, a campus, not deleted, newest first by
// created_at then id), checked by app/server/db/query-plans.db.test.ts on both databases.
//
// 0009's indexes put deleted_at between the status and created_at. SQLite treats
// `deleted_at IS NULL` as an equality and its indexes end with the rowid, so they delivered the
// order; PostgreSQL does not: for it IS NULL fixes no sort key and its B-tree carries no id, so
// no tab could take its order from its index (the planner walked orders_created_idx filtering
// the status, or sorted). Partial indexes over the live orders, ending with id, serve both
// databases the same way: the condition is the index's predicate, and the index is the order.
// Same names, so what names them (admin/orders.server.ts, the tests) stays true.
const LIVE: [name: string, columns: string[]][] = [
  ["orders_admin_status_idx", ["status", "created_at", "id"]],
  ["orders_admin_campus_idx", ["campus_code", "status", "created_at", "id"]],
  ["orders_admin_campus_all_idx", ["campus_code", "created_at", "id"]],
];
const BEFORE: Record<string, string[]> = {
  orders_admin_status_idx: ["status", "deleted_at", "created_at"],
  orders_admin_campus_idx: ["campus_code", "status", "deleted_at", "created_at"],
  orders_admin_campus_all_idx: ["campus_code", "created_at"],
};

export async function up(db: Kysely<any>) {
  for (const [name, columns] of LIVE) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on("orders").columns(columns).where(sql.ref("deleted_at"), "is", null).execute();
  }
  // The 'all' tab and the pickup-code search (by creation time): every order, newest first.
  await db.schema.dropIndex("orders_created_idx").execute();
  await db.schema.createIndex("orders_created_idx").on("orders").columns(["created_at", "id"]).execute();
}

export async function down(db: Kysely<any>) {
  for (const [name] of LIVE) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on("orders").columns(BEFORE[name]!).execute();
  }
  await db.schema.dropIndex("orders_created_idx").execute();
  await db.schema.createIndex("orders_created_idx").on("orders").column("created_at").execute();
}
