import { sql, type RawBuilder } from "kysely";
import { highlight, isIndexableTerm, SEARCH_CANDIDATES, SEARCH_PAGE_SIZE, searchScore, type Segment } from "~/lib/circle-search";
import { cardTime } from "~/lib/relative-time";
import { db, dialect } from "../db/db.server";
import { toAuthor, type Author } from "./posts.server";

// The circle's search over posts and comments (decision 041). The candidates are the newest
// SEARCH_CANDIDATES visible matches of each kind, found through an index:
// - a term of three characters or more: SQLite's FTS5 trigram tables (posts_fts, comments_fts,
//   kept by triggers) or PostgreSQL's pg_trgm GIN indexes (ILIKE);
// - a query of two-character terms only (a trigram index cannot look up two characters): an
//   index of the texts' pairs of neighbouring characters (SQLite: FTS5 tables posts_bigrams and
//   comments_bigrams filled by triggers; PostgreSQL: GIN indexes over search_bigrams(), a
//   tsvector of the pairs); measured in docs/performance.md "Search".
// Every other term must match too. The candidates are then ranked here by relevance and recency
// (app/lib/circle-search.ts) and their authors pass through toAuthor(), like every page's posts.

export type SearchHit = {
  kind: "post" | "comment";
  postId: number;
  commentId: number | null;
  /** The post's title with the matches marked (a post hit's own title; null for comments). */
  title: Segment[] | null;
  snippet: Segment[];
  author: Author;
  createdAt: string;
  time: string;
};

export type SearchPage = { hits: SearchHit[]; page: number; hasMore: boolean };

const postgres = () => dialect() === "postgres";

/** The text of a term for LIKE: the terms hold only letters and digits (normalizeSearchQuery), so nothing needs escaping. */
function contains(term: string) {
  return `%${term}%`;
}

function matchesAll(columns: RawBuilder<unknown>[], terms: string[]) {
  const op = postgres() ? sql`ILIKE` : sql`LIKE`;
  return sql.join(
    terms.map((term) => sql`(${sql.join(columns.map((column) => sql`${column} ${op} ${contains(term)}`), sql` OR `)})`),
    sql` AND `,
  );
}

/** FTS5's query: each long term as a phrase, all of them required. */
function ftsMatch(terms: string[]) {
  return terms.map((term) => `"${term}"`).join(" AND ");
}

/** PostgreSQL's query of the pairs index: each two-character term as a lexeme, all required. */
function pairsQuery(terms: string[]) {
  return terms.map((term) => `'${term}'`).join(" & ");
}

/** PostgreSQL: the newest rows checked one by one before the index is asked (see pgCandidates). */
const PG_RECENT_ROWS = 5_000;

const POST_PAIRS = sql`search_bigrams(coalesce(posts.title, '') || ' ' || posts.content)`;

/** The ids of the newest visible posts matching every term. */
export function postCandidatesQuery(terms: string[]) {
  const long = terms.filter(isIndexableTerm);
  const text = [sql.ref("posts.title"), sql.ref("posts.content")];
  if (!postgres()) {
    // The trigram index for the long terms, else the pairs index for the short ones, newest first
    // (FTS5 walks its rowids backwards); LIKE checks short terms left over on the row.
    const index = long.length > 0 ? sql`posts_fts` : sql`posts_bigrams`;
    const rest = long.length > 0 ? terms.filter((term) => !isIndexableTerm(term)) : [];
    return sql<{ id: number }>`SELECT posts.id FROM ${index} JOIN posts ON posts.id = ${index}.rowid
      WHERE ${index} MATCH ${ftsMatch(long.length > 0 ? long : terms)} AND posts.moderation = 'visible'${rest.length > 0 ? sql` AND ${matchesAll(text, rest)}` : sql``}
      ORDER BY ${index}.rowid DESC LIMIT ${SEARCH_CANDIDATES}`;
  }
  return pgCandidates("posts", terms, long.length > 0 ? matchesAll(text, long) : sql`${POST_PAIRS} @@ ${pairsQuery(terms)}::tsquery`, text, sql`posts.moderation = 'visible'`);
}

/**
 * PostgreSQL in two steps, as no single plan suits both a common and a rare term: first the
 * newest PG_RECENT_ROWS rows, walked newest first through the primary key with the terms checked
 * on each (an expression no index serves, so the planner cannot pick a bitmap of a common
 * term's thousands of matches); when they hold fewer than SEARCH_CANDIDATES matches, the term is
 * not common and the GIN index (a CTE the planner cannot inline) finds the older ones.
 */
function pgCandidates(table: "posts" | "comments", terms: string[], found: RawBuilder<unknown>, text: RawBuilder<unknown>[], visible: RawBuilder<unknown>) {
  const ref = sql.table(table);
  const id = sql.ref(`${table}.id`);
  const anyText = sql`concat_ws(' ', ${sql.join(text)}) ILIKE`;
  const join = table === "comments" ? sql`JOIN posts ON posts.id = comments.post_id` : sql``;
  return {
    async execute(executor: ReturnType<typeof db>) {
      const top = await sql<{ top: number | null }>`SELECT MAX(id) AS top FROM ${ref}`.execute(executor);
      const boundary = Number(top.rows[0]?.top ?? 0) - PG_RECENT_ROWS;
      const recent = await sql<{ id: number }>`SELECT ${id} FROM ${ref} ${join}
        WHERE ${id} > ${boundary} AND ${visible} AND ${sql.join(terms.map((term) => sql`${anyText} ${contains(term)}`), sql` AND `)}
        ORDER BY ${id} DESC LIMIT ${SEARCH_CANDIDATES}`.execute(executor);
      if (recent.rows.length >= SEARCH_CANDIDATES) return recent;
      const older = await sql<{ id: number }>`WITH matched AS MATERIALIZED (SELECT ${id} FROM ${ref} WHERE ${found} AND ${id} <= ${boundary})
        SELECT matched.id FROM matched JOIN ${ref} ON ${id} = matched.id ${join}
        WHERE ${visible} AND ${matchesAll(text, terms)}
        ORDER BY matched.id DESC LIMIT ${SEARCH_CANDIDATES - recent.rows.length}`.execute(executor);
      return { rows: [...recent.rows, ...older.rows] };
    },
  };
}

/** The ids of the newest visible comments (on visible posts) matching every term. */
export function commentCandidatesQuery(terms: string[]) {
  const long = terms.filter(isIndexableTerm);
  const text = [sql.ref("comments.content")];
  if (!postgres()) {
    const index = long.length > 0 ? sql`comments_fts` : sql`comments_bigrams`;
    const rest = long.length > 0 ? terms.filter((term) => !isIndexableTerm(term)) : [];
    return sql<{ id: number }>`SELECT comments.id FROM ${index} JOIN comments ON comments.id = ${index}.rowid JOIN posts ON posts.id = comments.post_id
      WHERE ${index} MATCH ${ftsMatch(long.length > 0 ? long : terms)} AND comments.moderation = 'visible' AND posts.moderation = 'visible'${rest.length > 0 ? sql` AND ${matchesAll(text, rest)}` : sql``}
      ORDER BY ${index}.rowid DESC LIMIT ${SEARCH_CANDIDATES}`;
  }
  const found = long.length > 0 ? matchesAll(text, long) : sql`search_bigrams(comments.content) @@ ${pairsQuery(terms)}::tsquery`;
  return pgCandidates("comments", terms, found, text, sql`comments.moderation = 'visible' AND posts.moderation = 'visible'`);
}

function identityColumns() {
  return ["users.nickname", "users.wechat_nickname", "users.avatar_url", "users.wechat_avatar", "pseudo.name_index as pseudonym"] as const;
}

async function postRows(ids: number[]) {
  if (ids.length === 0) return [];
  return db()
    .selectFrom("posts")
    .innerJoin("users", "users.id", "posts.user_id")
    .leftJoin("thread_pseudonyms as pseudo", (join) => join.onRef("pseudo.post_id", "=", "posts.id").onRef("pseudo.user_id", "=", "posts.user_id"))
    .select(["posts.id", "posts.user_id", "posts.is_anonymous", "posts.title", "posts.content", "posts.created_at", ...identityColumns()])
    .where("posts.id", "in", ids)
    .execute();
}

async function commentRows(ids: number[]) {
  if (ids.length === 0) return [];
  return db()
    .selectFrom("comments")
    .innerJoin("users", "users.id", "comments.user_id")
    .leftJoin("thread_pseudonyms as pseudo", (join) => join.onRef("pseudo.post_id", "=", "comments.post_id").onRef("pseudo.user_id", "=", "comments.user_id"))
    .select(["comments.id", "comments.post_id", "comments.user_id", "comments.is_anonymous", "comments.content", "comments.created_at", ...identityColumns()])
    .where("comments.id", "in", ids)
    .execute();
}

/**
 * One page of results for normalised terms (normalizeSearchQuery): posts and comments together,
 * best first. Pages beyond the ranked candidates are empty.
 */
export async function searchCircle(input: { terms: string[]; viewerId: number; page?: number; at?: Date }): Promise<SearchPage> {
  const page = Math.max(1, input.page ?? 1);
  const [postIds, commentIds] = await Promise.all([postCandidatesQuery(input.terms).execute(db()), commentCandidatesQuery(input.terms).execute(db())]);
  const [posts, comments] = await Promise.all([postRows(postIds.rows.map((row) => row.id)), commentRows(commentIds.rows.map((row) => row.id))]);
  const current = input.at ?? new Date();
  const ageHours = (at: string) => (current.getTime() - Date.parse(at)) / 3_600_000;
  const ranked = [
    ...posts.map((row) => ({
      score: searchScore({ terms: input.terms, title: row.title, body: row.content, ageHours: ageHours(row.created_at) }),
      hit: {
        kind: "post" as const,
        postId: row.id,
        commentId: null,
        title: row.title ? highlight(row.title, input.terms) : null,
        snippet: highlight(row.content, input.terms),
        author: toAuthor(row, input.viewerId),
        createdAt: row.created_at,
        time: cardTime(row.created_at, current),
      },
    })),
    ...comments.map((row) => ({
      score: searchScore({ terms: input.terms, body: row.content, ageHours: ageHours(row.created_at) }),
      hit: {
        kind: "comment" as const,
        postId: row.post_id,
        commentId: row.id,
        title: null,
        snippet: highlight(row.content, input.terms),
        author: toAuthor(row, input.viewerId),
        createdAt: row.created_at,
        time: cardTime(row.created_at, current),
      },
    })),
  ].sort((a, b) => b.score - a.score || b.hit.createdAt.localeCompare(a.hit.createdAt));
  const start = (page - 1) * SEARCH_PAGE_SIZE;
  return { hits: ranked.slice(start, start + SEARCH_PAGE_SIZE).map((entry) => entry.hit), page, hasMore: ranked.length > start + SEARCH_PAGE_SIZE };
}
