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
    expect(list).toMatch(/匿名·/);
    expect(list).toContain("/uploads/AnonImageKey0123456789.t.jpg");
    // The named post shows the author's name in the list: only the anonymous one must hide it.
    const anonymousCard = JSON.stringify((JSON.parse(list) as { page: { posts: { id: number }[] } }).page.posts.find((post) => post.id === id));
    expectNoIdentity(anonymousCard, author.id);

    const detail = await loaderJson(postLoader, `/post/${id}`, readerCookie, { id: String(id) });
    expect(detail).toContain("楼主匿名回复");
    expectNoIdentity(detail, author.id);
    const parsed = JSON.parse(detail);
    // The author's name in this thread: a pseudonym (匿名·…), the same on the post and their comment.
    const threadName = parsed.post.author.name;
    expect(threadName).toMatch(/^匿名·/);
    expect(parsed.post.author).toEqual({ anonymous: true, name: threadName, avatar: null, isMine: false });
    // The anonymous author's anonymous comment is marked as the post author's, which reveals nothing.
    expect(parsed.comments.threads[0].root.author).toEqual({ anonymous: true, name: threadName, avatar: null, isMine: false, isPostAuthor: true });

    // On a named post, an anonymous comment by the same author must not carry the author badge.
    const namedDetail = JSON.parse(await loaderJson(postLoader, `/post/${named.id}`, readerCookie, { id: String(named.id) }));
    expect(namedDetail.post.author.name).toBe(SECRET.nickname);
    const otherName = namedDetail.comments.threads[0].root.author.name;
    expect(otherName).toMatch(/^匿名·/);
    expect(namedDetail.comments.threads[0].root.author).toEqual({ anonymous: true, name: otherName, avatar: null, isMine: false, isPostAuthor: false });

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
    expect(own.post.author).toEqual({ anonymous: true, name: threadName, avatar: null, isMine: true });
    const mine = JSON.parse(await loaderJson(myPostsLoader, "/backpack/posts", authorCookie));
    expect(mine.page.posts.map((post: { id: number; author: { anonymous: boolean } }) => [post.id, post.author.anonymous])).toEqual([
      [named.id, false],
      [id, true],
    ]);
  });

  it("gives each anonymous person a name of their own in a thread, kept on every comment, unlinked to their names elsewhere; 楼主 still marked", async () => {
    const op = await createStudent({ nickname: "楼主甲" });
    const people = await Promise.all([1, 2, 3].map((i) => createStudent({ nickname: `匿名者${i}` })));
    const reader = await createStudent({ nickname: "看客" });
    const threads = [];
    for (let t = 0; t < 6; t += 1) {
      const post = await createPost({ userId: op.id, categoryId: 6, content: `第${t}个匿名帖`, isAnonymous: true });
      for (const person of people) await addComment({ postId: post.id, userId: person.id, content: "第一句", isAnonymous: true });
      await addComment({ postId: post.id, userId: people[0]!.id, content: "第二句", isAnonymous: true });
      await addComment({ postId: post.id, userId: op.id, content: "楼主回复", isAnonymous: true });
      threads.push(post.id);
    }
    const cookie = await sessionCookieFor(reader.id);
    const namesOf: string[][] = [];
    for (const id of threads) {
      const detail = JSON.parse(await loaderJson(postLoader, `/post/${id}`, cookie, { id: String(id) }));
      const roots = detail.comments.threads.map((thread: { root: { author: { name: string; isPostAuthor: boolean } } }) => thread.root.author);
      const [a, b, c, again, opReply] = roots;
      // Three people, three names; the same person keeps theirs; the author's comment carries the post's name and 楼主.
      expect(new Set([a.name, b.name, c.name]).size).toBe(3);
      expect(again.name).toBe(a.name);
      expect(opReply.name).toBe(detail.post.author.name);
      expect(opReply.isPostAuthor).toBe(true);
      expect(a.isPostAuthor).toBe(false);
      expect(new Set([a.name, b.name, c.name]).has(detail.post.author.name)).toBe(false);
      namesOf.push([a.name, b.name, c.name]);
    }
    // Across six threads a person's names differ somewhere (random draws of 48: the same name six times is 1 in 48^5).
    for (let person = 0; person < 3; person += 1) expect(new Set(namesOf.map((names) => names[person])).size).toBeGreaterThan(1);
    // What ties a name to a person stays in the database (thread_pseudonyms): never in the page.
    const detail = await loaderJson(postLoader, `/post/${threads[0]}`, cookie, { id: String(threads[0]) });
    for (const person of people) expect(detail).not.toContain(person.nickname!);
  });
});
