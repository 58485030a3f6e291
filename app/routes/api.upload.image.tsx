import type { ActionFunctionArgs } from "@remix-run/node";
import { IMAGE_MAX_BYTES } from "~/lib/forum";
import { postDetail as postDetailMessages } from "~/lib/messages/postDetail";
import { publish as publishMessages } from "~/lib/messages/publish";
import { getUser, hasStudentAccount } from "~/server/auth/session.server";
import { isBanned } from "~/server/forum/posts.server";
import { declaredTooLarge, isMultipart, readMultipart, storeUploads } from "~/server/forum/uploads.server";
import { UPLOAD_REFUSALS } from "~/server/http/upload-refusals";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooManyAnswer } from "~/server/http/too-many";


// POST /api/upload/image (docs/product-rules.md, "Call paths"): multipart field `file`, one image. Answers
// { success, message, data: { file_url } } (plus the thumbnail and size). The publish page's
// JavaScript calls it one image at a time; the image joins a post when the post is published.

const msg = { postDetail: postDetailMessages, publish: publishMessages };

function answer(status: number, message: string) {
  return Response.json({ success: false, message }, { status });
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return answer(405, msg.postDetail.actionFailed);
  const user = await getUser(request);
  if (!user || !hasStudentAccount(user)) return answer(401, msg.publish.notLoggedIn);
  if (await isBanned(user.id)) return answer(403, msg.publish.noPermission);
  if (!isMultipart(request)) return answer(400, msg.publish.imagesOnly);
  if (declaredTooLarge(request, IMAGE_MAX_BYTES + 64 * 1024)) return answer(413, msg.publish.imageTooLarge);
  const { files } = await readMultipart(request, "file", 1);
  const file = files[0];
  if (!file) return answer(400, msg.publish.imagesOnly);
  if (file.problem === "too_large") return answer(413, msg.publish.imageTooLarge);
  const verdict = await consumeRateLimit("upload", { userId: user.id, ip: context.clientIp });
  if (!verdict.ok) return tooManyAnswer(verdict);
  const { stored, refused } = await storeUploads(user.id, [file]);
  const saved = stored[0];
  if (!saved) {
    const refusal = refused[0] ? UPLOAD_REFUSALS[refused[0].reason] : null;
    return answer(refusal?.status ?? 400, refusal?.message ?? msg.publish.uploadFailed);
  }
  return Response.json({
    success: true,
    message: msg.publish.uploaded,
    data: { file_url: saved.image.url, thumb_url: saved.image.thumbUrl, width: saved.image.width, height: saved.image.height },
  });
}

export function loader() {
  return Response.json({ success: false, message: msg.postDetail.actionFailed }, { status: 405, headers: { Allow: "POST" } });
}
