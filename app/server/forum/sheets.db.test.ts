import { describe, expect, it } from "vitest";
import { action as deleteAction } from "~/routes/post.$id.delete/route";
import { action as reportAction } from "~/routes/post.$id.report/route";
import * as msg from "~/lib/messages";
import { db } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { addComment, createPost } from "./posts.server";

// The report and delete sheets of /post/:id own their actions: a refusal is conform's
// result for the sheet's form, a success moves on with a redirect, for every caller.
async function post(route: typeof deleteAction, path: string, id: number, userId: number, fields: Record<string, string>) {
  return (await route({
    request: request(path, { method: "POST", body: new URLSearchParams(fields), cookie: await sessionCookieFor(userId) }),
    params: { id: String(id) },
    context: {},
  })) as Response;
}

describe("the post's sheets", () => {
  it("delete: the author's comment goes, someone else's post stays (not found, on the sheet)", async () => {
    const author = await createStudent({ nickname: "楼主" });
    const other = await createStudent({ nickname: "路人" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "删除检查" });
    const comment = await addComment({ postId: id, userId: other.id, content: "要删的评论" });

    const deleted = await post(deleteAction, `/post/${id}/delete`, id, other.id, { intent: "deleteComment", commentId: String(comment.id) });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe(`/post/${id}?notice=commentDeleted#comments`);

    const refused = await post(deleteAction, `/post/${id}/delete`, id, other.id, { intent: "deletePost" });
    expect(refused.status).toBe(404);
    expect((await refused.json()).error[""]).toEqual([msg.postDetail.postNotFound]);
    expect(await db().selectFrom("posts").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();

    const gone = await post(deleteAction, `/post/${id}/delete`, id, author.id, { intent: "deletePost" });
    expect(gone.headers.get("Location")).toBe("/circle?notice=deleted");
  });

  it("report: no reason is conform's error beside the reasons; a reason reports and goes back to the post", async () => {
    const author = await createStudent({ nickname: "作者" });
    const reporter = await createStudent({ nickname: "举报人" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "举报检查" });

    const refused = await post(reportAction, `/post/${id}/report`, id, reporter.id, { intent: "report" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.reason).toEqual([msg.postSheets.reportReasonRequired]);

    const reported = await post(reportAction, `/post/${id}/report`, id, reporter.id, { intent: "report", reason: "spam" });
    expect(reported.headers.get("Location")).toBe(`/post/${id}?notice=reported`);
  });

  it("report: one's own post is refused with 403 and says why", async () => {
    const author = await createStudent({ nickname: "自己" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "自己举报自己" });
    const own = await post(reportAction, `/post/${id}/report`, id, author.id, { intent: "report", reason: "spam" });
    expect(own.status).toBe(403);
    expect((await own.json()).error[""]).toEqual([msg.postSheets.ownContent]);
  });
});
