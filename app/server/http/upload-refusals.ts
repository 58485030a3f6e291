// What the routes answer when an uploaded image is refused (app/server/forum/uploads.server.ts and
// app/server/storage/images.server.ts give the reason): the status and the catalogue's message for
// each, once for the upload call path and the publish form without JavaScript.
import { publish } from "~/lib/messages/publish";
import { displayFileName, type RefusedUpload, type UploadRefusal } from "~/server/forum/uploads.server";
import type { RefusalTable } from "./refusal-table";

export const UPLOAD_REFUSALS: RefusalTable<UploadRefusal> = {
  too_many: { status: 400, message: publish.tooManyImages },
  too_large: { status: 413, message: publish.imageTooLarge },
  not_an_image: { status: 400, message: publish.imagesOnly },
  too_many_pending: { status: 429, message: publish.tooManyPendingUploads },
  unreadable: { status: 400, message: publish.imageUnreadable },
  storage_unavailable: { status: 503, message: publish.storageUnavailable },
};

/** A refused file as the form shows it, named by its file: "a.jpg: 只能上传图片文件". */
export function uploadRefusalLine(refused: RefusedUpload) {
  return `${displayFileName(refused.filename)}: ${UPLOAD_REFUSALS[refused.reason].message}`;
}
