import { sql, type Kysely } from "kysely";
import { isPostgres } from "./helpers";

// The circle's search on PostgreSQL looks every term up in the index of the texts' pairs of
// neighbouring characters (decision 050): a term's pairs are exact in a tsvector, so the index
// needs no recheck, where pg_trgm's always rechecks (recomputing the row's text for every match).
// - The pg_trgm indexes are no longer read: dropped, so a post or comment costs fewer index entries.
// - search_bigrams() is costly per row (it cuts the text into pairs); its declared cost says so,
//   so the planner never prefers evaluating it row by row over its GIN index.
// SQLite is unchanged (its FTS5 tables already serve every term through an index).
export async function up(db: Kysely<any>) {
  if (!isPostgres(db)) return;
  await sql`ALTER FUNCTION search_bigrams(text) COST 10000`.execute(db);
  for (const index of ["posts_content_trgm", "posts_title_trgm", "comments_content_trgm"]) await sql.raw(`DROP INDEX IF EXISTS ${index}`).execute(db);
}

export async function down(db: Kysely<any>) {
  if (!isPostgres(db)) return;
  await sql`ALTER FUNCTION search_bigrams(text) COST 100`.execute(db);
  await sql`CREATE INDEX posts_content_trgm ON posts USING gin (content gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX posts_title_trgm ON posts USING gin (title gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX comments_content_trgm ON comments USING gin (content gin_trgm_ops)`.execute(db);
}
