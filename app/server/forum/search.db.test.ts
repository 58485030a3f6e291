import { CompiledQuery, sql, type RawBuilder } from "kysely";
import { describe, expect, it } from "vitest";
import { normalizeSearchQuery } from "~/lib/circle-search";
import { loader as searchLoader } from "~/routes/circle.search/route";
import { db, dialect } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { addComment, createPost, deleteOwnComment, deletePost } from "./posts.server";
import { commentCandidatesQuery, postCandidatesQuery, searchCircle } from "./search.server";

// The circle's search on each database (dialect SQL: SQLite FTS5 trigram and pairs tables kept
// by triggers; PostgreSQL pg_trgm and the pairs tsvector).

async function search(text: string, viewerId: number) {
  const query = normalizeSearchQuery(text);
  if (!query.ok) throw new Error(`not a query: ${text}`);
  return searchCircle({ terms: query.terms, viewerId });
}

const ids = (page: Awaited<ReturnType<typeof search>>) => page.hits.map((hit) => `${hit.kind}:${hit.commentId ?? hit.postId}`).sort();

describe("circle search", () => {
  it("finds posts and comments by Chinese words inside sentences (three characters and two), marks the match, keeps the index on write", async () => {
    const author = await createStudent({ nickname: "作者" });
    const reader = await createStudent({ nickname: "读者" });
    const library = await createPost({ userId: author.id, categoryId: 1, content: "今天在图书馆三楼自习，空调很冷" });
    const canteen = await createPost({ userId: author.id, categoryId: 1, content: "二食堂的麻辣烫涨价了吗" });
    const other = await createPost({ userId: author.id, categoryId: 1, content: "周末有人一起打羽毛球吗" });
    const comment = await addComment({ postId: other.id, userId: reader.id, content: "我也想去图书馆借书" });

    expect(ids(await search("图书馆", reader.id))).toEqual([`comment:${comment.id}`, `post:${library.id}`].sort());
    // Two characters: the pairs index.
    expect(ids(await search("食堂", reader.id))).toEqual([`post:${canteen.id}`]);
    expect(ids(await search("自习", reader.id))).toEqual([`post:${library.id}`]);
    // Every term must match (a long and a short one together).
    expect(ids(await search("图书馆 空调", reader.id))).toEqual([`post:${library.id}`]);
    expect(ids(await search("图书馆 借书", reader.id))).toEqual([`comment:${comment.id}`]);
    expect((await search("火星基地", reader.id)).hits).toEqual([]);

    const hit = (await search("食堂", reader.id)).hits[0]!;
    expect(hit.snippet).toEqual([
      { text: "二", hit: false },
      { text: "食堂", hit: true },
      { text: "的麻辣烫涨价了吗", hit: false },
    ]);

    // Deletions leave the index (triggers): a comment, then a post.
    await deleteOwnComment(comment.id, reader.id);
    expect(ids(await search("借书", reader.id))).toEqual([]);
    await deletePost(canteen.id, { userId: author.id });
    expect(ids(await search("食堂", reader.id))).toEqual([]);
    expect(ids(await search("麻辣烫", reader.id))).toEqual([]);
    // An edit of the text is reindexed too (operators' corrections; the triggers cover UPDATE).
    await db().updateTable("posts").set({ content: "改成了操场跑步" }).where("id", "=", library.id).execute();
    expect(ids(await search("图书馆", reader.id))).toEqual([]);
    expect(ids(await search("操场", reader.id))).toEqual([`post:${library.id}`]);
    expect(ids(await search("操场跑步", reader.id))).toEqual([`post:${library.id}`]);
  });

  it("leaves out hidden and pending posts and comments, and comments of hidden posts", async () => {
    const author = await createStudent({ nickname: "作者乙" });
    const reader = await createStudent({ nickname: "读者乙" });
    const visible = await createPost({ userId: author.id, categoryId: 1, content: "期末复习资料分享" });
    const hidden = await createPost({ userId: author.id, categoryId: 1, content: "违规的复习资料广告" });
    const pending = await createPost({ userId: author.id, categoryId: 1, content: "待审核的复习资料" });
    const onHidden = await addComment({ postId: hidden.id, userId: reader.id, content: "这份复习资料不错" });
    const hiddenComment = await addComment({ postId: visible.id, userId: reader.id, content: "复习资料链接失效了" });
    const shown = await addComment({ postId: visible.id, userId: reader.id, content: "谢谢复习资料" });
    await db().updateTable("posts").set({ moderation: "hidden" }).where("id", "=", hidden.id).execute();
    await db().updateTable("posts").set({ moderation: "pending" }).where("id", "=", pending.id).execute();
    await db().updateTable("comments").set({ moderation: "hidden" }).where("id", "=", hiddenComment.id).execute();
    expect(ids(await search("复习资料", reader.id))).toEqual([`comment:${shown.id}`, `post:${visible.id}`].sort());
    expect(onHidden.id).toBeGreaterThan(0);
  });

  it("ranks by relevance and recency: more matches first, then the newer of equals", async () => {
    const author = await createStudent({ nickname: "作者丙" });
    const old = await createPost({ userId: author.id, categoryId: 1, content: "二手自行车出售" });
    const many = await createPost({ userId: author.id, categoryId: 1, content: "自行车自行车自行车，三辆自行车一起出" });
    const fresh = await createPost({ userId: author.id, categoryId: 1, content: "求购一辆自行车" });
    await db().updateTable("posts").set({ created_at: new Date(Date.now() - 60 * 86_400_000).toISOString() }).where("id", "=", old.id).execute();
    const page = await search("自行车", author.id);
    expect(page.hits.map((hit) => hit.postId)).toEqual([many.id, fresh.id, old.id]);
  });

  it("pages through the ranked matches: twenty a page, none twice, the best first, each one marked", async () => {
    const author = await createStudent({ nickname: "作者己" });
    const created: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      // The last post says the word three times: it ranks first although it is not the newest.
      const content = i === 0 ? "电动车电动车电动车充电桩" : `第${i}辆电动车出售`;
      created.push((await createPost({ userId: author.id, categoryId: 1, content })).id);
    }
    const query = normalizeSearchQuery("电动车");
    if (!query.ok) throw new Error("not a query");
    const first = await searchCircle({ terms: query.terms, viewerId: author.id, page: 1 });
    const second = await searchCircle({ terms: query.terms, viewerId: author.id, page: 2 });
    expect([first.hits.length, first.hasMore, second.hits.length, second.hasMore]).toEqual([20, true, 5, false]);
    const seen = [...first.hits, ...second.hits].map((hit) => hit.postId);
    expect(new Set(seen).size).toBe(25);
    expect([...seen].sort((a, b) => a - b)).toEqual(created);
    expect(seen[0]).toBe(created[0]);
    // Newest first among equals, on both pages.
    expect(seen.slice(1)).toEqual(created.slice(1).reverse());
    for (const hit of [...first.hits, ...second.hits]) {
      expect(hit.snippet.filter((segment) => segment.hit).map((segment) => segment.text)).toEqual([expect.stringMatching(/^(电动车)+$/)]);
      expect(hit.author.name).toBe("作者己");
    }
  });

  it("finds older matches through the pairs index once the newest rows hold too few (PostgreSQL's second step), with the same rules", async () => {
    const author = await createStudent({ nickname: "作者庚" });
    const old = await createPost({ userId: author.id, categoryId: 1, title: "旧帖", content: "去年的量子纠缠讲座笔记，iPhone录的音" });
    const oldHidden = await createPost({ userId: author.id, categoryId: 1, content: "被隐藏的量子纠缠帖子" });
    const onOldHidden = await addComment({ postId: oldHidden.id, userId: author.id, content: "量子纠缠评论在隐藏帖下" });
    const oldComment = await addComment({ postId: old.id, userId: author.id, content: "补充量子纠缠的讲义" });
    const pairsOnly = await createPost({ userId: author.id, categoryId: 1, content: "量子和纠缠分开写不算" });
    await db().updateTable("posts").set({ moderation: "hidden" }).where("id", "=", oldHidden.id).execute();
    const filler: number[] = [];
    for (let i = 0; i < 3; i += 1) filler.push((await createPost({ userId: author.id, categoryId: 1, content: `无关的帖子${i}` })).id);
    for (let i = 0; i < 3; i += 1) await addComment({ postId: filler[0]!, userId: author.id, content: `无关的评论${i}` });
    const fresh = await createPost({ userId: author.id, categoryId: 1, content: "今天又聊量子纠缠" });
    const freshComment = await addComment({ postId: fresh.id, userId: author.id, content: "量子纠缠太难了" });
    // Only the newest two rows are walked one by one: the rest come from the index.
    const candidates = async (text: string) => {
      const query = normalizeSearchQuery(text);
      if (!query.ok) throw new Error(text);
      const posts = await postCandidatesQuery(query.terms, { recentRows: 2 }).execute(db());
      const comments = await commentCandidatesQuery(query.terms, { recentRows: 2 }).execute(db());
      return { posts: posts.rows.map((row) => Number(row.id)), comments: comments.rows.map((row) => Number(row.id)) };
    };
    // Newest first; hidden posts and comments under them never; a text holding the pairs apart does not match.
    expect(await candidates("量子纠缠")).toEqual({ posts: [fresh.id, old.id], comments: [freshComment.id, oldComment.id] });
    expect(pairsOnly.id).toBeGreaterThan(0);
    expect(onOldHidden.id).toBeGreaterThan(0);
    // A title counts; letters are folded (iPhone for iphone); every term must match.
    expect(await candidates("旧帖 量子")).toEqual({ posts: [old.id], comments: [] });
    expect(await candidates("iphone 纠缠")).toEqual({ posts: [old.id], comments: [] });
    expect(await candidates("讲义 量子纠缠")).toEqual({ posts: [], comments: [oldComment.id] });
  });

  it("reads every kind of query through an index, newest first, with no sort of all the matches", async () => {
    const author = await createStudent({ nickname: "作者辛" });
    for (let i = 0; i < 30; i += 1) await createPost({ userId: author.id, categoryId: 1, content: `第${i}条：图书馆和食堂` });
    // Statistics as autovacuum keeps them in production (not the empty-table defaults).
    if (dialect() === "postgres") await sql`ANALYZE posts, comments`.execute(db());
    // On PostgreSQL the walk of the newest rows is planned as on a campus-size table (on 30 rows a
    // scan is honestly cheaper): scans and sorts cost extra there, as in query-plans.db.test.ts.
    const plan = (query: RawBuilder<unknown>, asAtScale = false) =>
      db()
        .transaction()
        .execute(async (trx) => {
          if (asAtScale) await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          if (asAtScale) await sql`SET LOCAL enable_sort = off`.execute(trx);
          const compiled = query.compile(trx);
          const prefix = dialect() === "postgres" ? "EXPLAIN " : "EXPLAIN QUERY PLAN ";
          const result = await trx.executeQuery<Record<string, string>>(CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]));
          return result.rows.map((row) => row["QUERY PLAN"] ?? row.detail).join("\n");
        });
    for (const text of ["图书馆", "食堂", "图书馆 食堂"]) {
      const query = normalizeSearchQuery(text);
      if (!query.ok) throw new Error(text);
      for (const [kind, candidates] of [
        ["posts", postCandidatesQuery(query.terms)],
        ["comments", commentCandidatesQuery(query.terms)],
      ] as const) {
        if ("steps" in candidates) {
          // PostgreSQL: the newest rows through an index of the ids backwards; the older ones through
          // the pairs index with the planner's own choices (nothing disabled: search_bigrams() is
          // declared costly, so even a small table is never scanned calling it row by row).
          const recent = await plan(candidates.steps.recent(5_000), true);
          expect(recent, `${text} ${kind} recent`).toMatch(new RegExp(`Index Scan Backward using \\w+ on ${kind}\\b`));
          expect(recent, `${text} ${kind} recent`).not.toMatch(/Sort|Seq Scan on ${kind}/);
          const older = await plan(candidates.steps.older(1_000_000, 200));
          expect(older, `${text} ${kind} older`).toMatch(new RegExp(`Bitmap Index Scan on ${kind}_bigrams`));
          expect(older, `${text} ${kind} older`).not.toMatch(new RegExp(`Seq Scan on ${kind}\\b`));
        } else {
          // SQLite: FTS5 walks its rowids backwards and stops at the limit; the rows by primary key.
          const steps = await plan(candidates);
          expect(steps, `${text} ${kind}`).toMatch(new RegExp(`SCAN ${kind}_(fts|bigrams) VIRTUAL TABLE`));
          expect(steps, `${text} ${kind}`).toMatch(new RegExp(`SEARCH ${kind} USING INTEGER PRIMARY KEY`));
          expect(steps, `${text} ${kind}`).not.toMatch(/TEMP B-TREE|SCAN (posts|comments)\b/);
        }
      }
    }
  });

  it("never names an anonymous author: the thread's pseudonym only, in data and answer", async () => {
    const secret = await createStudent({ nickname: "秘密昵称丁", real_name: "秘密真名丁", student_id: "20990077" });
    const reader = await createStudent({ nickname: "读者丁" });
    const post = await createPost({ userId: secret.id, categoryId: 6, content: "匿名吐槽宿舍热水", isAnonymous: true });
    await addComment({ postId: post.id, userId: secret.id, content: "补充：热水只有晚上有", isAnonymous: true });
    const cookie = await sessionCookieFor(reader.id);
    const result = (await searchLoader({ request: request("/circle/search?q=热水", { cookie }), params: {}, context: {} })) as { data: unknown; init: unknown };
    const json = JSON.stringify(result.data);
    expect(json).toContain("匿名吐槽宿舍");
    for (const value of ["秘密昵称丁", "秘密真名丁", "20990077"]) expect(json).not.toContain(value);
    expect(json).not.toMatch(/"user_?[iI]d"/);
    const hits = (result.data as { results: { hits: { author: { name: string; anonymous: boolean } }[] } }).results.hits;
    expect(hits).toHaveLength(2);
    // The post and the comment carry the same name: the one the author drew in this thread.
    expect(hits.every((hit) => hit.author.anonymous && /^匿名·/.test(hit.author.name))).toBe(true);
    expect(new Set(hits.map((hit) => hit.author.name)).size).toBe(1);
  });

  it("answers a too-short query next to the field, and is rate-limited per student and network", async () => {
    const reader = await createStudent({ nickname: "读者戊" });
    const cookie = await sessionCookieFor(reader.id);
    const short = (await searchLoader({ request: request("/circle/search?q=猫", { cookie }), params: {}, context: {} })) as { data: { fieldError: string }; init: { status: number } };
    expect(short.init.status).toBe(400);
    expect(short.data.fieldError).toBe("请至少输入两个字");
    let last: { init: { status?: number } | null } = { init: null };
    for (let i = 0; i < 31; i += 1) {
      last = (await searchLoader({ request: request("/circle/search?q=图书馆", { cookie }), params: {}, context: { clientIp: "203.0.113.9" } })) as typeof last;
    }
    expect(last.init?.status).toBe(429);
  });
});
