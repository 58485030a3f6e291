import { IMAGE_MAX_BYTES, POST_MAX_IMAGES } from "~/lib/forum";
import { saveUploadedImage, type ImageRefusal, type SavedImage } from "../storage/images.server";

// Multipart forms with images: the upload endpoint (one file) and the publish form without
// JavaScript (up to 9). An oversized or surplus file is reported by name; stored files get random
// names, so a client's file name is only ever shown next to its refusal.

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

/**
 * The form's text fields and the files of `fileField` (at most `maxFiles`, each at most
 * IMAGE_MAX_BYTES; the rest are named as refused). Parsed by the platform's (undici) parser:
 * Remix's streaming parser split the Content-Disposition header at every ';', so a file named
 * `a;b.jpg` threw and the typed post was lost. The body's size is bounded before this
 * runs (declaredTooLarge here, and the server's body limits).
 */
export async function readMultipart(request: Request, fileField: string, maxFiles: number) {
  const parsed = await request.formData();
  const formData = new FormData();
  const files: IncomingFile[] = [];
  for (const [name, value] of parsed) {
    if (typeof value === "string") {
      if (Buffer.byteLength(value) <= MAX_TEXT_FIELD_BYTES) formData.append(name, value);
      continue;
    }
    if (name !== fileField || value.size === 0) continue; // no file chosen, or another file field
    if (files.length >= maxFiles) files.push({ filename: value.name, data: null, problem: "too_many" });
    else if (value.size > IMAGE_MAX_BYTES) files.push({ filename: value.name, data: null, problem: "too_large" });
    else files.push({ filename: value.name, data: Buffer.from(await value.arrayBuffer()), problem: null });
  }
  return { formData, files };
}

export type StoredUpload = { image: SavedImage; filename: string };
/** Why a file was not stored: beyond the form's number of images, or the image's own refusal. */
export type UploadRefusal = "too_many" | ImageRefusal;
export type RefusedUpload = { filename: string; reason: UploadRefusal };

/**
 * A client's file name as shown next to its refusal: text only (no control characters), at most
 * 40 characters. It is never used for anything else: stored files get random names.
 */
export function displayFileName(filename: string) {
  const clean = filename.replace(/[\p{Cc}\p{Cf}]/gu, "").trim();
  const chars = Array.from(clean);
  return chars.length > 40 ? `${chars.slice(0, 39).join("")}…` : clean || "?";
}

/** Stores the files as the user's uploads; each refused file comes back with its name and reason. */
export async function storeUploads(userId: number, files: IncomingFile[]) {
  const stored: StoredUpload[] = [];
  const refused: RefusedUpload[] = [];
  for (const file of files) {
    if (file.problem === "too_many") {
      refused.push({ filename: file.filename, reason: "too_many" });
      continue;
    }
    if (file.problem === "too_large" || !file.data) {
      refused.push({ filename: file.filename, reason: "too_large" });
      continue;
    }
    const result = await saveUploadedImage(userId, file.data);
    if (result.ok) stored.push({ image: result.image, filename: file.filename });
    else refused.push({ filename: file.filename, reason: result.reason });
  }
  return { stored, refused };
}
