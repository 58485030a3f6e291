import * as z from "zod";
import { COMMENT_MAX_LENGTH, POST_MAX_IMAGES, POST_MAX_LENGTH, REPORT_REASONS } from "../forum";
import * as msg from "../messages";

const p = msg.publish;
const d = msg.postSheets;
const id = z.number().int().positive().max(2_147_483_647);
// The URL of an image this server answered (checked against the uploads table on publish).
const imageUrl = z.string().regex(/^\/uploads\/[A-Za-z0-9_-]{22}\.jpg$/, p.imageNotYours);

export const PublishPostSchema = z.object({
  content: z
    .string({ error: p.contentRequired })
    .trim()
    .min(1, p.contentRequired)
    .max(POST_MAX_LENGTH, p.contentTooLong),
  categoryId: z.number({ error: p.categoryRequired }).pipe(id),
  isAnonymous: z.boolean().default(false),
  images: z.array(imageUrl).max(POST_MAX_IMAGES, p.tooManyImages).default([]),
  visibility: z.literal("public").default("public"),
});

export type PublishPost = z.infer<typeof PublishPostSchema>;
export type PublishPostFields = z.input<typeof PublishPostSchema>;

const commentContent = z
  .string({ error: d.commentRequired })
  .trim()
  .min(1, d.commentRequired)
  .max(COMMENT_MAX_LENGTH, d.commentTooLong);

const reportReason = z.enum(REPORT_REASONS.map((reason) => reason.value) as [string, ...string[]], { error: d.reportReasonRequired });

/** The forms of /post/:id itself (the likes, 收藏 and 标记完成), told apart by intent. */
export const PostPageActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("like") }),
  z.object({ intent: z.literal("commentLike"), commentId: id }),
  z.object({ intent: z.literal("complete") }),
  z.object({ intent: z.literal("favourite") }),
]);

/** /post/:id/comment: a comment, or a reply to one (parentId). */
export const CommentSchema = z.object({
  intent: z.literal("comment"),
  content: commentContent,
  parentId: id.optional(),
  isAnonymous: z.boolean().default(false),
});

/** /post/:id/report: the post, or one of its comments (commentId), with a reason. */
export const ReportSchema = z.object({ intent: z.literal("report"), commentId: id.optional(), reason: reportReason });

/** /post/:id/delete: the author deletes the post or one of their comments. */
export const DeleteSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("deletePost") }),
  z.object({ intent: z.literal("deleteComment"), commentId: id }),
]);

export const MyPostsActionSchema = z.object({ intent: z.literal("delete"), postId: id });

export const ModerationActionSchema = z.object({
  intent: z.enum(["hide", "restore", "delete", "ban", "unban"]),
  target: z.enum(["post", "comment", "user"]),
  id,
});

export type ModerationAction = z.infer<typeof ModerationActionSchema>;
