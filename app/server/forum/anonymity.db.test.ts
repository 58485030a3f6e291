import type { LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { loader as circleLoader } from "~/routes/circle._index/route";
import { loader as myPostsLoader } from "~/routes/backpack.posts/route";
import { action as postAction, loader as postLoader } from "~/routes/post.$id/route";
import { db } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { addComment, createPost } from "./posts.server";

// Decision 7: an anonymous post or comment keeps its author in the database, and never sends it to
// anyone but the author (and operators) — not in loader data, not in image URLs, not in answers.

const SECRET = {
  nickname: "秘密昵称甲",
  wechat_nickname: "秘密微信乙",
  avatar_url: "https://img.example.com/secret-avatar.png",
  wechat_avatar: "https://wx.example.com/secret-wechat-avatar.png",
  real_name: "秘密真名丙",
  student_id: "20990001",
};

async function loaderJson(loader: (args: LoaderFunctionArgs) => Promise<unknown>, path: string, cookie: string, params: Record<string, string> = {}) {
  const result = await loader({ request: request(path, { cookie }), params, context: {} });
  return JSON.stringify(result);
}

function expectNoIdentity(json: string, authorId: number) {
  for (const value of Object.values(SECRET)) expect(json).not.toContain(value);
  expect(json).not.toMatch(/"user_?[iI]d"/);
  expect(json).not.toContain(`"authorId":${authorId}`);
}

describe("anonymous means anonymous", () => {
  it("others get no trace of the author of an anonymous post or comment; the author sees it as theirs", async () => {
    const author = await createStudent(SECRET);
    const reader = await createStudent({ nickname: "读者" });
    await db()
      .insertInto("uploads")
      .values({ key: "AnonImageKey0123456789", user_id: author.id, post_id: null, position: 0, width: 10, height: 10, bytes: 1, created_at: new Date().toISOString() })
      .execute();
    const { id } = await createPost({ userId: author.id, categoryId: 6, content: "匿名吐槽的内容", isAnonymous: true, images: ["/uploads/AnonImageKey0123456789.jpg"] });
    await addComment({ postId: id, userId: author.id, content: "楼主匿名回复", isAnonymous: true });
    const named = await createPost({ userId: author.id, categoryId: 1, content: "署名的帖子" });
    await addComment({ postId: named.id, userId: author.id, content: "匿名评论别人看不出是我", isAnonymous: true });

    const readerCookie = await sessionCookieFor(reader.id);
    const list = await loaderJson(circleLoader, "/circle", readerCookie);
    expect(list).toContain("匿名吐槽的内容");
    expect(list).toContain("匿名同学");
    expect(list).toContain("/uploads/AnonImageKey0123456789.t.jpg");
    // The named post shows the author's name in the list: only the anonymous one must hide it.
    const anonymousCard = JSON.stringify((JSON.parse(list) as { page: { posts: { id: number }[] } }).page.posts.find((post) => post.id === id));
    expectNoIdentity(anonymousCard, author.id);

    const detail = await loaderJson(postLoader, `/post/${id}`, readerCookie, { id: String(id) });
    expect(detail).toContain("楼主匿名回复");
    expectNoIdentity(detail, author.id);
    const parsed = JSON.parse(detail);
    expect(parsed.post.author).toEqual({ anonymous: true, name: "匿名同学", avatar: null, isMine: false });
    // The anonymous author's anonymous comment is marked as the post author's, which reveals nothing.
    expect(parsed.comments.threads[0].root.author).toEqual({ anonymous: true, name: "匿名同学", avatar: null, isMine: false, isPostAuthor: true });

    // On a named post, an anonymous comment by the same author must not carry the author badge.
    const namedDetail = JSON.parse(await loaderJson(postLoader, `/post/${named.id}`, readerCookie, { id: String(named.id) }));
    expect(namedDetail.post.author.name).toBe(SECRET.nickname);
    expect(namedDetail.comments.threads[0].root.author).toEqual({ anonymous: true, name: "匿名同学", avatar: null, isMine: false, isPostAuthor: false });

    // The answers to the reader's own actions carry only counts.
    const like = (await postAction({
      request: request(`/post/${id}`, { method: "POST", body: new URLSearchParams({ intent: "like" }), cookie: readerCookie }),
      params: { id: String(id) },
      context: {},
    })) as Response;
    expectNoIdentity(await like.text(), author.id);

    // The author: the same anonymous face, marked as theirs; 'my posts' lists it as anonymous.
    const authorCookie = await sessionCookieFor(author.id);
    const own = JSON.parse(await loaderJson(postLoader, `/post/${id}`, authorCookie, { id: String(id) }));
    expect(own.post.author).toEqual({ anonymous: true, name: "匿名同学", avatar: null, isMine: true });
    const mine = JSON.parse(await loaderJson(myPostsLoader, "/backpack/posts", authorCookie));
    expect(mine.page.posts.map((post: { id: number; author: { anonymous: boolean } }) => [post.id, post.author.anonymous])).toEqual([
      [named.id, false],
      [id, true],
    ]);
  });
});
