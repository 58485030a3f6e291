import { describe, expect, it } from "vitest";
import { db } from "~/server/db/db.server";
import { createStudent } from "../../../tests/setup/helpers";
import { flattenThreads } from "../db/migrations/0013_threads_captcha_lockouts";
import { addComment, createPost, deleteOwnComment, ForumError, getPost, listComments, listMyPosts, listPosts, markPostCompleted, recordView } from "./posts.server";

async function post(userId: number, content: string, categoryId = 1, extra: Partial<Parameters<typeof createPost>[0]> = {}) {
  return (await createPost({ userId, categoryId, content, ...extra })).id;
}

describe("createPost", () => {
  it("publishes a mutual-help post into category 3 with title and status", async () => {
    const student = await createStudent();
    const { id } = await createPost({ userId: student.id, categoryId: 3, content: "高数代签，周一 1-2 节", title: "高等数学", status: "ongoing" });
    const row = await db().selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: student.id, category_id: 3, title: "高等数学", status: "ongoing", visibility: "public", is_anonymous: 0, moderation: "visible" });
    expect(await markPostCompleted(id, student.id + 999)).toBe(false);
    expect(await markPostCompleted(id, student.id)).toBe(true);
    expect(await markPostCompleted(id, student.id)).toBe(false);
    expect((await getPost(id, student.id))?.status).toBe("completed");
  });

  it("refuses a banned author and an image that is not the author's upload", async () => {
    const student = await createStudent();
    await db().insertInto("forum_bans").values({ user_id: student.id, operator_id: null, reason: null, created_at: new Date().toISOString() }).execute();
    await expect(createPost({ userId: student.id, categoryId: 1, content: "hi" })).rejects.toMatchObject({ code: "banned" });
    const other = await createStudent();
    await expect(createPost({ userId: other.id, categoryId: 1, content: "hi", images: ["/uploads/AAAAAAAAAAAAAAAAAAAAAA.jpg"] })).rejects.toBeInstanceOf(ForumError);
    await expect(createPost({ userId: other.id, categoryId: 1, content: "hi", images: ["https://evil/x.jpg"] })).rejects.toBeInstanceOf(ForumError);
    expect(await db().selectFrom("posts").select("id").where("user_id", "=", other.id).execute()).toHaveLength(0);
  });
});

describe("list paging and category filter", () => {
  it("pages of 10, newest first, by cursor; a category shows only its posts", async () => {
    const author = await createStudent();
    const viewer = await createStudent();
    const ids: number[] = [];
    for (let i = 1; i <= 23; i++) ids.push(await post(author.id, `post ${i}`, i % 3 === 0 ? 2 : 1));
    // Earlier tests of this file left posts too: the list is every visible post, newest first.
    const all = await db().selectFrom("posts").select("id").where("moderation", "=", "visible").orderBy("id", "desc").execute();
    const newestFirst = all.map((row) => row.id);
    expect(newestFirst.slice(0, 23)).toEqual([...ids].reverse());

    const first = await listPosts({ viewerId: viewer.id });
    expect(first.posts.map((p) => p.id)).toEqual(newestFirst.slice(0, 10));
    expect(first.nextCursor).toBe(newestFirst[9]);
    const second = await listPosts({ viewerId: viewer.id, before: first.nextCursor });
    expect(second.posts.map((p) => p.id)).toEqual(newestFirst.slice(10, 20));
    const third = await listPosts({ viewerId: viewer.id, before: second.nextCursor });
    expect(third.posts.map((p) => p.id)).toEqual(newestFirst.slice(20, 30));
    expect(third.nextCursor).toBe(newestFirst.length > 30 ? newestFirst[29] : null);

    // A post published while paging does not shift the next page.
    await post(author.id, "late post");
    expect((await listPosts({ viewerId: viewer.id, before: first.nextCursor })).posts.map((p) => p.id)).toEqual(newestFirst.slice(10, 20));

    const study = await listPosts({ viewerId: viewer.id, categoryId: 2 });
    expect(study.posts.map((p) => p.content)).toEqual(["post 21", "post 18", "post 15", "post 12", "post 9", "post 6", "post 3"]);
    expect(study.posts.every((p) => p.categoryId === 2 && p.categoryName === "学习交流")).toBe(true);
    expect(study.nextCursor).toBeNull();
    expect((await listPosts({ viewerId: viewer.id, categoryId: 4 })).posts).toEqual([]);
  });

  it("leaves hidden posts out of the list, for their author too, and keeps them in 'my posts'", async () => {
    const author = await createStudent();
    const visible = await post(author.id, "visible");
    const pending = await post(author.id, "pending");
    const hidden = await post(author.id, "hidden");
    await db().updateTable("posts").set({ moderation: "pending" }).where("id", "=", pending).execute();
    await db().updateTable("posts").set({ moderation: "hidden" }).where("id", "=", hidden).execute();
    const listed = (await listPosts({ viewerId: author.id })).posts.map((p) => p.id);
    expect(listed).toContain(visible);
    expect(listed).not.toContain(pending);
    expect(listed).not.toContain(hidden);
    const mine = await listMyPosts({ userId: author.id });
    expect(mine.posts.map((p) => [p.id, p.moderation])).toEqual([
      [hidden, "hidden"],
      [pending, "pending"],
      [visible, "visible"],
    ]);
    const other = await createStudent();
    expect(await getPost(pending, other.id)).toBeNull();
    expect((await getPost(pending, author.id))?.moderation).toBe("pending");
    expect((await getPost(visible, other.id))?.moderation).toBeNull();
  });

  it("shows up to 3 images on a card and all of them on the detail", async () => {
    const author = await createStudent();
    const keys = Array.from({ length: 5 }, (_, i) => `K${String(i).padStart(21, "x")}`);
    for (const key of keys) {
      await db().insertInto("uploads").values({ key, user_id: author.id, post_id: null, position: 0, width: 10, height: 10, bytes: 1, created_at: new Date().toISOString() }).execute();
    }
    const id = await post(author.id, "five images", 1, { images: keys.map((key) => `/uploads/${key}.jpg`) });
    const card = (await listPosts({ viewerId: author.id })).posts.find((p) => p.id === id)!;
    expect(card.images.map((image) => image.thumbUrl)).toEqual(keys.slice(0, 3).map((key) => `/uploads/${key}.t.jpg`));
    expect(card.imageCount).toBe(5);
    const detail = await getPost(id, author.id);
    expect(detail?.images.map((image) => image.url)).toEqual(keys.map((key) => `/uploads/${key}.jpg`));
    // An image already in a post cannot be published again.
    await expect(post(author.id, "again", 1, { images: [`/uploads/${keys[0]}.jpg`] })).rejects.toMatchObject({ code: "invalid_image" });
  });
});

describe("views", () => {
  it("count once per user per Shanghai day", async () => {
    const author = await createStudent();
    const [a, b] = [await createStudent(), await createStudent()];
    const id = await post(author.id, "viewed");
    const morning = new Date("2026-11-22T01:00:00Z"); // 09:00 Shanghai
    const evening = new Date("2026-11-22T15:00:00Z"); // 23:00 Shanghai, same day
    const nextDay = new Date("2026-11-22T16:30:00Z"); // 00:30 Shanghai, the next day
    expect(await recordView(id, a.id, morning)).toBe(true);
    expect(await recordView(id, a.id, evening)).toBe(false);
    expect(await recordView(id, b.id, evening)).toBe(true);
    expect(await recordView(id, a.id, nextDay)).toBe(true);
    expect((await getPost(id, a.id))?.viewCount).toBe(3);
  });
});

describe("comment threads", () => {
  it("two levels: a reply to a reply joins the top-level comment's thread with its @mention; the count follows the rows", async () => {
    const author = await createStudent({ nickname: "楼主本人" });
    const [a, b] = [await createStudent({ nickname: "甲" }), await createStudent({ nickname: "乙" })];
    const id = await post(author.id, "tree");
    const c1 = await addComment({ postId: id, userId: a.id, content: "第一条" });
    const c2 = await addComment({ postId: id, userId: b.id, content: "@甲 回复第一条", parentId: c1.id });
    const c3 = await addComment({ postId: id, userId: author.id, content: "@乙 楼主回复", parentId: c2.id });
    const c4 = await addComment({ postId: id, userId: b.id, content: "第二条" });
    expect(c4.commentCount).toBe(4);

    const stored = await db().selectFrom("comments").select(["id", "parent_id", "root_id"]).where("post_id", "=", id).orderBy("id").execute();
    expect(stored).toEqual([
      { id: c1.id, parent_id: null, root_id: null },
      { id: c2.id, parent_id: c1.id, root_id: c1.id },
      { id: c3.id, parent_id: c2.id, root_id: c1.id },
      { id: c4.id, parent_id: null, root_id: null },
    ]);

    const { threads, nextAfter } = await listComments(id, a.id);
    expect(nextAfter).toBeNull();
    expect(threads.map((thread) => thread.root.id)).toEqual([c1.id, c4.id]);
    expect(threads[0]!.replies.map((node) => [node.id, node.content, node.author.name, node.author.isPostAuthor, node.replyTo])).toEqual([
      [c2.id, "@甲 回复第一条", "乙", false, null],
      [c3.id, "@乙 楼主回复", "楼主本人", true, "乙"],
    ]);
    expect(threads[0]!.root.author).toMatchObject({ name: "甲", isMine: true, isPostAuthor: false });
    expect(threads[0]!.replyCount).toBe(2);

    // A reply must belong to the same post.
    const other = await post(author.id, "other");
    await expect(addComment({ postId: other, userId: a.id, content: "x", parentId: c1.id })).rejects.toBeInstanceOf(ForumError);

    // Deleting a comment takes its replies with it; only the author may.
    await expect(deleteOwnComment(c1.id, b.id)).rejects.toBeInstanceOf(ForumError);
    expect((await deleteOwnComment(c1.id, a.id)).commentCount).toBe(1);
    expect((await listComments(id, a.id)).threads.map((thread) => thread.root.id)).toEqual([c4.id]);
    expect((await getPost(id, a.id))?.commentCount).toBe(1);
  });

  it("pages top-level comments by 20, shows 3 replies of each, and pages an expanded thread by 50", async () => {
    const author = await createStudent({ nickname: "楼主" });
    const id = await post(author.id, "many comments");
    const roots: number[] = [];
    for (let i = 0; i < 25; i++) roots.push((await addComment({ postId: id, userId: author.id, content: `评论${i}` })).id);
    const replies: number[] = [];
    for (let i = 0; i < 60; i++) replies.push((await addComment({ postId: id, userId: author.id, content: `回复${i}`, parentId: replies.at(-1) ?? roots[0]! })).id);

    const first = await listComments(id, author.id);
    expect(first.threads.map((thread) => thread.root.id)).toEqual(roots.slice(0, 20));
    expect(first.nextAfter).toBe(roots[19]);
    expect(first.threads[0]!.replies.map((reply) => reply.id)).toEqual(replies.slice(0, 3));
    expect([first.threads[0]!.replyCount, first.threads[0]!.expanded]).toEqual([60, false]);

    const second = await listComments(id, author.id, undefined, { after: first.nextAfter });
    expect(second.threads.map((thread) => thread.root.id)).toEqual(roots.slice(20));
    expect(second.nextAfter).toBeNull();

    const expanded = await listComments(id, author.id, undefined, { thread: roots[0]! });
    expect(expanded.threads[0]!.replies.map((reply) => reply.id)).toEqual(replies.slice(0, 50));
    expect(expanded.threads[0]!.moreFrom).toBe(replies[49]);
    const rest = await listComments(id, author.id, undefined, { thread: roots[0]!, from: replies[49]! });
    expect(rest.threads[0]!.replies.map((reply) => reply.id)).toEqual(replies.slice(50));
    expect(rest.threads[0]!.moreFrom).toBeNull();

    // A thread beyond the first page (a reply just sent to it) starts the page.
    const late = await addComment({ postId: id, userId: author.id, content: "晚到的回复", parentId: roots[24]! });
    expect(late.rootId).toBe(roots[24]);
    const lateThread = await listComments(id, author.id, undefined, { thread: roots[24]!, from: late.id - 1 });
    expect(lateThread.threads[0]!.root.id).toBe(roots[24]);
    expect(lateThread.threads[0]!.replies.map((reply) => reply.id)).toEqual([late.id]);

    // A sheet opened for a comment that is not on the page gets it along.
    const focused = await listComments(id, author.id, undefined, { focus: replies[55]! });
    expect(focused.focus?.id).toBe(replies[55]);
    expect((await listComments(id, author.id, undefined, { focus: roots[1]! })).focus).toBeNull();
  });

  it("old replies nested at any depth display in their top-level comment's thread after the migration's flattening", async () => {
    const author = await createStudent({ nickname: "楼主" });
    const id = await post(author.id, "old nesting");
    const root = await addComment({ postId: id, userId: author.id, content: "顶层" });
    // Rows as the old code stored them: parent_id only, five levels deep.
    let parent = root.id;
    const chain: number[] = [];
    for (let depth = 0; depth < 5; depth++) {
      const row = await db()
        .insertInto("comments")
        .values({ post_id: id, user_id: author.id, parent_id: parent, root_id: null, content: `第${depth + 2}层`, is_anonymous: 0, like_count: 0, moderation: "visible", reviewed_at: null, created_at: new Date().toISOString() })
        .returning("id")
        .executeTakeFirstOrThrow();
      chain.push(row.id);
      parent = row.id;
    }
    await flattenThreads(db());
    const { threads } = await listComments(id, author.id, undefined, { thread: root.id });
    expect(threads.map((thread) => thread.root.id)).toEqual([root.id]);
    expect(threads[0]!.replies.map((reply) => reply.id)).toEqual(chain);
    expect(threads[0]!.replies.map((reply) => reply.replyTo)).toEqual([null, "楼主", "楼主", "楼主", "楼主"]);
  });

  it("hides others' comments under moderation, with their replies; the writer sees 'under review'", async () => {
    const author = await createStudent({ nickname: "楼主" });
    const [a, b] = [await createStudent({ nickname: "甲" }), await createStudent({ nickname: "乙" })];
    const id = await post(author.id, "moderated comments");
    const c1 = await addComment({ postId: id, userId: a.id, content: "被举报的评论" });
    await addComment({ postId: id, userId: b.id, content: "回复它", parentId: c1.id });
    await db().updateTable("comments").set({ moderation: "pending" }).where("id", "=", c1.id).execute();
    expect((await listComments(id, b.id)).threads).toEqual([]);
    const own = await listComments(id, a.id);
    expect(own.threads.map((thread) => [thread.root.id, thread.root.underReview])).toEqual([[c1.id, true]]);
  });
});
