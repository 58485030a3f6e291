import { describe, expect, it } from "vitest";
import { action as commentAction } from "~/routes/post.$id.comment/route";
import { action as postAction } from "~/routes/post.$id/route";
import { db } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { addComment, createPost } from "./posts.server";

// The like forms of /post/:id under load: 50 different students toggle at the same moment, through
// the route's action (session lookup, validation, the transaction). The page's JS and a plain
// form post are told apart by the fetchers' via=fetcher: a plain form post (no JavaScript) gets a
// redirect back to the page (post/redirect/get), so a refresh never toggles the like again.

async function students(count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const user = await createStudent({ nickname: `同学${i}` });
      return { user, cookie: await sessionCookieFor(user.id) };
    }),
  );
}

// A comment posts to its sheet's action (/post/:id/comment), the likes to the page's.
function toggle(postId: number, cookie: string, fields: Record<string, string>) {
  const [route, path] = fields.intent === "comment" ? [commentAction, `/post/${postId}/comment`] : [postAction, `/post/${postId}`];
  return route({
    // The page's fetchers mark their likes (via=fetcher) and read the answer.
    request: request(path, { method: "POST", body: new URLSearchParams(fields.intent === "comment" ? fields : { ...fields, via: "fetcher" }), cookie }),
    params: { id: String(postId) },
    context: {},
  }) as Promise<Response>;
}

async function counts(postId: number) {
  const post = await db().selectFrom("posts").select(["like_count", "comment_count"]).where("id", "=", postId).executeTakeFirstOrThrow();
  const likes = await db().selectFrom("post_likes").select((eb) => eb.fn.countAll<number | string>().as("n")).where("post_id", "=", postId).executeTakeFirstOrThrow();
  return { likeCount: post.like_count, rows: Number(likes.n) };
}

describe("likes under 50 parallel requests", () => {
  it("one like per user; like_count equals the like rows; each answer has the server's action and count", async () => {
    const author = await createStudent();
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "点赞压力测试" });
    const people = await students(50);

    const answers = await Promise.all(people.map(({ cookie }) => toggle(id, cookie, { intent: "like" })));
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(bodies.every((body) => body.success === true && body.action === "liked")).toBe(true);
    expect(new Set(bodies.map((body) => body.like_count))).toEqual(new Set(Array.from({ length: 50 }, (_, i) => i + 1)));
    expect(await counts(id)).toEqual({ likeCount: 50, rows: 50 });

    // Half of them take it back while the other half toggle twice (like → unlike → like), all at once.
    const half = people.slice(0, 25);
    const rest = people.slice(25);
    await Promise.all([
      ...half.map(({ cookie }) => toggle(id, cookie, { intent: "like" })),
      ...rest.map(async ({ cookie }) => {
        await toggle(id, cookie, { intent: "like" });
        await toggle(id, cookie, { intent: "like" });
      }),
    ]);
    expect(await counts(id)).toEqual({ likeCount: 25, rows: 25 });

    // The same student sending the toggle twice at once still leaves one row or none, never two.
    const same = people[0]!;
    await Promise.all([toggle(id, same.cookie, { intent: "like" }), toggle(id, same.cookie, { intent: "like" })]);
    const after = await counts(id);
    expect(after.likeCount).toBe(after.rows);
  });

  it("comment likes: 50 parallel toggles, then 50 more; the count always equals the rows", async () => {
    const author = await createStudent({ nickname: "楼主" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "评论点赞" });
    const comment = await addComment({ postId: id, userId: author.id, content: "被点赞的评论" });
    const people = await students(50);
    const rows = async () => {
      const row = await db().selectFrom("comment_likes").select((eb) => eb.fn.countAll<number | string>().as("n")).where("comment_id", "=", comment.id).executeTakeFirstOrThrow();
      const stored = await db().selectFrom("comments").select("like_count").where("id", "=", comment.id).executeTakeFirstOrThrow();
      return { likeCount: stored.like_count, rows: Number(row.n) };
    };

    const answers = await Promise.all(people.map(({ cookie }) => toggle(id, cookie, { intent: "commentLike", commentId: String(comment.id) })));
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(bodies.every((body) => body.success === true && body.is_liked === true)).toBe(true);
    expect(Math.max(...bodies.map((body) => body.like_count))).toBe(50);
    expect(await rows()).toEqual({ likeCount: 50, rows: 50 });

    await Promise.all(people.slice(0, 30).map(({ cookie }) => toggle(id, cookie, { intent: "commentLike", commentId: String(comment.id) })));
    expect(await rows()).toEqual({ likeCount: 20, rows: 20 });
  });

  it("comments in parallel keep comment_count exact", async () => {
    const author = await createStudent({ nickname: "楼主" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "评论计数" });
    const people = await students(20);
    await Promise.all(people.map(({ cookie }, i) => toggle(id, cookie, { intent: "comment", content: `第${i}条` })));
    const stored = await db().selectFrom("posts").select("comment_count").where("id", "=", id).executeTakeFirstOrThrow();
    const rows = await db().selectFrom("comments").select("id").where("post_id", "=", id).execute();
    expect(stored.comment_count).toBe(20);
    expect(rows).toHaveLength(20);
  });

  it("answers the product rules' messages: 401 for a comment or comment like without a session, a redirect to login for a like", async () => {
    const author = await createStudent();
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "登录检查" });
    const anonymous = (fields: Record<string, string>) =>
      postAction({ request: request(`/post/${id}`, { method: "POST", body: new URLSearchParams(fields) }), params: { id: String(id) }, context: {} }).then(
        (value) => value as Response,
        (thrown) => thrown as Response,
      );
    // A comment goes to the login page (its text kept for after it, draft-stash.server), for every caller.
    const comment = await anonymous({ intent: "comment", content: "hi" });
    expect(comment.status).toBe(302);
    expect(comment.headers.get("Location")).toMatch(/^\/crLogin\?redirectTo=/);
    const commentLike = await anonymous({ intent: "commentLike", commentId: "1" });
    expect(commentLike.status).toBe(401);
    expect((await commentLike.json()).message).toBe("请先登录");
    const like = await anonymous({ intent: "like" });
    expect(like.status).toBe(302);
    expect(like.headers.get("Location")).toMatch(/^\/crLogin\?redirectTo=/);
  });
});

describe("a like without JavaScript (a plain form post)", () => {
  it("is a 303 back to the same view of the post, at the like: a refresh reloads the page, it does not like again", async () => {
    const [author, reader] = await students(2);
    const { id } = await createPost({ userId: author!.user.id, categoryId: 1, content: "无脚本点赞" });
    const comment = await addComment({ postId: id, userId: author!.user.id, content: "楼主的评论" });
    const plain = (fields: Record<string, string>) =>
      postAction({ request: request(`/post/${id}`, { method: "POST", body: new URLSearchParams(fields), cookie: reader!.cookie }), params: { id: String(id) }, context: {} }) as Promise<Response>;

    const liked = await plain({ intent: "like", returnTo: "?thread=3" });
    expect(liked.status).toBe(303);
    expect(liked.headers.get("Location")).toBe(`/post/${id}?thread=3#post-like`);
    expect(await counts(id)).toEqual({ likeCount: 1, rows: 1 });

    const commentLiked = await plain({ intent: "commentLike", commentId: String(comment.id), returnTo: "" });
    expect(commentLiked.status).toBe(303);
    expect(commentLiked.headers.get("Location")).toBe(`/post/${id}#comment-${comment.id}`);
    // Only a query of this post's page: never another address.
    const elsewhere = await plain({ intent: "like", returnTo: "//evil.example/x" });
    expect(elsewhere.headers.get("Location")).toMatch(new RegExp(`^/post/${id}\\?`));
  });
});
