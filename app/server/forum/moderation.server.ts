import type { ModerationAction } from "~/lib/schemas/forum";
import { db, now, type Executor } from "../db/db.server";
import type { ModerationState, ReportReason } from "../db/schema";
import { thumbUrl } from "../storage/images.server";
import { deletePost, ForumError, recountPost, removeComment } from "./posts.server";
import { recordAudit, type AuditActor } from "../admin/audit.server";

// Operators' view of the circle: reported and hidden posts and comments with their real author
// (operators may see who wrote an anonymous one), and the actions hide, restore, delete, ban.

export type RealAuthor = {
  userId: number;
  nickname: string | null;
  wechatNickname: string | null;
  realName: string | null;
  studentId: string | null;
  banned: boolean;
};

export type ModerationItem = {
  target: "post" | "comment";
  id: number;
  postId: number;
  content: string;
  title: string | null;
  images: string[];
  anonymous: boolean;
  moderation: ModerationState;
  createdAt: string;
  author: RealAuthor;
  openReports: number;
  reasons: Partial<Record<ReportReason, number>>;
  lastReportAt: string | null;
};

/** Every post and comment with open reports or hidden by moderation, most recently reported first. */
export async function moderationQueue(): Promise<ModerationItem[]> {
  const reports = await db()
    .selectFrom("reports")
    .select(["target_type", "target_id", "reason", (eb) => eb.fn.countAll<number | string>().as("n"), (eb) => eb.fn.max("created_at").as("last")])
    .where("resolved_at", "is", null)
    .groupBy(["target_type", "target_id", "reason"])
    .execute();
  const openByTarget = new Map<string, { count: number; reasons: Partial<Record<ReportReason, number>>; last: string }>();
  for (const row of reports) {
    const key = `${row.target_type}:${row.target_id}`;
    const entry = openByTarget.get(key) ?? { count: 0, reasons: {}, last: "" };
    entry.count += Number(row.n);
    entry.reasons[row.reason] = Number(row.n);
    if (String(row.last) > entry.last) entry.last = String(row.last);
    openByTarget.set(key, entry);
  }
  const reportedPosts = [...openByTarget.keys()].filter((key) => key.startsWith("post:")).map((key) => Number(key.slice(5)));
  const reportedComments = [...openByTarget.keys()].filter((key) => key.startsWith("comment:")).map((key) => Number(key.slice(8)));

  const posts = await queueQuery("posts", reportedPosts).select("posts.title").execute();
  const comments = await queueQuery("comments", reportedComments).select("comments.post_id").execute();
  const postIds = posts.map((post) => post.id);
  const images =
    postIds.length === 0
      ? []
      : await db().selectFrom("uploads").select(["post_id", "key"]).where("post_id", "in", postIds).orderBy("post_id").orderBy("position").execute();

  const item = (
    target: "post" | "comment",
    row: (typeof posts)[number] | (typeof comments)[number],
    own: Pick<ModerationItem, "postId" | "title" | "images">,
  ): ModerationItem => {
    const open = openByTarget.get(`${target}:${row.id}`);
    return {
      target,
      id: row.id,
      ...own,
      content: row.content,
      anonymous: row.is_anonymous === 1,
      moderation: row.moderation,
      createdAt: row.created_at,
      author: {
        userId: row.author_id,
        nickname: row.nickname,
        wechatNickname: row.wechat_nickname,
        realName: row.real_name,
        studentId: row.student_id,
        banned: row.banned !== null,
      },
      openReports: open?.count ?? 0,
      reasons: open?.reasons ?? {},
      lastReportAt: open?.last ?? null,
    };
  };
  const items = [
    ...posts.map((row) =>
      item("post", row, { postId: row.id, title: row.title, images: images.filter((image) => image.post_id === row.id).map((image) => thumbUrl(image.key)) }),
    ),
    ...comments.map((row) => item("comment", row, { postId: row.post_id, title: null, images: [] })),
  ];
  return items.sort((a, b) => (b.lastReportAt ?? b.createdAt).localeCompare(a.lastReportAt ?? a.createdAt));
}

/** The posts or comments an operator must see (not visible, or reported), with their real author. */
function queueQuery(table: "posts" | "comments", reported: number[]) {
  return db()
    .selectFrom(table)
    .innerJoin("users", "users.id", `${table}.user_id`)
    .leftJoin("forum_bans", "forum_bans.user_id", `${table}.user_id`)
    .select([
      `${table}.id as id`,
      `${table}.content as content`,
      `${table}.is_anonymous as is_anonymous`,
      `${table}.moderation as moderation`,
      `${table}.created_at as created_at`,
      ...["users.id as author_id", "users.nickname", "users.wechat_nickname", "users.real_name", "users.student_id", "forum_bans.user_id as banned"] as const,
    ])
    .where((eb) => {
      const conditions = [eb(`${table}.moderation`, "!=", "visible")];
      if (reported.length > 0) conditions.push(eb(`${table}.id`, "in", reported));
      return eb.or(conditions);
    });
}

async function resolveReports(executor: Executor, target: "post" | "comment", id: number) {
  await executor
    .updateTable("reports")
    .set({ resolved_at: now() })
    .where("target_type", "=", target)
    .where("target_id", "=", id)
    .where("resolved_at", "is", null)
    .execute();
}

/** Carries out an operator's decision. Hide and restore also close the target's open reports. */
/**
 * One operator's moderation action, audited like order actions (decision 033): the audit row is
 * written in the change's transaction, or right after deletePost's own.
 */
export async function moderate(action: ModerationAction, operator: AuditActor & { id: number }) {
  const { intent, target, id } = action;
  const audit = (executor: Executor, detail: string) => recordAudit(executor, operator, { action: `moderation_${intent}`, detail });
  if (target === "user") {
    if (intent !== "ban" && intent !== "unban") throw new ForumError("not_found");
    await db()
      .transaction()
      .execute(async (trx) => {
        if (intent === "ban") {
          await trx
            .insertInto("forum_bans")
            .values({ user_id: id, operator_id: operator.id, reason: null, created_at: now() })
            .onConflict((oc) => oc.column("user_id").doNothing())
            .execute();
        } else {
          await trx.deleteFrom("forum_bans").where("user_id", "=", id).execute();
        }
        await audit(trx, `user #${id}`);
      });
    return;
  }
  if (intent === "ban" || intent === "unban") throw new ForumError("not_found");
  if (target === "post") {
    if (intent === "delete") {
      if (!(await deletePost(id, { operator: true }))) throw new ForumError("not_found");
      await audit(db(), `post #${id}`);
      return;
    }
    await db()
      .transaction()
      .execute(async (trx) => {
        const updated = await trx
          .updateTable("posts")
          .set({ moderation: intent === "hide" ? "hidden" : "visible", reviewed_at: now() })
          .where("id", "=", id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new ForumError("not_found");
        await resolveReports(trx, "post", id);
        await audit(trx, `post #${id}`);
      });
    return;
  }
  await db()
    .transaction()
    .execute(async (trx) => {
      const comment = await trx.selectFrom("comments").select(["id", "post_id"]).where("id", "=", id).executeTakeFirst();
      if (!comment) throw new ForumError("not_found");
      await audit(trx, `comment #${comment.id} (post #${comment.post_id})`);
      if (intent === "delete") {
        await removeComment(trx, comment.post_id, comment.id);
        return;
      }
      await trx
        .updateTable("comments")
        .set({ moderation: intent === "hide" ? "hidden" : "visible", reviewed_at: now() })
        .where("id", "=", id)
        .execute();
      await resolveReports(trx, "comment", id);
      await recountPost(trx, comment.post_id);
    });
}

/** For tests and the admin page: is this post's row still there, and in which state. */
export async function moderationState(target: "post" | "comment", id: number) {
  const table = target === "post" ? "posts" : "comments";
  const row = await db().selectFrom(table).select("moderation").where("id", "=", id).executeTakeFirst();
  return row?.moderation ?? null;
}
