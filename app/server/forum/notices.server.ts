// The circle tells people what happened to what they wrote, through notify (server/notify):
// a comment on your post, a reply to your comment, an @mention of you in a comment, and the likes
// of your posts and comments (gathered into one item a day by notify). The name shown is the one
// the post shows (the anonymous label for an anonymous comment). A notice never fails the comment
// or the like it reports: a failure is logged.
import * as msg from "~/lib/messages";
import { log } from "../log.server";
import { db } from "../db/db.server";
import { notify, type CircleEventData } from "../notify/notify.server";
import { publicName } from "./posts.server";

/** At most this many people are told of @mentions in one comment. */
export const MENTIONS_TOLD = 5;
/** The people of a thread an @mention can name: the post's author and its first commenters. */
const PARTICIPANTS_READ = 500;

const MENTION = /@([^\s@，。,.!！?？:：;；]{1,24})/gu;

/** The names a comment @mentions, in order, each once. */
export function mentionedNames(content: string): string[] {
  return [...new Set([...content.matchAll(MENTION)].map((match) => match[1]!))].slice(0, MENTIONS_TOLD);
}

type Actor = { id: number; nickname: string | null; wechat_nickname: string | null };

async function safely(what: string, run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    log("error", "circle-notice-failed", { what, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * A new comment: its post's author (a top-level comment) or the comment's author (a reply) is
 * told, and so is each person it @mentions among those who wrote in this post under their name.
 * Nobody is told twice of one comment, nor of their own.
 */
export async function noticeComment(input: {
  postId: number;
  commentId: number;
  parentId: number | null;
  rootId: number | null;
  threadFrom?: number | null;
  actor: Actor;
  isAnonymous: boolean;
  content: string;
}) {
  await safely("comment", async () => {
    const post = await db().selectFrom("posts").select(["user_id", "is_anonymous"]).where("id", "=", input.postId).executeTakeFirst();
    if (!post) return;
    const data: CircleEventData = {
      postId: input.postId,
      commentId: input.commentId,
      threadId: input.rootId,
      threadFrom: input.threadFrom ?? null,
      actorUserId: input.actor.id,
      actorName: input.isAnonymous ? msg.forumData.anonymousName : publicName(input.actor),
      excerpt: input.content,
    };
    // Who got an item of this comment (one who switched replies off may still be @mentioned).
    const told = new Set<number>([input.actor.id]);
    const tell = async (kind: "post_reply" | "comment_reply" | "comment_mention", recipientUserId: number) => {
      if (told.has(recipientUserId)) return;
      if ((await notify({ kind, recipientUserId, data })).inboxItemId !== null) told.add(recipientUserId);
    };
    if (input.parentId) {
      const parent = await db().selectFrom("comments").select("user_id").where("id", "=", input.parentId).executeTakeFirst();
      if (parent) await tell("comment_reply", parent.user_id);
    } else {
      await tell("post_reply", post.user_id);
    }

    const names = mentionedNames(input.content);
    if (names.length === 0) return;
    // Only people who wrote here under their name can be named: an anonymous author stays unknown.
    const participants = await db()
      .selectFrom("comments")
      .innerJoin("users", "users.id", "comments.user_id")
      .select(["users.id", "users.nickname", "users.wechat_nickname"])
      .where("comments.post_id", "=", input.postId)
      .where("comments.is_anonymous", "=", 0)
      .orderBy("comments.id")
      .limit(PARTICIPANTS_READ)
      .execute();
    if (!post.is_anonymous) {
      const author = await db().selectFrom("users").select(["id", "nickname", "wechat_nickname"]).where("id", "=", post.user_id).executeTakeFirst();
      if (author) participants.unshift(author);
    }
    for (const name of names) {
      const named = participants.find((person) => publicName(person) === name);
      if (named) await tell("comment_mention", named.id);
    }
  });
}

/** A like given (not taken back): the author of the post or comment is told, in the day's item. */
export async function noticeLike(input: { postId: number; commentId?: number; actor: Actor }) {
  await safely("like", async () => {
    const liked = input.commentId
      ? await db().selectFrom("comments").select(["user_id", "content", "root_id"]).where("id", "=", input.commentId).executeTakeFirst()
      : await db().selectFrom("posts").select(["user_id", "content"]).where("id", "=", input.postId).executeTakeFirst();
    if (!liked) return;
    await notify({
      kind: input.commentId ? "comment_liked" : "post_liked",
      recipientUserId: liked.user_id,
      data: {
        postId: input.postId,
        commentId: input.commentId,
        threadId: "root_id" in liked ? (liked.root_id as number | null) : null,
        actorUserId: input.actor.id,
        // Likes are never anonymous: the name the circle shows.
        actorName: publicName(input.actor),
        excerpt: liked.content,
      },
    });
  });
}
