import { describe, expect, it } from "vitest";
import { heatAt } from "~/lib/hot";
import { action as postAction, loader as postLoader } from "~/routes/post.$id/route";
import { loader as favouritesLoader } from "~/routes/backpack.favourites/route";
import { loader as circleLoader } from "~/routes/circle._index/route";
import { db } from "~/server/db/db.server";
import { createStudent, postForm, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { addComment, createPost, deleteOwnComment, listHotPosts, togglePostLike } from "./posts.server";

async function call(fn: (args: never) => unknown, req: Request, params: Record<string, string> = {}) {
  try {
    return await fn({ request: req, params, context: {} } as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("收藏", () => {
  it("a plain form keeps the post (post/redirect/get), the backpack lists it newest first, a second press lets it go", async () => {
    const author = await createStudent({ nickname: "作者" });
    const reader = await createStudent({ nickname: "收藏者" });
    const first = await createPost({ userId: author.id, categoryId: 1, content: "第一篇" });
    const second = await createPost({ userId: author.id, categoryId: 1, content: "第二篇" });
    const hidden = await createPost({ userId: author.id, categoryId: 1, content: "被隐藏的" });
    const cookie = await sessionCookieFor(reader.id);
    for (const post of [first, second, hidden]) {
      const answer = (await call(postAction, postForm(`/post/${post.id}`, { intent: "favourite", returnTo: "?after=3" }, cookie), { id: String(post.id) })) as Response;
      expect(answer.status).toBe(303);
      expect(answer.headers.get("Location")).toBe(`/post/${post.id}?after=3#post-favourite`);
    }
    const detail = (await postLoader({ request: request(`/post/${first.id}`, { cookie }), params: { id: String(first.id) }, context: {} })) as { favourite: boolean };
    expect(detail.favourite).toBe(true);
    await db().updateTable("posts").set({ moderation: "hidden" }).where("id", "=", hidden.id).execute();
    const list = (await favouritesLoader({ request: request("/backpack/favourites", { cookie }), params: {}, context: {} })) as { page: { posts: { id: number }[] } };
    expect(list.page.posts.map((post) => post.id)).toEqual([second.id, first.id]);

    await call(postAction, postForm(`/post/${second.id}`, { intent: "favourite" }, cookie), { id: String(second.id) });
    const after = (await favouritesLoader({ request: request("/backpack/favourites", { cookie }), params: {}, context: {} })) as { page: { posts: { id: number }[] } };
    expect(after.page.posts.map((post) => post.id)).toEqual([first.id]);
    // A hidden post cannot be kept anew.
    const refused = (await call(postAction, postForm(`/post/${hidden.id}`, { intent: "favourite" }, cookie), { id: String(hidden.id) })) as Response;
    expect(refused.status).toBe(404);
  });
});

describe("热门", () => {
  it("orders by recent likes and comments, decaying with time, page by page through the stored score", async () => {
    const author = await createStudent({ nickname: "作者热" });
    const fans = await Promise.all([1, 2, 3, 4].map((i) => createStudent({ nickname: `粉丝${i}` })));
    const quiet = await createPost({ userId: author.id, categoryId: 1, content: "没人理" });
    const liked = await createPost({ userId: author.id, categoryId: 1, content: "有人点赞" });
    const discussed = await createPost({ userId: author.id, categoryId: 1, content: "大家讨论" });
    const newest = await createPost({ userId: author.id, categoryId: 1, content: "刚发的" });
    await togglePostLike(liked.id, fans[0]!.id);
    for (const fan of fans.slice(0, 2)) await addComment({ postId: discussed.id, userId: fan.id, content: "顶" });
    const hot = await listHotPosts({ viewerId: author.id, limit: 2 });
    expect(hot.posts.map((post) => post.id)).toEqual([discussed.id, liked.id]);
    const rest = await listHotPosts({ viewerId: author.id, limit: 2, after: hot.nextCursor });
    expect(rest.posts.map((post) => post.id)).toEqual([newest.id, quiet.id]);

    // Taking a like back takes its heat back; deleting a comment too.
    await togglePostLike(liked.id, fans[0]!.id);
    const { hot_score: unliked } = await db().selectFrom("posts").select("hot_score").where("id", "=", liked.id).executeTakeFirstOrThrow();
    expect(heatAt(unliked, new Date())).toBeCloseTo(1, 2);
    const comment = await addComment({ postId: quiet.id, userId: fans[3]!.id, content: "来了" });
    await deleteOwnComment(comment.id, fans[3]!.id);
    const { hot_score: quietScore } = await db().selectFrom("posts").select("hot_score").where("id", "=", quiet.id).executeTakeFirstOrThrow();
    expect(heatAt(quietScore, new Date())).toBeCloseTo(1, 2);

    // The page: /circle?sort=hot, and its next page by the cursor it gives.
    const cookie = await sessionCookieFor(author.id);
    const page = (await circleLoader({ request: request("/circle?sort=hot", { cookie }), params: {}, context: {} })) as { sort: string; page: { posts: { id: number }[] } };
    expect(page.sort).toBe("hot");
    expect(page.page.posts[0]!.id).toBe(discussed.id);
  });

  it("a day-old post with three likes of yesterday falls below today's post with one like", async () => {
    const author = await createStudent({ nickname: "作者旧" });
    const fans = await Promise.all([1, 2, 3].map((i) => createStudent({ nickname: `旧粉${i}` })));
    const old = await createPost({ userId: author.id, categoryId: 1, content: "昨天的" });
    for (const fan of fans) await togglePostLike(old.id, fan.id);
    // Age the post and its likes by two days (the score is recomputed from the rows).
    const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000).toISOString();
    await db().updateTable("posts").set({ created_at: twoDaysAgo }).where("id", "=", old.id).execute();
    await db().updateTable("post_likes").set({ created_at: twoDaysAgo }).where("post_id", "=", old.id).execute();
    const { rescoreHot } = await import("./posts.server");
    await rescoreHot(db(), old.id);
    const fresh = await createPost({ userId: author.id, categoryId: 1, content: "今天的" });
    await togglePostLike(fresh.id, fans[0]!.id);
    const order = (await listHotPosts({ viewerId: author.id, limit: 50 })).posts.map((post) => post.id);
    expect(order.indexOf(fresh.id)).toBeLessThan(order.indexOf(old.id));
  });
});
