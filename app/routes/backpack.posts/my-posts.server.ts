import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { cursorParam } from "~/lib/comment-tree";
import * as msg from "~/lib/messages";
import { MyPostsActionSchema } from "~/lib/schemas/forum";
import { deletePost, listMyPosts } from "~/server/forum/posts.server";
import { requireStudent } from "~/server/http/guards.server";

/** /backpack/posts: the user's own posts, a page at a time. */
export async function myPostsPage(request: Request) {
  const user = await requireStudent(request);
  const url = new URL(request.url);
  const before = cursorParam(url.searchParams.get("before"));
  return {
    page: await listMyPosts({ userId: user.id, before }),
    before,
    confirm: cursorParam(url.searchParams.get("delete")),
    deleted: url.searchParams.get("notice") === "deleted",
  };
}

export async function myPostsAction(request: Request) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: MyPostsActionSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  if (!(await deletePost(submission.value.postId, { userId: user.id }))) {
    return Response.json(submission.reply({ formErrors: [msg.postDetail.postNotFound] }), { status: 404 });
  }
  return redirect("/backpack/posts?notice=deleted");
}
