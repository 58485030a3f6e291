// Delivery photos (decision 047): the rider's proof of 已送达 when the code cannot be had. Stored
// through the same file storage as the circle's images (a folder or a private bucket), re-encoded
// the same way (no EXIF, no GPS), under names the circle's /uploads route never answers
// (`dp-<key>.jpg`), and never through a public bucket address: only the order's student, the
// operators and the rider who took it may read one, each checked here for each read.
import crypto from "node:crypto";
import sharp from "sharp";
import { IMAGE_MAX_BYTES, IMAGE_MAX_SIDE } from "~/lib/forum";
import { isRiderRole } from "~/lib/riders";
import type { Operator } from "../auth/operator.server";
import { db } from "../db/db.server";
import { log } from "../log.server";
import { sniffImageType } from "./images.server";
import { fileStorage } from "./storage.server";

const PHOTO_NAME = /^dp-[A-Za-z0-9_-]{22}\.jpg$/;

export function isDeliveryPhotoName(name: string) {
  return PHOTO_NAME.test(name);
}

export type StoredPhoto = { ok: true; name: string } | { ok: false; reason: "too_large" | "not_image" | "unreadable" | "storage" };

/** Checks, re-encodes (upright, at most IMAGE_MAX_SIDE, a fresh JPEG without metadata) and stores one photo. */
export async function storeDeliveryPhoto(data: Buffer): Promise<StoredPhoto> {
  if (data.length > IMAGE_MAX_BYTES) return { ok: false, reason: "too_large" };
  if (!sniffImageType(data)) return { ok: false, reason: "not_image" };
  let jpeg: Buffer;
  try {
    jpeg = await sharp(data, { failOn: "error", limitInputPixels: 50_000_000, animated: false })
      .rotate()
      .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  const name = `dp-${crypto.randomBytes(16).toString("base64url")}.jpg`;
  try {
    await fileStorage().put(name, jpeg, "image/jpeg");
  } catch (error) {
    log("error", "delivery-photo-store", { storage: fileStorage().kind, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    await removeDeliveryPhoto(name);
    return { ok: false, reason: "storage" };
  }
  return { ok: true, name };
}

/** Removes a stored photo (a handover that did not happen, account deletion); a missing file is fine. */
export async function removeDeliveryPhoto(name: string) {
  if (!isDeliveryPhotoName(name)) return;
  try {
    await fileStorage().remove(name);
  } catch (error) {
    log("warn", "delivery-photo-remove", { error: error instanceof Error ? error.message : String(error) });
  }
}

export type PhotoViewer = { kind: "student"; userId: number } | { kind: "operator"; operator: Pick<Operator, "id" | "role"> };

export type PhotoRead = { ok: true; data: Buffer; contentType: string } | { ok: false; reason: "not_found" | "forbidden" | "unavailable" };

/**
 * One order's delivery photo for this viewer: the order's own student, an operator who is not a
 * rider, or the rider who carried the order. Anyone else is refused, whether or not a photo
 * exists (a stranger learns nothing about the order).
 */
export async function readDeliveryPhoto(viewer: PhotoViewer, orderNumber: string): Promise<PhotoRead> {
  const order = await db()
    .selectFrom("orders")
    .select(["user_id", "rider_id", "delivery_photo"])
    .where("order_number", "=", orderNumber)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  const allowed =
    order !== undefined &&
    (viewer.kind === "student" ? order.user_id === viewer.userId : !isRiderRole(viewer.operator.role) || order.rider_id === viewer.operator.id);
  if (!allowed) return { ok: false, reason: viewer.kind === "student" ? "not_found" : "forbidden" };
  if (!order.delivery_photo || !isDeliveryPhotoName(order.delivery_photo)) return { ok: false, reason: "not_found" };
  try {
    const file = await fileStorage().get(order.delivery_photo);
    return file ? { ok: true, data: file.data, contentType: "image/jpeg" } : { ok: false, reason: "not_found" };
  } catch (error) {
    log("error", "delivery-photo-read", { error: error instanceof Error ? error.message : String(error) });
    return { ok: false, reason: "unavailable" };
  }
}

/** Where the student's order page and the operator's order detail find the photo. */
export function deliveryPhotoUrl(orderNumber: string, viewer: "student" | "operator") {
  return viewer === "student" ? `/express/orders/${orderNumber}/photo` : `/admin/orders/${orderNumber}/photo`;
}
