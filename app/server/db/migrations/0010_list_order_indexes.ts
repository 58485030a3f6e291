import { type Kysely, sql } from "kysely";
import { isPostgres } from "./helpers";

// Performance: /admin/orders at campus size and at ten times that, on both databases
// (app/server/db/query-plans.db.test.ts checks the plans).
//
// 1. The list indexes. A tab lists one status (or a few), not deleted, newest first by
//    created_at then id. 0009's indexes put deleted_at between the status and created_at:
//    SQLite treats `deleted_at IS NULL` as an equality and its indexes end with the rowid, so they
//    delivered the order; PostgreSQL does not (IS NULL fixes no sort key, its B-tree carries no
//    id), so no tab could take its order from its own index. Now the order's columns come first
//    and deleted_at last: the order comes from the index on both, deleted rows are skipped inside
//    the index, and counting is still covering. Same names, so what names them stays true.
//
// 2. The tab counts. Counting every live order per status on each page load grows with the
//    order history (at ten times campus size: 100,000 orders, 170 ms on SQLite). order_counts
//    keeps the number of live orders per campus and status, maintained by triggers in the same
//    transaction as the change of the row itself (insert, status or campus change, soft delete,
//    delete), so it is exact whatever code path changes an order. Counter rows are touched in the
//    order of the statuses (a transition decrements the old one, then increments the new one, and
//    orders only move forward), so two transactions never wait on each other in a cycle.
const LIST: [name: string, before: string[], after: string[]][] = [
  ["orders_admin_status_idx", ["status", "deleted_at", "created_at"], ["status", "created_at", "id", "deleted_at"]],
  ["orders_admin_campus_idx", ["campus_code", "status", "deleted_at", "created_at"], ["campus_code", "status", "created_at", "id", "deleted_at"]],
  ["orders_admin_campus_all_idx", ["campus_code", "created_at"], ["campus_code", "created_at", "id", "deleted_at"]],
  ["orders_created_idx", ["created_at"], ["created_at", "id"]],
];

const SQLITE_TRIGGERS = [
  sql`CREATE TRIGGER orders_count_insert AFTER INSERT ON orders WHEN NEW.deleted_at IS NULL BEGIN
    INSERT INTO order_counts (campus_code, status, n) VALUES (NEW.campus_code, NEW.status, 1)
      ON CONFLICT (campus_code, status) DO UPDATE SET n = n + 1;
  END`,
  sql`CREATE TRIGGER orders_count_delete AFTER DELETE ON orders WHEN OLD.deleted_at IS NULL BEGIN
    UPDATE order_counts SET n = n - 1 WHERE campus_code = OLD.campus_code AND status = OLD.status;
  END`,
  sql`CREATE TRIGGER orders_count_update AFTER UPDATE OF status, campus_code, deleted_at ON orders
    WHEN OLD.status IS NOT NEW.status OR OLD.campus_code IS NOT NEW.campus_code OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
  BEGIN
    UPDATE order_counts SET n = n - 1 WHERE OLD.deleted_at IS NULL AND campus_code = OLD.campus_code AND status = OLD.status;
    INSERT INTO order_counts (campus_code, status, n) SELECT NEW.campus_code, NEW.status, 1 WHERE NEW.deleted_at IS NULL
      ON CONFLICT (campus_code, status) DO UPDATE SET n = n + 1;
  END`,
];

const POSTGRES_TRIGGERS = [
  sql`CREATE FUNCTION orders_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
      UPDATE order_counts SET n = n - 1 WHERE campus_code = OLD.campus_code AND status = OLD.status;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
      INSERT INTO order_counts (campus_code, status, n) VALUES (NEW.campus_code, NEW.status, 1)
        ON CONFLICT (campus_code, status) DO UPDATE SET n = order_counts.n + 1;
    END IF;
    RETURN NULL;
  END $$`,
  sql`CREATE TRIGGER orders_count_insert_delete AFTER INSERT OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION orders_count_change()`,
  sql`CREATE TRIGGER orders_count_update AFTER UPDATE OF status, campus_code, deleted_at ON orders FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.campus_code IS DISTINCT FROM NEW.campus_code OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
    EXECUTE FUNCTION orders_count_change()`,
];

export async function up(db: Kysely<any>) {
  for (const [name, , columns] of LIST) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on("orders").columns(columns).execute();
  }

  await db.schema
    .createTable("order_counts")
    .addColumn("campus_code", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("n", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("order_counts_pk", ["campus_code", "status"])
    .execute();
  await sql`INSERT INTO order_counts (campus_code, status, n)
    SELECT campus_code, status, count(*) FROM orders WHERE deleted_at IS NULL GROUP BY campus_code, status`.execute(db);
  for (const statement of isPostgres(db) ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await statement.execute(db);
}

export async function down(db: Kysely<any>) {
  if (isPostgres(db)) {
    await sql`DROP TRIGGER orders_count_update ON orders`.execute(db);
    await sql`DROP TRIGGER orders_count_insert_delete ON orders`.execute(db);
    await sql`DROP FUNCTION orders_count_change()`.execute(db);
  } else {
    for (const name of ["orders_count_update", "orders_count_delete", "orders_count_insert"]) await sql.raw(`DROP TRIGGER ${name}`).execute(db);
  }
  await db.schema.dropTable("order_counts").execute();
  for (const [name, columns] of LIST) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on("orders").columns(columns).execute();
  }
}
