import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStudent } from "../../../tests/setup/helpers";
import { sessionQuery } from "../auth/session.server";
import { createPost, feedQuery, likedCommentsQuery, likedPostsQuery, postImagesQuery, replyCountsQuery, topCommentsQuery } from "../forum/posts.server";
import { compiledOnce } from "./compiled.server";
import { db } from "./db.server";

const id = fc.integer({ min: 1, max: 2_000_000 });
const maybeId = fc.option(id, { nil: null });
const ids = fc.array(id, { minLength: 1, maxLength: 30 });

describe("compiledOnce gives what the builder's own compile() gives", () => {
  it.each([
    ["the session", compiledOnce(sessionQuery), fc.tuple(fc.string({ minLength: 1 }))],
    ["the circle's feed", compiledOnce(feedQuery), fc.tuple(fc.record({ categoryId: maybeId, before: maybeId, limit: fc.integer({ min: 1, max: 200 }) }))],
    ["a page's images", compiledOnce(postImagesQuery), fc.tuple(ids)],
    ["the viewer's likes", compiledOnce(likedPostsQuery), fc.tuple(id, ids)],
    ["a post's comments", compiledOnce(topCommentsQuery), fc.tuple(id, id, maybeId)],
    ["their reply counts", compiledOnce(replyCountsQuery), fc.tuple(ids, id)],
    ["the viewer's comment likes", compiledOnce(likedCommentsQuery), fc.tuple(id, ids)],
  ] as const)("%s: the same SQL and parameters for any arguments", (name, compiled, args) => {
    const build = {
      "the session": sessionQuery,
      "the circle's feed": feedQuery,
      "a page's images": postImagesQuery,
      "the viewer's likes": likedPostsQuery,
      "a post's comments": topCommentsQuery,
      "their reply counts": replyCountsQuery,
      "the viewer's comment likes": likedCommentsQuery,
    }[name] as (
      ...values: unknown[]
    ) => { compile(): { sql: string; parameters: readonly unknown[] } };
    fc.assert(
      fc.property(args as fc.Arbitrary<unknown[]>, (values) => {
        const once = (compiled.compile as (...values: unknown[]) => { sql: string; parameters: readonly unknown[] })(...values);
        const direct = build(...values).compile();
        expect(once.sql).toBe(direct.sql);
        expect(once.parameters).toEqual(direct.parameters);
      }),
      { numRuns: 200 },
    );
  });
});

describe("compiledOnce", () => {
  it("builds a shape once and binds each call's values", async () => {
    const alice = await createStudent({ nickname: "阿丽" });
    const bob = await createStudent({ nickname: "阿博" });
    let builds = 0;
    const nickname = compiledOnce((userId: number | null) => {
      builds += 1;
      let query = db().selectFrom("users").select("nickname").orderBy("id");
      if (userId) query = query.where("id", "=", userId);
      return query;
    });
    expect((await nickname.executeTakeFirst(alice.id))?.nickname).toBe("阿丽");
    expect((await nickname.executeTakeFirst(bob.id))?.nickname).toBe("阿博");
    expect(builds).toBe(1);
    // A missing value is another shape (no where at all), built once too.
    expect((await nickname.execute(null)).map((row) => row.nickname)).toEqual(expect.arrayContaining(["阿丽", "阿博"]));
    await nickname.execute(null);
    expect(builds).toBe(2);
  });

  it("an in list of any length binds its values: the rows are the builder's own", async () => {
    const author = await createStudent();
    const posts = [];
    for (let index = 0; index < 3; index++) {
      posts.push((await createPost({ userId: author.id, categoryId: 1, title: `标题${index}`, content: `正文${index}`, images: [] })).id);
    }
    const liked = compiledOnce(likedPostsQuery);
    await db().insertInto("post_likes").values({ user_id: author.id, post_id: posts[1]!, created_at: new Date().toISOString() }).execute();
    expect(await liked.execute(author.id, posts)).toEqual(await likedPostsQuery(author.id, posts).execute());
    expect(await liked.execute(author.id, [posts[1]!])).toEqual([{ post_id: posts[1] }]);
    expect(await liked.execute(author.id, [posts[0]!])).toEqual([]);
  });

  it("refuses a builder that computes with a value instead of binding it", () => {
    const wrong = compiledOnce((limit: number) => db().selectFrom("users").select("id").limit(limit + 1));
    expect(() => wrong.compile(10)).toThrow(TypeError);
  });
});
