// Told when someone answers: through the circle's own forms (the comment sheet's action, the
// post page's likes), on both dialects. A comment on my post, a reply to my comment and an
// @mention of me each leave an inbox item leading to the comment; the likes of a day are one item;
// each kind can be switched off in the settings.
import { describe, expect, it } from "vitest";
import { action as commentAction } from "~/routes/post.$id.comment/route";
import { action as postAction } from "~/routes/post.$id/route";
import { action as settingsAction, loader as settingsLoader } from "~/routes/backpack.settings";
import { db } from "~/server/db/db.server";
import { call, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { createPost } from "./posts.server";

async function person(nickname: string) {
  const user = await createStudent({ nickname });
  return { user, cookie: await sessionCookieFor(user.id) };
}

async function comment(postId: number, cookie: string, fields: Record<string, string>) {
  const query = fields.parentId ? `?reply=${fields.parentId}` : "";
  const answer = await call(commentAction, request(`/post/${postId}/comment${query}`, { method: "POST", body: new URLSearchParams({ intent: "comment", ...fields }), cookie }), {
    id: String(postId),
  });
  expect(answer.status).toBe(302);
  const id = Number(/#comment-(\d+)$/.exec(answer.headers.get("Location") ?? "")?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

const like = (postId: number, cookie: string, fields: Record<string, string>) =>
  call(postAction, request(`/post/${postId}`, { method: "POST", body: new URLSearchParams({ via: "fetcher", ...fields }), cookie }), { id: String(postId) });

const inboxOf = (userId: number) =>
  db().selectFrom("inbox_items").select(["kind", "data", "link", "read_at"]).where("user_id", "=", userId).orderBy("id", "desc").execute();

describe("circle notices", () => {
  it("a comment on my post, a reply to my comment and an @mention each give an item leading to the comment", async () => {
    const author = await person(`楼主${Math.random().toString(36).slice(2, 6)}`);
    const first = await person(`一楼${Math.random().toString(36).slice(2, 6)}`);
    const second = await person(`二楼${Math.random().toString(36).slice(2, 6)}`);
    const { id: postId } = await createPost({ userId: author.user.id, categoryId: 1, content: "考研资料求推荐" });

    const top = await comment(postId, first.cookie, { content: "我有一套笔记" });
    expect(await inboxOf(author.user.id)).toEqual([
      expect.objectContaining({ kind: "post_reply", link: `/post/${postId}#comment-${top}`, read_at: null }),
    ]);
    expect(JSON.parse((await inboxOf(author.user.id))[0]!.data)).toMatchObject({ actorName: first.user.nickname, excerpt: "我有一套笔记" });

    // A reply to the first comment that also names the post's author: the comment's author gets
    // the reply, the post's author the mention; nobody twice, never the writer.
    const reply = await comment(postId, second.cookie, { parentId: String(top), content: `@${first.user.nickname} 能分享吗 @${author.user.nickname} @${second.user.nickname}` });
    const replyLink = `/post/${postId}?thread=${top}#comment-${reply}`;
    expect(await inboxOf(first.user.id)).toEqual([expect.objectContaining({ kind: "comment_reply", link: replyLink })]);
    expect((await inboxOf(author.user.id))[0]).toMatchObject({ kind: "comment_mention", link: replyLink });
    expect(await inboxOf(second.user.id)).toEqual([]);

    // An anonymous comment is told under the anonymous label.
    await comment(postId, second.cookie, { content: "匿名说一句", isAnonymous: "on" });
    const anonymous = (await inboxOf(author.user.id))[0]!;
    expect(anonymous.kind).toBe("post_reply");
    expect(JSON.parse(anonymous.data)).toMatchObject({ actorName: "匿名同学" });
    expect(anonymous.data).not.toContain(second.user.nickname!);
  });

  it("the likes of a day are one item: each different like counts once, a like taken back and given again does not", async () => {
    const author = await person(`被赞${Math.random().toString(36).slice(2, 6)}`);
    const fans = await Promise.all(["甲", "乙"].map((name) => person(`粉丝${name}${Math.random().toString(36).slice(2, 6)}`)));
    const { id: postId } = await createPost({ userId: author.user.id, categoryId: 1, content: "晒晒今天的晚霞" });
    const mine = await comment(postId, author.cookie, { content: "补一张图" });

    await like(postId, fans[0]!.cookie, { intent: "like" });
    await like(postId, fans[0]!.cookie, { intent: "like" }); // taken back
    await like(postId, fans[0]!.cookie, { intent: "like" }); // given again
    await like(postId, fans[1]!.cookie, { intent: "like" });
    await like(postId, fans[1]!.cookie, { intent: "commentLike", commentId: String(mine) });

    const items = await inboxOf(author.user.id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: "comment_liked", link: `/post/${postId}#comment-${mine}`, read_at: null });
    expect(JSON.parse(items[0]!.data)).toMatchObject({ count: 3, actorName: fans[1]!.user.nickname });
  });

  it("each kind has a switch in the settings: switched off, nothing of that kind arrives", async () => {
    const author = await person(`关提醒${Math.random().toString(36).slice(2, 6)}`);
    const other = await person(`评论者${Math.random().toString(36).slice(2, 6)}`);
    const page = (await (await call(settingsLoader, request("/backpack/settings", { cookie: author.cookie }))).json()) as { notices: Record<string, boolean> };
    expect(page.notices).toEqual({ replies: true, mentions: true, likes: true });

    const saved = await call(settingsAction, request("/backpack/settings", { method: "POST", body: new URLSearchParams({ intent: "notices", mentions: "on" }), cookie: author.cookie }));
    expect(saved.status).toBe(302);
    const after = (await (await call(settingsLoader, request("/backpack/settings", { cookie: author.cookie }))).json()) as { notices: Record<string, boolean> };
    expect(after.notices).toEqual({ replies: false, mentions: true, likes: false });

    const { id: postId } = await createPost({ userId: author.user.id, categoryId: 1, content: "不想被打扰" });
    await comment(postId, other.cookie, { content: "路过" });
    await like(postId, other.cookie, { intent: "like" });
    expect(await inboxOf(author.user.id)).toEqual([]);
    await comment(postId, other.cookie, { content: `@${author.user.nickname} 还是要叫你一下` });
    expect(await inboxOf(author.user.id)).toEqual([expect.objectContaining({ kind: "comment_mention" })]);
  });
});
