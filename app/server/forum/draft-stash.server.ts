import crypto from "node:crypto";
import { COMMENT_MAX_LENGTH, POST_MAX_IMAGES, POST_MAX_LENGTH } from "~/lib/forum";
import { readSessionId } from "../auth/session.server";
import { hasVisited } from "../auth/visit.server";
import { appCookie } from "../http/cookies.server";
import { db, now } from "../db/db.server";
import { consumeRateLimit } from "../rate-limits.server";
import { uploadKeyFromUrl } from "../storage/images.server";

// Nothing typed is lost. A post or a comment sent when the session has ended (replaced
// on another device, expired) is kept on the server for 30 minutes, keyed by a random id in a
// signed httpOnly cookie, and the student goes to the login page. Back on the page after the
// login, its loader takes the draft (once: the row is deleted) and renders it in the form, so it
// works without JavaScript. The row is bound to the browser (the cookie) and to the student whose
// session ended (or, when the browser had none, to the first student who takes it): another
// student logging in on the same browser never sees it. Text only: files sent with the form are
// never kept (their number is, so the page can say to choose them again); images the page had
// already uploaded are kept by their URL.
//
// The routes of these forms say `handle = { keepsDraft: true }`, so the access guard lets their
// POSTs through (and call app/server/http/draft-guard.server.ts when there is no session). Since anyone can send them, a draft is kept only for a browser that holds the
// pre-login cookie (auth/visit.server: it was shown one of our pages), within the per-network
// rate limit "draft", and while the table holds fewer than DRAFT_STASH_MAX_ROWS; expired rows go
// at every write.

export const DRAFT_STASH_MS = 30 * 60 * 1000;
/** The most rows the stash holds at once: a flood past the rate limits cannot grow it further. */
export const DRAFT_STASH_MAX_ROWS = 10_000;
const MAX_PAYLOAD_CHARS = 4096;

export type DraftKind = "post" | "comment" | "help";
export type StashedDraft = {
  content: string;
  isAnonymous: boolean;
  categoryId?: number | null;
  parentId?: number | null;
  images?: string[];
  /** Pictures chosen without JavaScript that could not be kept (files are never stored for a browser without a session). */
  droppedImages?: number;
  /**
   * Left by the student closing the form (a sheet's backdrop or ×, a page's back arrow), not by a
   * forced login: shown each time the form opens again, until it is sent or emptied.
   */
  kept?: boolean;
  /** Mutual help: the contact and the course type typed beside the note (the note is `content`). */
  contact?: string;
  courseKind?: string;
};

function draftCookie() {
  return appCookie("__draft", { maxAge: DRAFT_STASH_MS / 1000 });
}

async function stashIdOf(request: Request): Promise<string | null> {
  const value = await draftCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && /^[\w-]{43}$/.test(value) ? value : null;
}

function positiveIntOrNull(value: FormDataEntryValue | null) {
  const text = typeof value === "string" ? value : "";
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
}

/** The draft a form carried, bounded: the text cut at the form's own limit, at most 9 image URLs of ours. */
export function draftFromForm(kind: DraftKind, form: FormData): StashedDraft | null {
  const raw = form.get("content");
  const content = (typeof raw === "string" ? raw : "").slice(0, kind === "post" ? POST_MAX_LENGTH : COMMENT_MAX_LENGTH);
  const isAnonymous = form.get("isAnonymous") === "on";
  if (kind === "comment") return content.trim() ? { content, isAnonymous, parentId: positiveIntOrNull(form.get("parentId")) } : null;
  const images = form
    .getAll("images")
    .map(String)
    .filter((url) => uploadKeyFromUrl(url) !== null)
    .slice(0, POST_MAX_IMAGES);
  // Files are not stored for a browser whose session ended; the page says how many to choose again.
  const droppedImages = Math.min(
    form.getAll("files").filter((file) => typeof file !== "string" && file.size > 0).length,
    POST_MAX_IMAGES,
  );
  if (!content.trim() && images.length === 0 && droppedImages === 0) return null;
  return { content, isAnonymous, categoryId: positiveIntOrNull(form.get("categoryId")), images, ...(droppedImages > 0 ? { droppedImages } : {}) };
}

/**
 * Keeps the draft for this browser; answers the Set-Cookie header to send with the way to the
 * login page (null when there was nothing to keep). A browser keeps one draft at a time.
 */
export async function stashDraft(
  request: Request,
  kind: DraftKind,
  path: string,
  draft: StashedDraft | null,
  clientIp?: string,
  /** The signed-in student closing a sheet: the session, not the pre-login cookie, vouches for the browser. */
  signedInUserId?: number,
): Promise<string | null> {
  if (!draft) return null;
  const payload = JSON.stringify(draft);
  if (payload.length > MAX_PAYLOAD_CHARS) return null;
  if (signedInUserId === undefined && !(await hasVisited(request.headers.get("Cookie")))) return null;
  const database = db();
  const at = now();
  await database.deleteFrom("draft_stash").where("expires_at", "<=", at).execute();
  if (!(await consumeRateLimit("draft", { userId: signedInUserId, ip: clientIp ?? "unknown" })).ok) return null;
  const { rows } = await database.selectFrom("draft_stash").select((eb) => eb.fn.countAll<number>().as("rows")).executeTakeFirstOrThrow();
  if (Number(rows) >= DRAFT_STASH_MAX_ROWS) return null;
  const previous = await stashIdOf(request);
  if (previous) await database.deleteFrom("draft_stash").where("id", "=", previous).execute();
  // The student whose session this browser had (ended or not): only they get the draft back.
  const sessionId = await readSessionId(request);
  const session = sessionId ? await database.selectFrom("sessions").select("user_id").where("id", "=", sessionId).executeTakeFirst() : undefined;
  const id = crypto.randomBytes(32).toString("base64url");
  await database
    .insertInto("draft_stash")
    .values({
      id,
      user_id: session?.user_id ?? null,
      kind,
      path,
      payload,
      created_at: at,
      expires_at: new Date(Date.now() + DRAFT_STASH_MS).toISOString(),
    })
    .execute();
  return draftCookie().serialize(id);
}

/**
 * The draft this browser left on this page, for this student, taken once (the row is deleted).
 * Null when there is none, it expired, or it belongs to another student (then it stays theirs).
 */
export async function takeDraft(
  request: Request,
  userId: number,
  kind: DraftKind,
  path: string,
  /** Whether the draft belongs to this form (a reply to the same comment); otherwise it stays. */
  matches: (draft: StashedDraft) => boolean = () => true,
): Promise<StashedDraft | null> {
  const id = await stashIdOf(request);
  if (!id) return null;
  const database = db();
  const row = await database
    .selectFrom("draft_stash")
    .select(["user_id", "kind", "path", "payload", "expires_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || row.kind !== kind || row.path !== path) return null;
  if (row.expires_at <= now()) {
    await database.deleteFrom("draft_stash").where("id", "=", id).execute();
    return null;
  }
  if (row.user_id !== null && row.user_id !== userId) return null;
  let draft: StashedDraft;
  try {
    draft = JSON.parse(row.payload) as StashedDraft;
  } catch {
    return null;
  }
  if (!matches(draft)) return null;
  // A draft the student closed stays until it is sent (a Back without JavaScript must not lose it).
  if (draft.kept) return draft;
  const taken = await database.deleteFrom("draft_stash").where("id", "=", id).executeTakeFirst();
  if (Number(taken.numDeletedRows) === 0) return null; // another request took it first
  return draft;
}

/**
 * A form closed with text in it (a sheet's backdrop or ×, Back): kept for this browser and student
 * like a forced login's draft, until it is sent; nothing typed drops what was kept. Answers the
 * Set-Cookie header to send (null when nothing is kept).
 */
export async function keepClosedDraft(
  request: Request,
  student: { userId: number; clientIp?: string },
  kind: DraftKind,
  path: string,
  draft: StashedDraft | null,
): Promise<string | null> {
  if (!draft) {
    await dropDraft(request, kind);
    return null;
  }
  return stashDraft(request, kind, path, { ...draft, kept: true }, student.clientIp, student.userId);
}

/** A published post or comment: whatever this browser still kept of that kind is done with. */
export async function dropDraft(request: Request, kind: DraftKind) {
  const id = await stashIdOf(request);
  if (id) await db().deleteFrom("draft_stash").where("id", "=", id).where("kind", "=", kind).execute();
}
