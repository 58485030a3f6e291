import { type Kysely, sql } from "kysely";
import { isPostgres, withId } from "./helpers";

// (hostile input), three parts:
//
// 1. Comment threads two levels deep. root_id is the top-level comment a reply belongs to (null
//    for a top-level comment); parent_id stays the comment answered (its author is the @mention).
//    Existing replies at any depth are flattened into their top-level comment's thread, so old
//    data displays. The page reads a post's top-level comments through comments_top_idx (a
//    partial index: both databases serve `root_id IS NULL` and the id order from it) and a
//    thread's replies through comments_root_idx.
// 2. The captcha is a signed token; nothing is stored when one is shown. A token's nonce is
//    written to captcha_nonces when it is used (so it never passes twice), until it expires.
// 3. Login throttles (decision 015): one counter row per key (account+client, client, …) with
//    the failures, the last failure and the end of the current backoff.
// SQLite would evaluate the recursive query once per updated row (quadratic: a minute for 10,000
// comments), so the roots are computed once into a temporary table keyed by id.
const BACKFILL_SQLITE = [
  sql`CREATE TEMP TABLE comment_roots (id INTEGER PRIMARY KEY, root INTEGER NOT NULL)`,
  sql`INSERT INTO comment_roots (id, root)
    WITH RECURSIVE chain(id, root) AS (
      SELECT id, id FROM comments WHERE parent_id IS NULL
      UNION ALL
      SELECT c.id, chain.root FROM comments c JOIN chain ON c.parent_id = chain.id
    )
    SELECT id, root FROM chain WHERE id <> root`,
  sql`UPDATE comments SET root_id = (SELECT root FROM comment_roots WHERE comment_roots.id = comments.id) WHERE parent_id IS NOT NULL`,
  sql`DROP TABLE comment_roots`,
];

// PostgreSQL plans the recursive step once; without statistics it may pick a hash join that
// reads all comments at every level (seconds for a chain 3,000 deep). Nested loops over
// comments_parent_idx follow a chain in time proportional to its length. One simple-query string
// keeps the settings and the update on one connection.
const BACKFILL_POSTGRES = sql.raw(`
  SET enable_hashjoin = off; SET enable_mergejoin = off;
  WITH RECURSIVE chain(id, root) AS (
    SELECT id, id FROM comments WHERE parent_id IS NULL
    UNION ALL
    SELECT c.id, chain.root FROM comments c JOIN chain ON c.parent_id = chain.id
  )
  UPDATE comments SET root_id = chain.root FROM chain WHERE chain.id = comments.id AND comments.parent_id IS NOT NULL;
  RESET enable_hashjoin; RESET enable_mergejoin;`);

/** Sets every reply's root_id from its chain of parents (also what a test runs on old-style rows). */
export async function flattenThreads(db: Kysely<any>) {
  if (isPostgres(db)) await BACKFILL_POSTGRES.execute(db);
  else for (const statement of BACKFILL_SQLITE) await statement.execute(db);
}

export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("comments")
    .addColumn("root_id", "integer", (col) => col.references("comments.id").onDelete("cascade"))
    .execute();
  await flattenThreads(db);
  await db.schema.createIndex("comments_top_idx").on("comments").columns(["post_id", "id"]).where(sql.ref("root_id"), "is", null).execute();
  await db.schema.createIndex("comments_root_idx").on("comments").columns(["root_id", "id"]).execute();

  await db.schema.dropTable("captchas").execute();
  await db.schema
    .createTable("captcha_nonces")
    .addColumn("nonce", "text", (col) => col.primaryKey())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("captcha_nonces_expiry_idx").on("captcha_nonces").column("expires_at").execute();

  await db.schema
    .createTable("login_throttles")
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("failures", "integer", (col) => col.notNull())
    .addColumn("last_failure_at", "text", (col) => col.notNull())
    .addColumn("blocked_until", "text")
    .execute();
  await db.schema.createIndex("login_throttles_last_idx").on("login_throttles").column("last_failure_at").execute();
  // The throttles replace the per-attempt rows (which held student ids and addresses in clear).
  await db.schema.dropTable("login_attempts").execute();
}

export async function down(db: Kysely<any>) {
  await withId(db, db.schema.createTable("login_attempts"))
    .addColumn("scope", "text", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("outcome", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("login_attempts_key_idx").on("login_attempts").columns(["scope", "key", "created_at"]).execute();
  await db.schema.dropTable("login_throttles").execute();
  await db.schema.dropTable("captcha_nonces").execute();
  await db.schema
    .createTable("captchas")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("answer_hash", "text", (col) => col.notNull())
    .addColumn("image", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("captchas_expiry_idx").on("captchas").column("expires_at").execute();
  await db.schema.dropIndex("comments_root_idx").execute();
  await db.schema.dropIndex("comments_top_idx").execute();
  await db.schema.alterTable("comments").dropColumn("root_id").execute();
}
