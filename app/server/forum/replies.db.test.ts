// A reply sent from the comment sheet leads back to its thread with the earlier replies still
// shown: the page after the redirect holds every reply up to the new one (a page's worth).
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { REPLY_PAGE_SIZE } from "~/lib/comment-tree";
import { action as commentAction } from "~/routes/post.$id.comment/route";
import { loader as postLoader } from "~/routes/post.$id/route";
import { db } from "~/server/db/db.server";
import { consoleError } from "../../../tests/setup/console";
import { call, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { addComment, createPost } from "./posts.server";

type Page = { comments: { threads: { root: { id: number }; replies: { id: number; content: string }[]; replyCount: number }[] } };

async function reply(postId: number, cookie: string, parentId: number, content: string) {
  const answer = await call(commentAction, request(`/post/${postId}/comment?reply=${parentId}`, { method: "POST", body: new URLSearchParams({ intent: "comment", parentId: String(parentId), content }), cookie }), {
    id: String(postId),
  });
  expect(answer.status).toBe(302);
  return answer.headers.get("Location")!;
}

async function open(location: string, cookie: string) {
  const path = location.replace(/#.*$/, "");
  const id = /^\/post\/(\d+)/.exec(path)![1]!;
  return (await (await call(postLoader, request(path, { cookie }), { id })).json()) as Page;
}

describe("a reply leads back to its whole thread", () => {
  it("after replying to my own reply, both of my replies show under the comment", async () => {
    const me = await createStudent({ nickname: `自言自语${Math.random().toString(36).slice(2, 6)}` });
    const cookie = await sessionCookieFor(me.id);
    const { id: postId } = await createPost({ userId: me.id, categoryId: 1, content: "图书馆几点关门？" });
    const top = (await addComment({ postId, userId: me.id, content: "顶一下" })).id;

    const first = await open(await reply(postId, cookie, top, "有人知道吗"), cookie);
    const firstReply = first.comments.threads.find((thread) => thread.root.id === top)!.replies[0]!;
    expect(firstReply.content).toBe("有人知道吗");

    const location = await reply(postId, cookie, firstReply.id, "查到了，晚上十点");
    const thread = (await open(location, cookie)).comments.threads.find((item) => item.root.id === top)!;
    expect(thread.replyCount).toBe(2);
    expect(thread.replies.map((item) => item.content)).toEqual(["有人知道吗", "查到了，晚上十点"]);
    expect(location).toMatch(new RegExp(`#comment-${/\d+$/.exec(location)![0]}$`));
  });

  it("in a thread longer than a page, the page ends with the new reply and holds the replies before it", async () => {
    const me = await createStudent({ nickname: `长楼${Math.random().toString(36).slice(2, 6)}` });
    const cookie = await sessionCookieFor(me.id);
    const { id: postId } = await createPost({ userId: me.id, categoryId: 1, content: "盖楼" });
    const top = (await addComment({ postId, userId: me.id, content: "一楼" })).id;
    for (let i = 0; i < REPLY_PAGE_SIZE + 5; i++) await addComment({ postId, userId: me.id, content: `回复${i}`, parentId: top });

    const location = await reply(postId, cookie, top, "最新的一条");
    const thread = (await open(location, cookie)).comments.threads.find((item) => item.root.id === top)!;
    expect(thread.replies).toHaveLength(REPLY_PAGE_SIZE);
    expect(thread.replies.at(-1)!.content).toBe("最新的一条");
    expect(thread.replies[0]!.content).toBe("回复6");
  });
});

describe("comments that cannot be read", () => {
  it("leave the post showing, with the product rules' notice in place of the comments", async () => {
    consoleError.mockImplementation(() => {});
    const me = await createStudent({ nickname: `读不出${Math.random().toString(36).slice(2, 6)}` });
    const cookie = await sessionCookieFor(me.id);
    const { id: postId } = await createPost({ userId: me.id, categoryId: 1, content: "评论读不出来" });
    await addComment({ postId, userId: me.id, content: "一楼" });
    await sql`ALTER TABLE comment_likes RENAME TO comment_likes_away`.execute(db());
    try {
      const page = (await (await call(postLoader, request(`/post/${postId}`, { cookie }), { id: String(postId) })).json()) as Page & { post: { content: string }; commentsError: string | null };
      expect(page.post.content).toBe("评论读不出来");
      expect(page.comments.threads).toEqual([]);
      expect(page.commentsError).toBe("加载评论失败");
    } finally {
      await sql`ALTER TABLE comment_likes_away RENAME TO comment_likes`.execute(db());
    }
    const again = (await (await call(postLoader, request(`/post/${postId}`, { cookie }), { id: String(postId) })).json()) as Page & { commentsError: string | null };
    expect(again.commentsError).toBeNull();
  });
});
