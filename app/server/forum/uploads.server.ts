import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { IMAGE_MAX_BYTES, POST_MAX_IMAGES } from "~/lib/forum";
import * as msg from "~/lib/messages";
import { saveUploadedImage, type SavedImage } from "../storage/images.server";

// Multipart forms with images: the upload endpoint (one file) and the publish form without
// JavaScript (up to 9). Files are read with a size cap while they stream in; an oversized one is
// drained and reported by name, never buffered whole.

export type IncomingFile = { filename: string; data: Buffer | null; problem: "too_large" | "too_many" | null };

const MAX_TEXT_FIELD_BYTES = 64 * 1024;
/** Anything bigger than all allowed images together is refused before reading. */
export const MAX_FORM_BYTES = POST_MAX_IMAGES * IMAGE_MAX_BYTES + 1024 * 1024;

export function isMultipart(request: Request) {
  return (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
}

export function declaredTooLarge(request: Request, limit = MAX_FORM_BYTES) {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  return Number.isFinite(length) && length > limit;
}

export async function readMultipart(request: Request, fileField: string, maxFiles: number) {
  const files: IncomingFile[] = [];
  const handler: UploadHandler = async (part) => {
    if (part.filename === undefined) {
      let size = 0;
      const chunks: Uint8Array[] = [];
      for await (const chunk of part.data) {
        size += chunk.byteLength;
        if (size <= MAX_TEXT_FIELD_BYTES) chunks.push(chunk);
      }
      return size <= MAX_TEXT_FIELD_BYTES ? Buffer.concat(chunks).toString("utf8") : undefined;
    }
    const counted = part.name === fileField && part.filename !== "";
    const keep = counted && files.length < maxFiles;
    let size = 0;
    const chunks: Uint8Array[] = [];
    for await (const chunk of part.data) {
      size += chunk.byteLength;
      if (keep && size <= IMAGE_MAX_BYTES) chunks.push(chunk);
    }
    if (!counted || size === 0) return undefined; // no file chosen, or another file field
    if (!keep) files.push({ filename: part.filename!, data: null, problem: "too_many" });
    else if (size > IMAGE_MAX_BYTES) files.push({ filename: part.filename!, data: null, problem: "too_large" });
    else files.push({ filename: part.filename!, data: Buffer.concat(chunks), problem: null });
    return undefined;
  };
  const formData = await unstable_parseMultipartFormData(request, handler);
  return { formData, files };
}

export type StoredUpload = { image: SavedImage; filename: string };
export type RefusedUpload = { status: number; message: string };

/**
 * A client's file name as shown next to its refusal: text only (no control characters), at most
 * 40 characters. It is never used for anything else: stored files get random names.
 */
export function displayFileName(filename: string) {
  const clean = filename.replace(/[\p{Cc}\p{Cf}]/gu, "").trim();
  const chars = Array.from(clean);
  return chars.length > 40 ? `${chars.slice(0, 39).join("")}…` : clean || "?";
}

/** Stores the files as the user's uploads; each refusal names its file: "a.jpg: 只能上传图片文件". */
export async function storeUploads(userId: number, files: IncomingFile[]) {
  const stored: StoredUpload[] = [];
  const refused: RefusedUpload[] = [];
  const errors: string[] = [];
  const refuse = (file: IncomingFile, status: number, message: string) => {
    refused.push({ status, message });
    errors.push(`${displayFileName(file.filename)}: ${message}`);
  };
  for (const file of files) {
    if (file.problem === "too_many") {
      refuse(file, 400, msg.publish.tooManyImages);
      continue;
    }
    if (file.problem === "too_large" || !file.data) {
      refuse(file, 413, msg.publish.imageTooLarge);
      continue;
    }
    const result = await saveUploadedImage(userId, file.data);
    if (result.ok) stored.push({ image: result.image, filename: file.filename });
    else refuse(file, result.status, result.message);
  }
  return { stored, errors, refused };
}
