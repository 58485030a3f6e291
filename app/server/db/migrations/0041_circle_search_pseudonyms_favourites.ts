import { randomInt } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { SEARCH_INDEXED_CHARS } from "~/lib/circle-search";
import { hotScore, type HotEvent } from "~/lib/hot";
import { forumData } from "~/lib/messages/forumData";
import { pickPseudonymIndex } from "~/lib/pseudonyms";
import { isPostgres } from "./helpers";

// The circle's search, pseudonyms, favourites and 热门 (decision 041).
// - Search: SQLite keeps FTS5 indexes of posts (title, content) and comments: one with the trigram
//   tokenizer (terms of three characters or more) and one of the texts' pairs of neighbouring
//   characters (two-character terms), both maintained by triggers (insert, delete, an edit of the
//   text), with secure-delete so a deleted text leaves no tokens behind. PostgreSQL: pg_trgm GIN
//   indexes and a GIN index of the pairs as a tsvector (search_bigrams), kept by PostgreSQL itself.
// - thread_pseudonyms: the name each anonymous participant drew in a thread (one per person and
//   thread; a name once per thread).
// - post_favourites: 收藏, listed newest first per person.
// - posts.hot_score: the logarithm of the post's decayed events (app/lib/hot.ts), indexed for 热门.
export async function up(db: Kysely<any>) {
  if (isPostgres(db)) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX posts_content_trgm ON posts USING gin (content gin_trgm_ops)`.execute(db);
    await sql`CREATE INDEX posts_title_trgm ON posts USING gin (title gin_trgm_ops)`.execute(db);
    await sql`CREATE INDEX comments_content_trgm ON comments USING gin (content gin_trgm_ops)`.execute(db);
    // Two-character terms: every pair of neighbouring characters as a lexeme of a tsvector.
    await sql`CREATE FUNCTION search_bigrams(t text) RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT coalesce(array_to_tsvector(array_agg(DISTINCT lower(substr(t, i, 2)))), ''::tsvector) FROM generate_series(1, char_length(t) - 1) AS i
    $$`.execute(db);
    await sql`CREATE INDEX posts_bigrams ON posts USING gin (search_bigrams(coalesce(title, '') || ' ' || content))`.execute(db);
    await sql`CREATE INDEX comments_bigrams ON comments USING gin (search_bigrams(content))`.execute(db);
  } else {
    // Positions 1…SEARCH_INDEXED_CHARS, for the triggers that cut a text into pairs of characters
    // in plain SQL (a trigger cannot hold a recursive query, and a function registered on the
    // app's connection would break every other writer, such as the sqlite3 shell).
    await db.schema.createTable("search_positions").addColumn("n", "integer", (col) => col.primaryKey()).execute();
    for (let from = 1; from <= SEARCH_INDEXED_CHARS; from += 500) {
      await db
        .insertInto("search_positions")
        .values(Array.from({ length: Math.min(500, SEARCH_INDEXED_CHARS - from + 1) }, (_, i) => ({ n: from + i })))
        .execute();
    }
    await sql`CREATE VIRTUAL TABLE posts_fts USING fts5(title, content, content='posts', content_rowid='id', tokenize='trigram')`.execute(db);
    await sql`CREATE VIRTUAL TABLE comments_fts USING fts5(content, content='comments', content_rowid='id', tokenize='trigram')`.execute(db);
    await sql`CREATE VIRTUAL TABLE posts_bigrams USING fts5(text, content='', contentless_delete=1, tokenize='unicode61')`.execute(db);
    await sql`CREATE VIRTUAL TABLE comments_bigrams USING fts5(text, content='', contentless_delete=1, tokenize='unicode61')`.execute(db);
    for (const table of ["posts_fts", "comments_fts", "posts_bigrams", "comments_bigrams"]) {
      // A deleted text leaves no tokens in the index (decision 033's data hygiene).
      await sql.raw(`INSERT INTO ${table}(${table}, rank) VALUES('secure-delete', 1)`).execute(db);
    }
    for (const table of ["posts_fts", "comments_fts"]) await sql.raw(`INSERT INTO ${table}(${table}) VALUES('rebuild')`).execute(db);
    const pairs = (column: string) =>
      `coalesce((SELECT group_concat(substr(${column}, n, 2), ' ') FROM search_positions WHERE n < length(${column})), '')`;
    const postPairs = (row: string) => `${pairs(`${row}.title`)} || ' ' || ${pairs(`${row}.content`)}`;
    await sql.raw(`INSERT INTO posts_bigrams(rowid, text) SELECT posts.id, ${postPairs("posts")} FROM posts`).execute(db);
    await sql.raw(`INSERT INTO comments_bigrams(rowid, text) SELECT comments.id, ${pairs("comments.content")} FROM comments`).execute(db);
    for (const statement of [
      `CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
         INSERT INTO posts_fts(rowid, title, content) VALUES (NEW.id, NEW.title, NEW.content);
         INSERT INTO posts_bigrams(rowid, text) VALUES (NEW.id, ${postPairs("NEW")});
       END`,
      `CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
         INSERT INTO posts_fts(posts_fts, rowid, title, content) VALUES ('delete', OLD.id, OLD.title, OLD.content);
         DELETE FROM posts_bigrams WHERE rowid = OLD.id;
       END`,
      `CREATE TRIGGER posts_search_update AFTER UPDATE OF title, content ON posts BEGIN
         INSERT INTO posts_fts(posts_fts, rowid, title, content) VALUES ('delete', OLD.id, OLD.title, OLD.content);
         INSERT INTO posts_fts(rowid, title, content) VALUES (NEW.id, NEW.title, NEW.content);
         DELETE FROM posts_bigrams WHERE rowid = OLD.id;
         INSERT INTO posts_bigrams(rowid, text) VALUES (NEW.id, ${postPairs("NEW")});
       END`,
      `CREATE TRIGGER comments_search_insert AFTER INSERT ON comments BEGIN
         INSERT INTO comments_fts(rowid, content) VALUES (NEW.id, NEW.content);
         INSERT INTO comments_bigrams(rowid, text) VALUES (NEW.id, ${pairs("NEW.content")});
       END`,
      `CREATE TRIGGER comments_search_delete AFTER DELETE ON comments BEGIN
         INSERT INTO comments_fts(comments_fts, rowid, content) VALUES ('delete', OLD.id, OLD.content);
         DELETE FROM comments_bigrams WHERE rowid = OLD.id;
       END`,
      `CREATE TRIGGER comments_search_update AFTER UPDATE OF content ON comments BEGIN
         INSERT INTO comments_fts(comments_fts, rowid, content) VALUES ('delete', OLD.id, OLD.content);
         INSERT INTO comments_fts(rowid, content) VALUES (NEW.id, NEW.content);
         DELETE FROM comments_bigrams WHERE rowid = OLD.id;
         INSERT INTO comments_bigrams(rowid, text) VALUES (NEW.id, ${pairs("NEW.content")});
       END`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  }

  await db.schema
    .createTable("thread_pseudonyms")
    .addColumn("post_id", "integer", (col) => col.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name_index", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("thread_pseudonyms_pk", ["post_id", "user_id"])
    .addUniqueConstraint("thread_pseudonyms_name_unique", ["post_id", "name_index"])
    .execute();
  await db.schema.createIndex("thread_pseudonyms_user_idx").on("thread_pseudonyms").column("user_id").execute();

  await db.schema
    .createTable("post_favourites")
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("post_id", "integer", (col) => col.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("post_favourites_pk", ["user_id", "post_id"])
    .execute();
  // The backpack's list, newest first; the post's side for cascades.
  await db.schema.createIndex("post_favourites_list_idx").on("post_favourites").columns(["user_id", "created_at", "post_id"]).execute();
  await db.schema.createIndex("post_favourites_post_idx").on("post_favourites").column("post_id").execute();

  await db.schema.alterTable("posts").addColumn("hot_score", "double precision", (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.createIndex("posts_hot_idx").on("posts").columns(["moderation", "hot_score", "id"]).execute();
  await db.schema.createIndex("posts_category_hot_idx").on("posts").columns(["category_id", "moderation", "hot_score", "id"]).execute();

  await backfill(db);
}

/** Existing posts: their scores from their events; existing anonymous participants: a name each. */
async function backfill(db: Kysely<any>) {
  const posts: { id: number; created_at: string }[] = await db.selectFrom("posts").select(["id", "created_at"]).execute();
  const events = new Map<number, HotEvent[]>(posts.map((post) => [post.id, [{ kind: "post", at: post.created_at }]]));
  for (const like of (await db.selectFrom("post_likes").select(["post_id", "created_at"]).execute()) as { post_id: number; created_at: string }[]) {
    events.get(like.post_id)?.push({ kind: "like", at: like.created_at });
  }
  const comments: { id: number; post_id: number; user_id: number; is_anonymous: number; created_at: string }[] = await db
    .selectFrom("comments")
    .select(["id", "post_id", "user_id", "is_anonymous", "created_at"])
    .orderBy("id")
    .execute();
  for (const comment of comments) events.get(comment.post_id)?.push({ kind: "comment", at: comment.created_at });
  for (const [id, list] of events) await db.updateTable("posts").set({ hot_score: hotScore(list) }).where("id", "=", id).execute();

  const anonymousPosts: { id: number; user_id: number }[] = await db.selectFrom("posts").select(["id", "user_id"]).where("is_anonymous", "=", 1).execute();
  const participants = [
    ...anonymousPosts.map((post) => ({ post_id: post.id, user_id: post.user_id })),
    ...comments.filter((comment) => comment.is_anonymous).map((comment) => ({ post_id: comment.post_id, user_id: comment.user_id })),
  ];
  const named = new Map<number, Map<number, number>>();
  for (const { post_id, user_id } of participants) {
    const thread = named.get(post_id) ?? new Map<number, number>();
    named.set(post_id, thread);
    if (thread.has(user_id)) continue;
    const index = pickPseudonymIndex(new Set(thread.values()), forumData.pseudonyms.length, (n) => randomInt(n));
    thread.set(user_id, index);
    await db.insertInto("thread_pseudonyms").values({ post_id, user_id, name_index: index }).execute();
  }
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("posts_category_hot_idx").execute();
  await db.schema.dropIndex("posts_hot_idx").execute();
  await db.schema.alterTable("posts").dropColumn("hot_score").execute();
  await db.schema.dropTable("post_favourites").execute();
  await db.schema.dropTable("thread_pseudonyms").execute();
  if (isPostgres(db)) {
    for (const index of ["comments_bigrams", "posts_bigrams", "comments_content_trgm", "posts_title_trgm", "posts_content_trgm"]) await db.schema.dropIndex(index).execute();
    await sql`DROP FUNCTION search_bigrams(text)`.execute(db);
  } else {
    for (const trigger of ["posts_search_insert", "posts_search_delete", "posts_search_update", "comments_search_insert", "comments_search_delete", "comments_search_update"]) {
      await sql.raw(`DROP TRIGGER ${trigger}`).execute(db);
    }
    for (const table of ["comments_bigrams", "posts_bigrams", "comments_fts", "posts_fts", "search_positions"]) await sql.raw(`DROP TABLE ${table}`).execute(db);
  }
}
