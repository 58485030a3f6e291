// Who may read an uploaded image (circle pictures, avatars): a signed-in student or operator, or
// anyone holding a signed address that has not expired. Share cards have a public thumbnail of
// their own (shareThumbnail). Decision 042.
import crypto from "node:crypto";
import { config } from "../config.server";
import { db } from "../db/db.server";
import { getOperator } from "../auth/operator.server";
import { hasStudentAccount, lookupSession } from "../auth/session.server";
import { fileStorage } from "./storage.server";

/** A signed address lives between one and two hours; within an hour it is the same address, so browsers keep the image. */
export const SIGNED_UPLOAD_STEP_S = 3600;
/** How long a browser may keep an image it was allowed to read: its own cache only. */
export const PRIVATE_UPLOAD_CACHE = "private, max-age=3600";

function signature(name: string, expires: number) {
  // A key of its own, derived from the session secret (a signature is good for nothing else).
  const key = crypto.createHmac("sha256", config().sessionSecret).update("upload-urls").digest();
  return crypto.createHmac("sha256", key).update(`${name}|${expires}`).digest("base64url").slice(0, 32);
}

/** `/uploads/<name>?e=<expiry>&s=<signature>`, readable without a session until the expiry. */
export function signedUploadUrl(name: string, at = Date.now()) {
  const expires = (Math.floor(at / 1000 / SIGNED_UPLOAD_STEP_S) + 2) * SIGNED_UPLOAD_STEP_S;
  return `/uploads/${name}?e=${expires}&s=${signature(name, expires)}`;
}

export type UploadAccess =
  | { ok: true; via: "signature"; expiresAt: number }
  | { ok: true; via: "session" }
  | { ok: false; reason: "no_credentials" | "bad_signature" | "expired" };

/** May this request read `name`? A signature present is judged alone (a bad one is never rescued by a cookie). */
export async function uploadAccess(request: Request, name: string, at = Date.now()): Promise<UploadAccess> {
  const params = new URL(request.url).searchParams;
  const expires = params.get("e");
  const given = params.get("s");
  if (expires !== null || given !== null) {
    const expiresAt = Number(expires);
    if (!/^\d{1,12}$/.test(expires ?? "") || !given) return { ok: false, reason: "bad_signature" };
    const wanted = Buffer.from(signature(name, expiresAt));
    const got = Buffer.from(given);
    if (got.length !== wanted.length || !crypto.timingSafeEqual(got, wanted)) return { ok: false, reason: "bad_signature" };
    if (expiresAt * 1000 <= at) return { ok: false, reason: "expired" };
    return { ok: true, via: "signature", expiresAt };
  }
  const lookup = await lookupSession(request);
  if (lookup.state === "active" && hasStudentAccount(lookup.user)) return { ok: true, via: "session" };
  if (await getOperator(request)) return { ok: true, via: "session" };
  return { ok: false, reason: "no_credentials" };
}

const SHARE_NAME = /^([A-Za-z0-9_-]{22})\.jpg$/;

/**
 * The share card's picture of a post: the thumbnail of its first image, and only while the post
 * is visible in the circle. Public, since the messenger's servers fetch it without a cookie;
 * every other image stays private.
 */
export async function shareThumbnail(name: string): Promise<{ ok: true; data: Buffer; contentType: string } | { ok: false }> {
  const key = SHARE_NAME.exec(name)?.[1];
  if (!key) return { ok: false };
  const first = await db()
    .selectFrom("uploads")
    .innerJoin("posts", "posts.id", "uploads.post_id")
    .select("uploads.key")
    .where("uploads.key", "=", key)
    .where("uploads.position", "=", 0)
    .where("posts.moderation", "=", "visible")
    .executeTakeFirst();
  if (!first) return { ok: false };
  const file = await fileStorage().get(`${key}.t.jpg`);
  return file ? { ok: true, data: file.data, contentType: file.contentType } : { ok: false };
}

/** Where a post's share card finds its picture. */
export function shareThumbUrl(key: string) {
  return `/share-card/${key}.jpg`;
}
