// The circle's rules and limits (docs/product-rules.md, "Limits"), safe in the browser: no dependencies.

export const POST_MAX_LENGTH = 500;
export const POST_MAX_IMAGES = 9;
export const CARD_IMAGES = 3;
export const PAGE_SIZE = 10;
/** At most this many cards when the list is rendered again as far as it was loaded (?until=). */
export const RESTORED_POSTS_MAX = PAGE_SIZE * 10;
export const COMMENT_MAX_LENGTH = 500;
export const UPLOAD_TIMEOUT_MS = 30_000;
export const UPLOAD_GAP_MS = 200;
/** An uploaded file's size cap before re-encoding. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** Re-encoded images: longest side; card thumbnails: longest side. */
export const IMAGE_MAX_SIDE = 1600;
export const THUMB_MAX_SIDE = 480;
/** Reports that hide a post or comment until an operator reviews it (the default; config can change it). */
export const DEFAULT_REPORT_THRESHOLD = 3;
/** The one visibility a post has for now. */
export const POST_VISIBILITY = "public";
/** The category of mutual sign-in help posts. */
export const MUTUAL_HELP_CATEGORY_ID = 3;
/** Local storage key of the publish page's draft. */
export const DRAFT_STORAGE_KEY = "campus.postDraft";
/** The browser's copy of a comment sheet's unsent text, one per sheet (post and reply target). */
export function commentDraftKey(postId: string | number, replyTo: number | null) {
  return `campus.commentDraft:${postId}:${replyTo ?? 0}`;
}
/** Only the @mention a reply starts with: nothing typed yet. */
export const ONLY_MENTION = /^\s*@\S+\s*$/u;

export { postStatusLabel, type PostStatus } from "./post-status";

export const REPORT_REASONS = [
  { value: "spam", label: "垃圾广告" },
  { value: "offensive", label: "辱骂攻击或不良内容" },
  { value: "off_topic", label: "与圈子无关" },
  { value: "other", label: "其他" },
] as const;

export type ReportReasonValue = (typeof REPORT_REASONS)[number]["value"];

export function reportReasonLabel(reason: string) {
  return REPORT_REASONS.find((entry) => entry.value === reason)?.label ?? reason;
}

/** Image types the upload accepts (checked again on the server by the file's first bytes). */
export const IMAGE_ACCEPT = "image/jpeg,image/png,image/gif,image/webp";

export function isImageType(type: string) {
  return type.startsWith("image/");
}

/** What the post page's forms answer a JavaScript request (the product rules' call shapes). */
export type ForumAnswer = {
  success: boolean;
  intent?: string;
  message?: string;
  /** conform's SubmissionResult of a refused form. */
  result?: { status?: "success" | "error"; initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> | null };
  action?: "liked" | "unliked";
  is_liked?: boolean;
  like_count?: number;
  id?: number;
  comment_count?: number;
  /** A new reply's thread (its top-level comment), so the page can show it there. */
  thread?: number | null;
};
