import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type AppLoadContext } from "@remix-run/node";
import { POST_MAX_IMAGES } from "~/lib/forum";
import * as msg from "~/lib/messages";
import { PublishPostSchema } from "~/lib/schemas/forum";
import { getUser, hasStudentAccount } from "~/server/auth/session.server";
import { forumCategories } from "~/server/forum/categories.server";
import { dropDraft, takeDraft } from "~/server/forum/draft-stash.server";
import { createPost, ForumError, hasPublicName, isBanned } from "~/server/forum/posts.server";
import { forumRefusal } from "~/server/http/forum-refusals";
import { declaredTooLarge, isMultipart, readMultipart, storeUploads } from "~/server/forum/uploads.server";
import { uploadRefusalLine } from "~/server/http/upload-refusals";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { thumbUrl, uploadKeyFromUrl } from "~/server/storage/images.server";
import { requireStudentKeepingDraft } from "~/server/http/draft-guard.server";
import { requireStudent } from "~/server/http/guards.server";

/** /publish-post: the category pills (a `category` query preselects one). */
export async function publishPage(request: Request) {
  const user = await requireStudent(request);
  // A name first, asked once (the messenger's placeholder is none): then back here, draft and all.
  if (!hasPublicName(user)) {
    const url = new URL(request.url);
    throw redirect(`/backpack/profile?${new URLSearchParams({ redirectTo: url.pathname + url.search })}`);
  }
  const { categories, fallback } = await forumCategories();
  const warning = fallback ? msg.forumData.categoriesFallback : null;
  const requested = Number(new URL(request.url).searchParams.get("category"));
  // The draft sent when the session had ended (see draft-stash.server), back after the login.
  const stashed = await takeDraft(request, user.id, "post", PUBLISH_PATH);
  const draft = stashed
    ? {
        content: stashed.content,
        categoryId: categories.some((category) => category.id === stashed.categoryId) ? stashed.categoryId! : null,
        isAnonymous: stashed.isAnonymous,
        images: kept(stashed.images ?? []),
        ...(stashed.droppedImages ? { droppedImages: stashed.droppedImages } : {}),
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
  if (!user || !hasStudentAccount(user)) return requireStudentKeepingDraft(request, "post", PUBLISH_PATH, declaredTooLarge(request) ? null : undefined, context?.clientIp);
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
    const { stored, refused } = await storeUploads(user.id, files);
    fileErrors.push(...refused.map(uploadRefusalLine));
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
  if (!hasPublicName(user)) return failure(submission.reply({ formErrors: [msg.publish.needsNickname] }), allImages, 400);
  // Posting is rate-limited: the form comes back with what was typed and the message.
  const verdict = await consumeRateLimit("post", { userId: user.id, ip: context?.clientIp });
  if (!verdict.ok) {
    const refused = tooMany(verdict);
    return failure(submission.reply({ formErrors: [refused.message] }), allImages, 429, refused.headers);
  }
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
    const { status, message } = forumRefusal(error);
    return failure(submission.reply({ formErrors: [message] }), error.code === "invalid_image" ? [] : allImages, status);
  }
  await dropDraft(request, "post");
  return redirect("/circle?notice=published");
}
