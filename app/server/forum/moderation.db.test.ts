import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { action as moderationAction, loader as moderationLoader } from "~/routes/admin.moderation";
import { action as reportAction } from "~/routes/post.$id.report/route";
import { createOperator, createOperatorSession } from "~/server/auth/operator.server";
import { db } from "~/server/db/db.server";
import { runAccountDeletionJob } from "~/server/users/deletion.server";
import { cookieValue, createMessengerUser, createStudent, request, sessionCookieFor, useTemporaryUploads } from "../../../tests/setup/helpers";
import { moderationQueue } from "./moderation.server";
import { addComment, createPost, getPost, listComments, listPosts, moveForumData, togglePostLike } from "./posts.server";

const uploadsDir = useTemporaryUploads("circle-moderation-", { FORUM_REPORT_THRESHOLD: "3" });

async function reportAs(userId: number, postId: number, fields: Record<string, string> = {}) {
  const response = (await reportAction({
    request: request(`/post/${postId}/report`, { method: "POST", body: new URLSearchParams({ intent: "report", reason: "spam", ...fields }), cookie: await sessionCookieFor(userId) }),
    params: { id: String(postId) },
    context: {},
  })) as Response;
  return { status: response.status, location: response.headers.get("Location") };
}

async function operatorCookie() {
  const operator = await createOperator({ username: `op${Date.now()}${Math.floor(Math.random() * 1000)}`, password: "operator-password-1", displayName: "审核员" });
  const { setCookie } = await createOperatorSession(operator.id);
  return { operator, cookie: cookieValue(setCookie) };
}

function moderate(cookie: string, fields: Record<string, string>) {
  return moderationAction({
    request: request("/admin/moderation", { method: "POST", body: new URLSearchParams(fields), cookie, headers: { Origin: "http://localhost" } }),
    params: {},
    context: {},
  }) as Promise<Response>;
}

describe("reports", () => {
  it("once per user, never one's own; the third report hides the post until an operator restores it", async () => {
    const author = await createStudent({ nickname: "作者" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "会被举报的帖子", isAnonymous: true });
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => createStudent()));

    expect(await reportAs(author.id, id)).toEqual({ status: 403, location: null });
    expect(await reportAs(a!.id, id)).toEqual({ status: 302, location: `/post/${id}?notice=reported` });
    expect(await reportAs(a!.id, id, { reason: "offensive" })).toEqual({ status: 302, location: `/post/${id}?notice=alreadyReported` });
    expect(await reportAs(b!.id, id)).toEqual({ status: 302, location: `/post/${id}?notice=reported` });
    expect((await getPost(id, d!.id))?.moderation).toBeNull(); // still visible
    expect(await reportAs(c!.id, id, { reason: "off_topic" })).toEqual({ status: 302, location: "/circle?notice=reported" });

    // Hidden for others, in the list and on the detail; the author sees it under review.
    expect(await getPost(id, d!.id)).toBeNull();
    expect((await listPosts({ viewerId: d!.id })).posts.map((post) => post.id)).not.toContain(id);
    expect((await getPost(id, author.id))?.moderation).toBe("pending");

    // The operator sees it with the real author although it is anonymous, then restores it.
    const { cookie } = await operatorCookie();
    const queue = await moderationQueue();
    const item = queue.find((entry) => entry.target === "post" && entry.id === id)!;
    expect(item).toMatchObject({ anonymous: true, moderation: "pending", openReports: 3, reasons: { spam: 2, off_topic: 1 } });
    expect(item.author).toMatchObject({ userId: author.id, nickname: "作者", studentId: author.student_id, banned: false });

    const restored = await moderate(cookie, { intent: "restore", target: "post", id: String(id) });
    expect(restored.headers.get("Location")).toBe("/admin/moderation?notice=done");
    expect((await getPost(id, d!.id))?.id).toBe(id);
    expect((await moderationQueue()).some((entry) => entry.target === "post" && entry.id === id)).toBe(false);
    // Reports after the review count afresh: one more does not hide it again.
    expect(await reportAs(d!.id, id)).toEqual({ status: 302, location: `/post/${id}?notice=reported` });
    expect((await getPost(id, d!.id))?.id).toBe(id);
  });

  it("a reported comment hides too and leaves the comment count", async () => {
    const author = await createStudent({ nickname: "楼主" });
    const writer = await createStudent({ nickname: "评论者" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "评论被举报" });
    const comment = await addComment({ postId: id, userId: writer.id, content: "不友善的评论" });
    for (const reporter of await Promise.all([1, 2, 3].map(() => createStudent()))) {
      await reportAs(reporter.id, id, { commentId: String(comment.id) });
    }
    const reader = await createStudent();
    expect((await listComments(id, reader.id)).threads).toEqual([]);
    expect((await getPost(id, reader.id))?.commentCount).toBe(0);
    expect((await listComments(id, writer.id)).threads[0]?.root.underReview).toBe(true);
  });
});

describe("/admin/moderation", () => {
  it("sends anyone but an operator to the operator login", async () => {
    const student = await createStudent();
    const thrown = await moderationLoader({ request: request("/admin/moderation", { cookie: await sessionCookieFor(student.id) }), params: {}, context: {} }).catch((error) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toMatch(/^\/admin\/login/);
  });

  it("hides, deletes, bans and unbans", async () => {
    const { cookie, operator } = await operatorCookie();
    const author = await createStudent({ nickname: "违规作者" });
    const reader = await createStudent();
    const first = await createPost({ userId: author.id, categoryId: 1, content: "第一条" });
    const second = await createPost({ userId: author.id, categoryId: 1, content: "第二条" });

    await moderate(cookie, { intent: "hide", target: "post", id: String(first.id) });
    expect(await getPost(first.id, reader.id)).toBeNull();
    expect((await getPost(first.id, author.id))?.moderation).toBe("hidden");
    const data = (await moderationLoader({ request: request("/admin/moderation", { cookie }), params: {}, context: {} })) as { items: { id: number }[] };
    expect(data.items.map((item) => item.id)).toContain(first.id);

    await moderate(cookie, { intent: "delete", target: "post", id: String(second.id) });
    expect(await db().selectFrom("posts").select("id").where("id", "=", second.id).executeTakeFirst()).toBeUndefined();

    await moderate(cookie, { intent: "ban", target: "user", id: String(author.id) });
    await expect(createPost({ userId: author.id, categoryId: 1, content: "禁言中" })).rejects.toMatchObject({ code: "banned" });
    await moderate(cookie, { intent: "unban", target: "user", id: String(author.id) });
    expect((await createPost({ userId: author.id, categoryId: 1, content: "解禁了" })).id).toBeGreaterThan(0);

    const missing = await moderate(cookie, { intent: "hide", target: "post", id: "999999" });
    expect(missing.headers.get("Location")).toBe("/admin/moderation?notice=notFound");

    // Each action is in the audit log like an order action: who, what, on what; a refused one is not.
    await moderate(cookie, { intent: "restore", target: "post", id: String(first.id) });
    const comment = await addComment({ postId: first.id, userId: reader.id, content: "一条评论" });
    await moderate(cookie, { intent: "hide", target: "comment", id: String(comment.id) });
    await moderate(cookie, { intent: "delete", target: "comment", id: String(comment.id) });
    const audit = await db().selectFrom("admin_audit").select(["operator_id", "operator_name", "action", "detail"]).where("operator_id", "=", operator.id).orderBy("id").execute();
    expect(audit).toEqual(
      [
        ["moderation_hide", `post #${first.id}`],
        ["moderation_delete", `post #${second.id}`],
        ["moderation_ban", `user #${author.id}`],
        ["moderation_unban", `user #${author.id}`],
        ["moderation_restore", `post #${first.id}`],
        ["moderation_hide", `comment #${comment.id} (post #${first.id})`],
        ["moderation_delete", `comment #${comment.id} (post #${first.id})`],
      ].map(([action, detail]) => ({ operator_id: operator.id, operator_name: "审核员", action, detail })),
    );
  });
});

describe("personal data", () => {
  it("account deletion removes the person's posts, comments, likes, views, reports and images, and recounts others' posts", async () => {
    const leaving = await createStudent({ nickname: "要注销的人" });
    const other = await createStudent({ nickname: "留下的人" });
    fs.writeFileSync(path.join(uploadsDir(), "LeavingImageKey0123456.jpg"), "x");
    fs.writeFileSync(path.join(uploadsDir(), "LeavingImageKey0123456.t.jpg"), "x");
    await db().insertInto("uploads").values({ key: "LeavingImageKey0123456", user_id: leaving.id, post_id: null, position: 0, width: 1, height: 1, bytes: 1, created_at: new Date().toISOString() }).execute();
    const own = await createPost({ userId: leaving.id, categoryId: 1, content: "注销者的帖子", images: ["/uploads/LeavingImageKey0123456.jpg"] });
    const kept = await createPost({ userId: other.id, categoryId: 1, content: "别人的帖子" });
    const root = await addComment({ postId: kept.id, userId: leaving.id, content: "注销者的评论" });
    await addComment({ postId: kept.id, userId: other.id, content: "回复注销者", parentId: root.id });
    await addComment({ postId: kept.id, userId: other.id, content: "独立评论" });
    await togglePostLike(kept.id, leaving.id);
    await togglePostLike(kept.id, other.id);
    await reportAs(leaving.id, kept.id);

    await db().updateTable("users").set({ deletion_requested_at: new Date().toISOString() }).where("id", "=", leaving.id).execute();
    expect(await runAccountDeletionJob()).toBeGreaterThanOrEqual(1);

    for (const table of ["posts", "comments", "post_likes", "comment_likes", "post_views", "reports", "uploads", "forum_bans"] as const) {
      expect(await db().selectFrom(table).selectAll().where("user_id", "=", leaving.id).execute()).toEqual([]);
    }
    expect(await db().selectFrom("posts").select("id").where("id", "=", own.id).executeTakeFirst()).toBeUndefined();
    const after = await db().selectFrom("posts").select(["like_count", "comment_count"]).where("id", "=", kept.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ like_count: 1, comment_count: 1 });
    expect(fs.existsSync(path.join(uploadsDir(), "LeavingImageKey0123456.jpg"))).toBe(false);
    expect(fs.existsSync(path.join(uploadsDir(), "LeavingImageKey0123456.t.jpg"))).toBe(false);
  });

  it("merging two rows of one person keeps one like per post and exact counts", async () => {
    const messenger = await createMessengerUser();
    const student = await createStudent({ nickname: "合并后" });
    const author = await createStudent();
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "合并测试" });
    const onlyMessenger = await createPost({ userId: author.id, categoryId: 1, content: "只有微信身份点过赞" });
    await togglePostLike(id, messenger.id);
    await togglePostLike(id, student.id);
    await togglePostLike(onlyMessenger.id, messenger.id);
    await createPost({ userId: messenger.id, categoryId: 1, content: "微信身份发的帖" });
    await db().transaction().execute((trx) => moveForumData(trx, messenger.id, student.id));
    expect((await db().selectFrom("posts").select("like_count").where("id", "=", id).executeTakeFirstOrThrow()).like_count).toBe(1);
    expect((await db().selectFrom("post_likes").select("user_id").where("post_id", "=", onlyMessenger.id).execute()).map((row) => row.user_id)).toEqual([student.id]);
    expect(await db().selectFrom("posts").select("id").where("user_id", "=", messenger.id).execute()).toEqual([]);
    expect(await db().selectFrom("post_likes").select("post_id").where("user_id", "=", messenger.id).execute()).toEqual([]);
  });
});
