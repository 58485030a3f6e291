import { sql, type RawBuilder } from "kysely";
import { highlight, isIndexableTerm, SEARCH_CANDIDATES, SEARCH_PAGE_SIZE, searchScore, termPairs, type Segment } from "~/lib/circle-search";
import { cardTime } from "~/lib/relative-time";
import { db, dialect } from "../db/db.server";
import { toAuthor, type Author } from "./posts.server";

// The circle's search over posts and comments (decision 041, re-measured in decision 050). The
// candidates are the newest SEARCH_CANDIDATES visible matches of each kind, found through an index
// with a bounded amount of work:
// - SQLite: FTS5 read newest first (rowid descending) up to the limit: the trigram tables
//   (posts_fts, comments_fts) for a term of three characters or more, else the tables of the
//   texts' pairs of neighbouring characters (posts_bigrams, comments_bigrams); all kept by triggers.
// - PostgreSQL: the newest PG_RECENT_ROWS rows walked newest first (a common term fills the page
//   there), then, only when they held too few, the GIN index of the texts' pairs (search_bigrams)
//   for the older rows: every term as its pairs, all required (a term's pairs are exact in a
//   tsvector, so the index needs no recheck; the term itself is checked on those rows only).
// Every term must match. The candidates are ranked here by relevance and recency
// (app/lib/circle-search.ts) and the page's authors pass through toAuthor(), like every page's posts.

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

/** SQLite's LIKE (ASCII case folded) for the short terms left over after the trigram index: the terms hold only letters and digits (normalizeSearchQuery), so nothing needs escaping. */
function likeAll(column: RawBuilder<unknown>[], terms: string[]) {
  return sql.join(
    terms.map((term) => sql`(${sql.join(column.map((c) => sql`${c} LIKE ${`%${term}%`}`), sql` OR `)})`),
    sql` AND `,
  );
}

/**
 * PostgreSQL: the text contains every term. A term without upper and lower case (Chinese,
 * digits) is found by strpos, several times cheaper per row than ILIKE, which folds the whole text
 * first; a term with letters keeps ILIKE's case folding.
 */
function containsAll(text: RawBuilder<unknown>, terms: string[]) {
  return sql.join(
    terms.map((term) => (term.toUpperCase() === term ? sql`strpos(${text}, ${term}) > 0` : sql`${text} ILIKE ${`%${term}%`}`)),
    sql` AND `,
  );
}

/** FTS5's query: each term as a phrase, all of them required. */
function ftsMatch(terms: string[]) {
  return terms.map((term) => `"${term}"`).join(" AND ");
}

/** PostgreSQL's query of the pairs index: every pair of every term, all required. */
function pairsQuery(terms: string[]) {
  return termPairs(terms)
    .map((pair) => `'${pair}'`)
    .join(" & ");
}

/** PostgreSQL: the newest rows checked one by one before the index is asked (see pgCandidates). */
const PG_RECENT_ROWS = 5_000;

/** A post's searchable text on PostgreSQL: the expression its pairs index is built on. */
const POST_TEXT = sql`(coalesce(posts.title, '') || ' ' || posts.content)`;
const COMMENT_TEXT = sql`comments.content`;

/** The ids of the newest visible posts matching every term. */
export function postCandidatesQuery(terms: string[], options: { recentRows?: number } = {}) {
  if (!postgres()) {
    // The trigram index for the long terms, else the pairs index for the short ones, newest first
    // (FTS5 walks its rowids backwards); LIKE checks short terms left over on the row.
    const long = terms.filter(isIndexableTerm);
    const index = long.length > 0 ? sql`posts_fts` : sql`posts_bigrams`;
    const rest = long.length > 0 ? terms.filter((term) => !isIndexableTerm(term)) : [];
    return sql<{ id: number }>`SELECT posts.id FROM ${index} JOIN posts ON posts.id = ${index}.rowid
      WHERE ${index} MATCH ${ftsMatch(long.length > 0 ? long : terms)} AND posts.moderation = 'visible'${rest.length > 0 ? sql` AND ${likeAll([sql.ref("posts.title"), sql.ref("posts.content")], rest)}` : sql``}
      ORDER BY ${index}.rowid DESC LIMIT ${SEARCH_CANDIDATES}`;
  }
  return pgCandidates({
    recent: (rows) =>
      newestRows(sql`posts`, rows, (boundary) => sql`SELECT posts.id FROM posts WHERE posts.id > ${boundary} AND posts.moderation = 'visible' AND ${containsAll(POST_TEXT, terms)}
        ORDER BY posts.id DESC LIMIT ${SEARCH_CANDIDATES}`),
    older: (boundary, limit) => sql`WITH matched AS MATERIALIZED (
        SELECT posts.id FROM posts WHERE search_bigrams(${POST_TEXT}) @@ ${pairsQuery(terms)}::tsquery
          AND posts.id <= ${boundary} AND posts.moderation = 'visible' AND ${containsAll(POST_TEXT, terms)})
      SELECT matched.id FROM matched ORDER BY matched.id DESC LIMIT ${limit}`,
    recentRows: options.recentRows,
  });
}

/** The ids of the newest visible comments (on visible posts) matching every term. */
export function commentCandidatesQuery(terms: string[], options: { recentRows?: number } = {}) {
  if (!postgres()) {
    const long = terms.filter(isIndexableTerm);
    const index = long.length > 0 ? sql`comments_fts` : sql`comments_bigrams`;
    const rest = long.length > 0 ? terms.filter((term) => !isIndexableTerm(term)) : [];
    return sql<{ id: number }>`SELECT comments.id FROM ${index} JOIN comments ON comments.id = ${index}.rowid JOIN posts ON posts.id = comments.post_id
      WHERE ${index} MATCH ${ftsMatch(long.length > 0 ? long : terms)} AND comments.moderation = 'visible' AND posts.moderation = 'visible'${rest.length > 0 ? sql` AND ${likeAll([sql.ref("comments.content")], rest)}` : sql``}
      ORDER BY ${index}.rowid DESC LIMIT ${SEARCH_CANDIDATES}`;
  }
  return pgCandidates({
    recent: (rows) =>
      newestRows(sql`comments`, rows, (boundary) => sql`SELECT comments.id FROM comments JOIN posts ON posts.id = comments.post_id
        WHERE comments.id > ${boundary} AND comments.moderation = 'visible' AND ${containsAll(COMMENT_TEXT, terms)} AND posts.moderation = 'visible'
        ORDER BY comments.id DESC LIMIT ${SEARCH_CANDIDATES}`),
    // The post of each match is looked up newest first until the page is full (OFFSET 0 keeps
    // the planner from checking every match's post before sorting them).
    older: (boundary, limit) => sql`WITH matched AS MATERIALIZED (
        SELECT comments.id, comments.post_id FROM comments WHERE search_bigrams(${COMMENT_TEXT}) @@ ${pairsQuery(terms)}::tsquery
          AND comments.id <= ${boundary} AND comments.moderation = 'visible' AND ${containsAll(COMMENT_TEXT, terms)})
      SELECT newest.id FROM (SELECT matched.id, matched.post_id FROM matched ORDER BY matched.id DESC OFFSET 0) AS newest
      WHERE EXISTS (SELECT 1 FROM posts WHERE posts.id = newest.post_id AND posts.moderation = 'visible') LIMIT ${limit}`,
    recentRows: options.recentRows,
  });
}

/**
 * PostgreSQL in two steps, as no single plan suits both a common and a rare term: first the
 * newest PG_RECENT_ROWS rows, walked newest first through the primary key with the terms checked
 * on each (bounded: at most that many rows, fewer when the page fills); when they hold fewer
 * than SEARCH_CANDIDATES matches, the term is not common there and the pairs index (a CTE the
 * planner cannot inline into a walk of the primary key) finds the older ones. The pairs of the
 * terms are exact in the index (no recheck), so this step reads only the rows holding them all.
 */
function pgCandidates(steps: {
  /** The boundary (the newest id less the rows walked) and the matching ids above it (none: one row, id null). */
  recent: (rows: number) => RawBuilder<unknown>;
  older: (boundary: number, limit: number) => RawBuilder<unknown>;
  /** PG_RECENT_ROWS unless a test narrows it to reach the second step with a few rows. */
  recentRows?: number;
}) {
  return {
    /** The statements, for the plan tests. */
    steps,
    async execute(executor: ReturnType<typeof db>) {
      const walked = await sql<{ boundary: number; id: number | null }>`${steps.recent(steps.recentRows ?? PG_RECENT_ROWS)}`.execute(executor);
      const boundary = Number(walked.rows[0]?.boundary ?? 0);
      const recent = walked.rows.flatMap((row) => (row.id === null ? [] : [{ id: row.id }]));
      if (recent.length >= SEARCH_CANDIDATES || boundary <= 0) return { rows: recent };
      const older = await sql<{ id: number }>`${steps.older(boundary, SEARCH_CANDIDATES - recent.length)}`.execute(executor);
      return { rows: [...recent, ...older.rows] };
    },
  };
}

/** The boundary of the newest `rows` rows of a table and, beside it, the walk above it: one statement. */
function newestRows(table: RawBuilder<unknown>, rows: number, walk: (boundary: RawBuilder<unknown>) => RawBuilder<unknown>) {
  return sql`SELECT bound.boundary, hit.id FROM (SELECT coalesce(max(id), 0) - ${rows} AS boundary FROM ${table}) AS bound
    LEFT JOIN LATERAL (${walk(sql`bound.boundary`)}) AS hit ON true`;
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
  // Every candidate is scored (cheap), but only the page shown is highlighted and given its
  // author: marking the match walks the text character by character, and doing it for all the
  // candidates was most of a common term's time (decision 041, "Re-measured").
  const ranked = [
    ...posts.map((row) => ({ score: searchScore({ terms: input.terms, title: row.title, body: row.content, ageHours: ageHours(row.created_at) }), createdAt: row.created_at, key: row.id * 2, post: row, comment: null })),
    ...comments.map((row) => ({ score: searchScore({ terms: input.terms, body: row.content, ageHours: ageHours(row.created_at) }), createdAt: row.created_at, key: row.id * 2 + 1, post: null, comment: row })),
    // Ties broken by the row, so each request (each page) sees the same order.
  ].sort((a, b) => b.score - a.score || b.createdAt.localeCompare(a.createdAt) || b.key - a.key);
  const start = (page - 1) * SEARCH_PAGE_SIZE;
  const hits = ranked.slice(start, start + SEARCH_PAGE_SIZE).map(({ post, comment }): SearchHit => {
    if (post) {
      return {
        kind: "post",
        postId: post.id,
        commentId: null,
        title: post.title ? highlight(post.title, input.terms) : null,
        snippet: highlight(post.content, input.terms),
        author: toAuthor(post, input.viewerId),
        createdAt: post.created_at,
        time: cardTime(post.created_at, current),
      };
    }
    const row = comment!;
    return {
      kind: "comment",
      postId: row.post_id,
      commentId: row.id,
      title: null,
      snippet: highlight(row.content, input.terms),
      author: toAuthor(row, input.viewerId),
      createdAt: row.created_at,
      time: cardTime(row.created_at, current),
    };
  });
  return { hits, page, hasMore: ranked.length > start + SEARCH_PAGE_SIZE };
}
