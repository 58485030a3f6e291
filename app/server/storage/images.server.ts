import crypto from "node:crypto";
import sharp, { type OutputInfo } from "sharp";
import { IMAGE_MAX_BYTES, IMAGE_MAX_SIDE, THUMB_MAX_SIDE } from "~/lib/forum";
import { db, now } from "../db/db.server";
import { log } from "../log.server";
import { fileStorage } from "./storage.server";

// Image URLs: /uploads/<key>.jpg and the card thumbnail /uploads/<key>.t.jpg. The key is 16
// random bytes (base64url), so a URL carries nothing about who uploaded it.
export const UPLOAD_URL_PREFIX = "/uploads/";
const KEY = /^[A-Za-z0-9_-]{22}$/;

export function isUploadKey(key: string) {
  return KEY.test(key);
}

export function imageFileName(key: string) {
  return `${key}.jpg`;
}

export function thumbFileName(key: string) {
  return `${key}.t.jpg`;
}

export function imageUrl(key: string) {
  return `${UPLOAD_URL_PREFIX}${imageFileName(key)}`;
}

export function thumbUrl(key: string) {
  return `${UPLOAD_URL_PREFIX}${thumbFileName(key)}`;
}

/** The key of a full-size image URL we answered, else null. */
export function uploadKeyFromUrl(url: string): string | null {
  const match = /^\/uploads\/([A-Za-z0-9_-]{22})\.jpg$/.exec(url);
  return match ? match[1]! : null;
}

export type SniffedType = "jpeg" | "png" | "gif" | "webp";

/** The image type by the file's first bytes (its magic number), whatever name or type it claims. */
export function sniffImageType(data: Uint8Array): SniffedType | null {
  const starts = (bytes: number[], offset = 0) => bytes.every((byte, index) => data[offset + index] === byte);
  if (data.length >= 3 && starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (data.length >= 8 && starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (data.length >= 6 && (starts([0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || starts([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]))) return "gif";
  if (data.length >= 12 && starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

/** Unattached uploads a user may hold (drafts' images), and how long they are kept. */
export const MAX_PENDING_UPLOADS = 60;
export const PENDING_UPLOAD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type SavedImage = { key: string; url: string; thumbUrl: string; width: number; height: number };
/** Why an image was not stored: too big, not an image by its bytes, too many unpublished uploads, undecodable, or the storage failed. */
export type ImageRefusal = "too_large" | "not_an_image" | "too_many_pending" | "unreadable" | "storage_unavailable";
export type ImageResult = { ok: true; image: SavedImage } | { ok: false; reason: ImageRefusal };

/**
 * Checks, re-encodes and stores one uploaded image for a user: the real content must be a JPEG,
 * PNG, GIF or WebP of at most IMAGE_MAX_BYTES; it is decoded, turned upright, scaled to at most
 * IMAGE_MAX_SIDE on its longest side and written as a fresh JPEG (no EXIF, no GPS: sharp keeps
 * no metadata unless asked), with a THUMB_MAX_SIDE thumbnail for the cards.
 */
export async function saveUploadedImage(userId: number, data: Buffer): Promise<ImageResult> {
  if (data.length > IMAGE_MAX_BYTES) return { ok: false, reason: "too_large" };
  if (!sniffImageType(data)) return { ok: false, reason: "not_an_image" };
  await purgeStaleUploads(userId);
  const pending = await db()
    .selectFrom("uploads")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("user_id", "=", userId)
    .where("post_id", "is", null)
    .executeTakeFirst();
  if (Number(pending?.n ?? 0) >= MAX_PENDING_UPLOADS) return { ok: false, reason: "too_many_pending" };

  let full: { data: Buffer; info: OutputInfo };
  let thumb: Buffer;
  try {
    const source = sharp(data, { failOn: "error", limitInputPixels: 50_000_000, animated: false }).rotate();
    full = await source
      .clone()
      .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    thumb = await source
      .clone()
      .resize({ width: THUMB_MAX_SIDE, height: THUMB_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 75, mozjpeg: true })
      .toBuffer();
  } catch {
    return { ok: false, reason: "unreadable" };
  }

  const key = crypto.randomBytes(16).toString("base64url");
  // The image, its thumbnail and the row succeed together or none remains: a failure removes
  // whatever was already written (storage errors are the operator's to see, not the student's).
  try {
    await fileStorage().put(imageFileName(key), full.data, "image/jpeg");
    await fileStorage().put(thumbFileName(key), thumb, "image/jpeg");
    await db()
      .insertInto("uploads")
      .values({
        key,
        user_id: userId,
        post_id: null,
        position: 0,
        width: full.info.width,
        height: full.info.height,
        bytes: full.data.length,
        created_at: now(),
      })
      .execute();
  } catch (error) {
    log("error", "upload-store", { storage: fileStorage().kind, error: errorText(error) });
    await removeImageFiles([key]);
    return { ok: false, reason: "storage_unavailable" };
  }
  return { ok: true, image: { key, url: imageUrl(key), thumbUrl: thumbUrl(key), width: full.info.width, height: full.info.height } };
}

function errorText(error: unknown) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Removes both files of each key (after their rows are gone). Missing files are fine. */
export async function removeImageFiles(keys: string[]) {
  for (const key of keys) {
    for (const name of [imageFileName(key), thumbFileName(key)]) {
      try {
        await fileStorage().remove(name);
      } catch (error) {
        log("warn", "upload-remove", { error: errorText(error) });
      }
    }
  }
}

/** A user's uploads that no post took within PENDING_UPLOAD_LIFETIME_MS (abandoned drafts). */
export async function purgeStaleUploads(userId: number) {
  const cutoff = new Date(Date.now() - PENDING_UPLOAD_LIFETIME_MS).toISOString();
  const stale = await db()
    .deleteFrom("uploads")
    .where("user_id", "=", userId)
    .where("post_id", "is", null)
    .where("created_at", "<", cutoff)
    .returning("key")
    .execute();
  await removeImageFiles(stale.map((row) => row.key));
}
