import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type AppLoadContext } from "@remix-run/node";
import { cursorParam } from "~/lib/comment-tree";
import type { SubmissionResult } from "@conform-to/react";
import { POST_MAX_IMAGES } from "~/lib/forum";
import * as msg from "~/lib/messages";
import { MyPostsActionSchema, PublishPostSchema } from "~/lib/schemas/forum";
import { getUser, hasStudentAccount, requireStudent } from "../auth/session.server";
import { log } from "../log.server";
import { thumbUrl, uploadKeyFromUrl } from "../storage/images.server";
import { forumCategories } from "./categories.server";
import { parsePostId, postAction as handlePostAction } from "./post-actions.server";
import { createPost, deletePost, ForumError, getPostWithAuthor, hasPublicName, isBanned, listMyPosts, listPosts, loadComments, recordView, type PostPage } from "./posts.server";
import { declaredTooLarge, isMultipart, readMultipart, storeUploads } from "./uploads.server";
import { draftFromForm, dropDraft, stashDraft, takeDraft, withDraftCookie } from "./draft-stash.server";
import { consumeRateLimit } from "../rate-limits.server";

// The circle's loaders and actions. Routes stay thin (parse, call this, render), and each route
// imports one server module, so the browser build gets one empty stand-in for it, not five.

function positiveInt(value: string | null) {
  return value && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

/** /circle: categories (cached, or the defaults with the warning), one page of posts, the notice. */
export async function circlePage(request: Request) {
  const user = await requireStudent(request);
  const url = new URL(request.url);
  const { categories, warning } = await forumCategories();
  const requested = positiveInt(url.searchParams.get("category"));
  const categoryId = requested && categories.some((category) => category.id === requested) ? requested : null;
  const before = positiveInt(url.searchParams.get("before"));
  let page: PostPage = { posts: [], nextCursor: null };
  let error: string | null = null;
  try {
    page = await listPosts({ viewerId: user.id, categoryId, before });
  } catch (cause) {
    log("error", "circle-list", { error: String(cause) });
    error = `${msg.circle.loadPostsFailed}${msg.errors.serverErrorBody}`;
  }
  return {
    categories: categories.map(({ id, name }) => ({ id, name })),
    warning,
    categoryId,
    before,
    page,
    error,
    notice: url.searchParams.get("notice"),
    now: new Date().toISOString(),
  };
}

const POST_NOTICES: Record<string, "reported" | "alreadyReported" | "commentDeleted" | "markedCompleted"> = {
  reported: "reported",
  alreadyReported: "alreadyReported",
  commentDeleted: "commentDeleted",
  completed: "markedCompleted",
};

/** /post/:id: the post (a view counted once a day), its comments, whether the viewer may comment. */
export async function postPage(request: Request, idParam: string | undefined) {
  const user = await requireStudent(request);
  const id = parsePostId(idParam);
  const found = await getPostWithAuthor(id, user.id);
  if (!found) throw new Response("Not Found", { status: 404 });
  const { post } = found;
  if (await recordView(id, user.id)) post.viewCount += 1;
  const url = new URL(request.url);
  const params = url.searchParams;
  // Comments come a page at a time (issue 18): ?after= pages the top-level comments, ?thread= (and
  // ?from=) pages one thread's replies; a sheet's ?reply= or ?comment= brings that comment along.
  const page = {
    after: cursorParam(params.get("after")),
    thread: cursorParam(params.get("thread")),
    from: cursorParam(params.get("from")),
    focus: cursorParam(params.get("reply")) ?? cursorParam(params.get("comment")),
  };
  const { comments, error: commentsError } = await loadComments(id, user.id, found.author, page);
  const notice = params.get("notice");
  return {
    post,
    comments,
    commentsPage: { after: page.after, thread: page.thread, from: page.from },
    commentsError,
    canComment: hasPublicName(user),
    now: new Date().toISOString(),
    // Texts shown only sometimes travel as data, not in the page's JavaScript.
    noticeText: notice && notice in POST_NOTICES ? msg.postSheets[POST_NOTICES[notice]!] : null,
    moderationNote: post.moderation === "pending" ? msg.postSheets.underReview : post.moderation === "hidden" ? msg.postSheets.hiddenByOperator : null,
  };
}

/** /post/:id/comment: the comment draft sent when the session had ended, back after the login. */
export async function commentSheetPage(request: Request, idParam: string | undefined) {
  const user = await requireStudent(request);
  const id = parsePostId(idParam);
  const stashed = await takeDraft(request, user.id, "comment", commentPath(id));
  return { draft: stashed ? { content: stashed.content, isAnonymous: stashed.isAnonymous, notice: msg.publish.draftRestored } : null };
}

export function commentPath(id: number) {
  return `/post/${id}/comment`;
}

/** The forms of /post/:id and its comment sheet. */
export function postAction(request: Request, idParam: string | undefined, context?: AppLoadContext) {
  return handlePostAction(request, parsePostId(idParam), context?.clientIp);
}

/** /publish-post: the category pills (a `category` query preselects one). */
export async function publishPage(request: Request) {
  const user = await requireStudent(request);
  const { categories, warning } = await forumCategories();
  const requested = Number(new URL(request.url).searchParams.get("category"));
  // The draft sent when the session had ended (see draft-stash.server), back after the login.
  const stashed = await takeDraft(request, user.id, "post", PUBLISH_PATH);
  const draft = stashed
    ? {
        content: stashed.content,
        categoryId: categories.some((category) => category.id === stashed.categoryId) ? stashed.categoryId! : null,
        isAnonymous: stashed.isAnonymous,
        images: kept(stashed.images ?? []),
      }
    : null;
  return {
    categories: categories.map(({ id, name }) => ({ id, name })),
    warning,
    categoryId: categories.some((category) => category.id === requested) ? requested : null,
    draft,
  };
}

const PUBLISH_PATH = "/publish-post";

/** Image URLs of ours, with their thumbnails. */
function kept(urls: string[]): Uploaded[] {
  return urls.flatMap((url) => {
    const key = uploadKeyFromUrl(url);
    return key ? [{ url, thumbUrl: thumbUrl(key) }] : [];
  });
}

/**
 * A form sent without a valid session: its text is kept for after the login (draft-stash.server),
 * then the login page (a thrown redirect carrying the draft's cookie), for every caller.
 */
async function keepDraftAndLogin(request: Request, kind: "post" | "comment", path: string): Promise<never> {
  let setCookie: string | null = null;
  if (!declaredTooLarge(request)) {
    try {
      setCookie = await stashDraft(request, kind, path, draftFromForm(kind, await request.formData()));
    } catch {
      // an unreadable body: nothing to keep
    }
  }
  try {
    await requireStudent(request);
  } catch (thrown) {
    throw withDraftCookie(thrown, setCookie);
  }
  throw new Error("unreachable");
}

type Uploaded = { url: string; thumbUrl: string };
/** What a refused publish answers: conform's result and the images already stored (kept in the form). */
export type PublishAnswer = { result: SubmissionResult<string[]>; images: Uploaded[] };

function failure(result: SubmissionResult<string[]>, images: Uploaded[], status: number, headers?: Record<string, string>) {
  return Response.json({ result, images } satisfies PublishAnswer, { status, headers });
}

/**
 * Publishes. Takes the images both ways: URLs of images the page's JavaScript already uploaded
 * (field `images`) and, without JavaScript, files chosen in the form (field `files`), which are
 * checked and stored here. Images stored before a refusal come back with it, so nothing is lost.
 */
export async function publishAction(request: Request, context?: AppLoadContext) {
  const user = await getUser(request);
  // A form sent without a valid session (the guard lets the draft forms through): its text is
  // kept for after the login, then the login page, for every caller.
  if (!user || !hasStudentAccount(user)) return keepDraftAndLogin(request, "post", PUBLISH_PATH);
  if (declaredTooLarge(request)) return failure({ status: "error", error: { "": [msg.publish.imageTooLarge] } }, [], 413);

  let formData: FormData;
  const fileErrors: string[] = [];
  const fresh: Uploaded[] = [];
  if (isMultipart(request)) {
    const read = await readMultipart(request, "files", POST_MAX_IMAGES);
    formData = read.formData;
    const alreadyThere = formData.getAll("images").length;
    const room = Math.max(0, POST_MAX_IMAGES - alreadyThere);
    const files = read.files.map((file, index) => (index >= room && !file.problem ? { ...file, data: null, problem: "too_many" as const } : file));
    const { stored, errors } = await storeUploads(user.id, files);
    fileErrors.push(...errors);
    for (const { image } of stored) {
      formData.append("images", image.url);
      fresh.push({ url: image.url, thumbUrl: image.thumbUrl });
    }
  } else {
    formData = await request.formData();
  }
  const allImages = kept(formData.getAll("images").map(String));

  const submission = parseWithZod(formData, { schema: PublishPostSchema });
  if (submission.status !== "success" || fileErrors.length > 0) {
    return failure(submission.reply({ formErrors: fileErrors }), allImages, 400);
  }
  const { categories } = await forumCategories();
  if (!categories.some((category) => category.id === submission.value.categoryId)) {
    return failure(submission.reply({ fieldErrors: { categoryId: [msg.publish.categoryRequired] } }), allImages, 400);
  }
  if (await isBanned(user.id)) return failure(submission.reply({ formErrors: [msg.publish.noPermission] }), allImages, 403);
  // Posting is rate-limited (issue 18): the form comes back with what was typed and the message.
  const verdict = await consumeRateLimit("post", { userId: user.id, ip: context?.clientIp });
  if (!verdict.ok) return failure(submission.reply({ formErrors: [verdict.message] }), allImages, 429, verdict.headers);
  try {
    await createPost({
      userId: user.id,
      categoryId: submission.value.categoryId,
      content: submission.value.content,
      isAnonymous: submission.value.isAnonymous,
      images: submission.value.images,
    });
  } catch (error) {
    if (!(error instanceof ForumError)) throw error;
    const status = error.code === "banned" ? 403 : 400;
    return failure(submission.reply({ formErrors: [error.message] }), error.code === "invalid_image" ? [] : allImages, status);
  }
  await dropDraft(request, "post");
  return redirect("/circle?notice=published");
}

/** /backpack/posts: the user's own posts, a page at a time. */
export async function myPostsPage(request: Request) {
  const user = await requireStudent(request);
  const url = new URL(request.url);
  const before = positiveInt(url.searchParams.get("before"));
  return {
    page: await listMyPosts({ userId: user.id, before }),
    before,
    confirm: positiveInt(url.searchParams.get("delete")),
    deleted: url.searchParams.get("notice") === "deleted",
    now: new Date().toISOString(),
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
