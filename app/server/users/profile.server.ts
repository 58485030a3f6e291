// The student's own profile: the one name the circle, comments and invites show (publicName), and
// the avatar beside it.
import crypto from "node:crypto";
import sharp from "sharp";
import { IMAGE_MAX_BYTES } from "~/lib/forum";
import type { User } from "../auth/session.server";
import { db, now } from "../db/db.server";
import { publicName } from "../forum/posts.server";
import { log } from "../log.server";
import { imageFileName, imageUrl, sniffImageType, thumbFileName, uploadKeyFromUrl } from "../storage/images.server";
import { fileStorage } from "../storage/storage.server";

/** An avatar is a square: the full picture for the profile, a small one for lists. */
export const AVATAR_SIDE = 256;
export const AVATAR_THUMB_SIDE = 96;

export function profileView(user: User) {
  return {
    nickname: user.nickname ?? "",
    displayName: publicName(user),
    avatar: user.avatar_url ?? user.wechat_avatar ?? null,
    // Shown to its owner only: this view is built for the logged-in student themself.
    realName: user.real_name ?? null,
    studentId: user.student_id ?? null,
  };
}


/** Why an avatar was refused: too big, not a picture we can read, or the storage failed. */
export type AvatarRefusal = "too_large" | "not_image" | "store_failed";
export type AvatarResult = { ok: true; url: string } | { ok: false; reason: AvatarRefusal };

/**
 * Checks the real content (not the name or the claimed type), turns the picture upright, crops the
 * middle square, and writes fresh JPEGs with no metadata (sharp keeps none unless asked: no EXIF,
 * no GPS). The old avatar's files go once the new one is in place.
 */
export async function saveAvatar(user: User, data: Buffer): Promise<AvatarResult> {
  if (data.length > IMAGE_MAX_BYTES) return { ok: false, reason: "too_large" };
  if (!sniffImageType(data)) return { ok: false, reason: "not_image" };
  let full: Buffer;
  let thumb: Buffer;
  try {
    const upright = sharp(data, { failOn: "error", limitInputPixels: 40_000_000 }).rotate();
    full = await upright.clone().resize(AVATAR_SIDE, AVATAR_SIDE, { fit: "cover" }).jpeg({ quality: 85 }).toBuffer();
    thumb = await sharp(full).resize(AVATAR_THUMB_SIDE, AVATAR_THUMB_SIDE).jpeg({ quality: 80 }).toBuffer();
  } catch {
    return { ok: false, reason: "not_image" };
  }
  const key = crypto.randomBytes(16).toString("base64url");
  try {
    await fileStorage().put(imageFileName(key), full, "image/jpeg");
    await fileStorage().put(thumbFileName(key), thumb, "image/jpeg");
  } catch (error) {
    log("error", "avatar-store", { userId: user.id, error: error instanceof Error ? error.message : String(error) });
    await removeAvatarFiles(key);
    return { ok: false, reason: "store_failed" };
  }
  const url = imageUrl(key);
  await db().updateTable("users").set({ avatar_url: url, updated_at: now() }).where("id", "=", user.id).execute();
  const previous = user.avatar_url ? uploadKeyFromUrl(user.avatar_url) : null;
  if (previous) await removeAvatarFiles(previous);
  return { ok: true, url };
}

/** Removes an avatar's two files (on replacement and account deletion); missing files are fine. */
export async function removeAvatarFiles(key: string) {
  for (const name of [imageFileName(key), thumbFileName(key)]) {
    try {
      await fileStorage().remove(name);
    } catch (error) {
      log("warn", "avatar-remove", { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
