import { DEFAULT_FORUM_CATEGORIES } from "~/lib/catalog";
import { COMMENT_PAGE_SIZE, groupThreads, REPLY_PAGE_SIZE, REPLY_PREVIEW, type Thread } from "~/lib/comment-tree";
import { CARD_IMAGES, PAGE_SIZE, RESTORED_POSTS_MAX } from "~/lib/forum";
import { hotTerm, logAddExp, logSubExp, hotScore, type HotEvent } from "~/lib/hot";
import { realNickname } from "~/lib/nickname";
import { pickPseudonymIndex, pseudonymName } from "~/lib/pseudonyms";
import { fillTemplate } from "~/lib/template";
import { randomInt } from "node:crypto";
import { forumData } from "~/lib/messages/forumData";
import { cardTime, commentTime } from "~/lib/relative-time";
import { shanghaiToday } from "~/lib/time";
import { config } from "../config.server";
import { db, dialect, now, type Executor, type Trx } from "../db/db.server";
import { log } from "../log.server";
import { compiledOnce } from "../db/compiled.server";
import type { ModerationState, PostStatus, ReportReason } from "../db/schema";
import { imageUrl, removeImageFiles, thumbUrl, uploadKeyFromUrl } from "../storage/images.server";

// The circle's data: posts, images, comments, likes, views and reports. Everything that leaves
// this module for a page goes through toAuthor(), which drops the author's identity from
// anonymous posts and comments: the loader data never carries it (docs/architecture.md "Anonymous authors").


/**
 * Why the forum refused a step: the author is banned, the post (`post_not_found`) or the comment
 * or target (`not_found`) is not there for this user, one's own content (`forbidden`: no report
 * of it), an image that is not the author's upload. The routes map each to a status and message.
 */
export type ForumRefusal = "banned" | "post_not_found" | "not_found" | "forbidden" | "invalid_image";

export class ForumError extends Error {
  constructor(readonly code: ForumRefusal) {
    super(code);
  }
}

export type Author = {
  anonymous: boolean;
  /** The public name: the user's nickname, the messenger nickname, or a neutral default. Never the real name. */
  name: string;
  avatar: string | null;
  /** The viewer wrote it (lets the page offer delete, and mark "me" on anonymous content). */
  isMine: boolean;
};

export type PostImage = { url: string; thumbUrl: string; width: number; height: number };

export type PostView = {
  id: number;
  categoryId: number;
  categoryName: string;
  title: string | null;
  status: PostStatus | null;
  content: string;
  images: PostImage[];
  imageCount: number;
  author: Author;
  createdAt: string;
  /** createdAt as the card and the post header show it (relative, docs/product-rules.md "Limits"), so the page ships no clock code. */
  time: string;
  viewCount: number;
  commentCount: number;
  likeCount: number;
  isLiked: boolean;
  /** Only for the viewer's own posts (so they see "under review"); null for everyone else's. */
  moderation: ModerationState | null;
};

export type CommentView = {
  id: number;
  parentId: number | null;
  /** The top-level comment whose thread holds this reply; null for a top-level comment. */
  rootId: number | null;
  content: string;
  author: Author & { isPostAuthor: boolean };
  /** Whom a reply to a reply answers (the @mention's public name); null otherwise. */
  replyTo: string | null;
  createdAt: string;
  /** createdAt as the comment shows it (relative, docs/product-rules.md "Limits"). */
  time: string;
  likeCount: number;
  isLiked: boolean;
  /** The viewer's own comment that moderation hid (others never receive it). */
  underReview: boolean;
};

type IdentityColumns = {
  user_id: number;
  is_anonymous: number;
  /** The name the author drew in this thread when anonymous (thread_pseudonyms); null before one was drawn. */
  pseudonym: number | null;
  nickname: string | null;
  wechat_nickname: string | null;
  avatar_url: string | null;
  wechat_avatar: string | null;
};

/** The name the circle shows for a person: never their real name or student id. */
export function publicName(user: { nickname: string | null; wechat_nickname: string | null }) {
  // The messenger's placeholder (微信用户) is never anyone's name.
  return user.nickname?.trim() || realNickname(user.wechat_nickname) || forumData.defaultAuthorName;
}

/**
 * A person may write once they have a nickname of their own (chosen, or the messenger's when it
 * was a usable name): the messenger's name alone, a placeholder or a made-up one never counts.
 */
export function hasPublicName(user: { nickname: string | null }) {
  return Boolean(user.nickname?.trim());
}

/** An anonymous participant's name in a thread (匿名·青柠), or the plain anonymous name when none was drawn. */
export function anonymousName(pseudonym: number | null | undefined) {
  if (pseudonym === null || pseudonym === undefined) return forumData.anonymousName;
  return pseudonymName(pseudonym, forumData.pseudonyms, (name) => fillTemplate(forumData.pseudonymTemplate, { name }));
}

export function toAuthor(row: IdentityColumns, viewerId: number): Author {
  const isMine = row.user_id === viewerId;
  if (row.is_anonymous) return { anonymous: true, name: anonymousName(row.pseudonym), avatar: null, isMine };
  return { anonymous: false, name: publicName(row), avatar: row.avatar_url || row.wechat_avatar || null, isMine };
}

function isPostgres() {
  return dialect() === "postgres";
}

const CATEGORY_NAMES = new Map<number, string>(DEFAULT_FORUM_CATEGORIES.map((category) => [category.id, category.name]));

function postQuery(executor: Executor = db()) {
  return executor
    .selectFrom("posts")
    .innerJoin("users", "users.id", "posts.user_id")
    .leftJoin("forum_categories", "forum_categories.id", "posts.category_id")
    .leftJoin("thread_pseudonyms as pseudo", (join) => join.onRef("pseudo.post_id", "=", "posts.id").onRef("pseudo.user_id", "=", "posts.user_id"))
    .select([
      "pseudo.name_index as pseudonym",
      "posts.id",
      "posts.user_id",
      "posts.category_id",
      "forum_categories.name as category_name",
      "posts.title",
      "posts.status",
      "posts.content",
      "posts.is_anonymous",
      "posts.view_count",
      "posts.comment_count",
      "posts.like_count",
      "posts.moderation",
      "posts.created_at",
      "users.nickname",
      "users.wechat_nickname",
      "users.avatar_url",
      "users.wechat_avatar",
    ]);
}

type PostRow = Awaited<ReturnType<ReturnType<typeof postQuery>["executeTakeFirstOrThrow"]>>;

// The list queries are exported as builders (the loader executes them; the query-plan test,
// app/server/db/query-plans.db.test.ts, compiles the same builders and checks their plans).

/** The images of a page of posts, in order (uploads_post_idx). */
export function postImagesQuery(postIds: number[]) {
  return db().selectFrom("uploads").select(["post_id", "key", "width", "height"]).where("post_id", "in", postIds).orderBy("post_id").orderBy("position");
}

/** Which of these posts the viewer liked (the post_likes primary key). */
export function likedPostsQuery(viewerId: number, postIds: number[]) {
  return db().selectFrom("post_likes").select("post_id").where("user_id", "=", viewerId).where("post_id", "in", postIds);
}

type ListOptions = { before?: number | null; limit: number };

/** The circle's feed: visible posts (of a category), newest first, after the cursor (posts_list_idx, posts_category_idx). */
export function feedQuery(options: ListOptions & { categoryId?: number | null }) {
  let query = postQuery().where("posts.moderation", "=", "visible");
  if (options.categoryId) query = query.where("posts.category_id", "=", options.categoryId);
  if (options.before) query = query.where("posts.id", "<", options.before);
  return query.orderBy("posts.id", "desc").limit(options.limit);
}

/** The 热门 cursor: the last card's score and id (the list is ordered by both). */
export type HotCursor = { score: number; id: number };

/** 热门: visible posts (of a category) by their stored heat, after the cursor (posts_hot_idx, posts_category_hot_idx). */
export function hotFeedQuery(options: { categoryId?: number | null; after?: HotCursor | null; limit: number }) {
  let query = postQuery().select("posts.hot_score").where("posts.moderation", "=", "visible");
  if (options.categoryId) query = query.where("posts.category_id", "=", options.categoryId);
  const after = options.after;
  if (after) query = query.where((eb) => eb(eb.refTuple("posts.hot_score", "posts.id"), "<", eb.tuple(after.score, after.id)));
  return query.orderBy("posts.hot_score", "desc").orderBy("posts.id", "desc").limit(options.limit);
}

/** One user's posts, newest first (posts_user_idx). */
export function myPostsQuery(options: ListOptions & { userId: number }) {
  let query = postQuery().where("posts.user_id", "=", options.userId);
  if (options.before) query = query.where("posts.id", "<", options.before);
  return query.orderBy("posts.id", "desc").limit(options.limit);
}

// Every circle page runs these three: compiled once per shape (db/compiled.server.ts).
const feed = compiledOnce(feedQuery);
const postImages = compiledOnce(postImagesQuery);
const likedPosts = compiledOnce(likedPostsQuery);

async function toViews(rows: PostRow[], viewerId: number, imagesPerPost: number): Promise<PostView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [images, likes] = await Promise.all([postImages.execute(ids), likedPosts.execute(viewerId, ids)]);
  const imagesByPost = new Map<number, PostImage[]>();
  for (const image of images) {
    const list = imagesByPost.get(image.post_id!) ?? [];
    list.push({ url: imageUrl(image.key), thumbUrl: thumbUrl(image.key), width: image.width, height: image.height });
    imagesByPost.set(image.post_id!, list);
  }
  const liked = new Set(likes.map((like) => like.post_id));
  const current = new Date();
  return rows.map((row) => {
    const all = imagesByPost.get(row.id) ?? [];
    return {
      id: row.id,
      categoryId: row.category_id,
      categoryName: row.category_name ?? CATEGORY_NAMES.get(row.category_id) ?? "",
      title: row.title,
      status: row.status,
      content: row.content,
      images: all.slice(0, imagesPerPost),
      imageCount: all.length,
      author: toAuthor(row, viewerId),
      createdAt: row.created_at,
      time: cardTime(row.created_at, current),
      viewCount: row.view_count,
      commentCount: row.comment_count,
      likeCount: row.like_count,
      isLiked: liked.has(row.id),
      moderation: row.user_id === viewerId ? row.moderation : null,
    };
  });
}

export type PostPage = { posts: PostView[]; nextCursor: number | null };

/**
 * The circle's list: visible posts, newest first, PAGE_SIZE at a time. `before` is the cursor
 * (the last id of the previous page), so a post published meanwhile never repeats a card.
 */
export async function listPosts(options: {
  viewerId: number;
  categoryId?: number | null;
  before?: number | null;
  /** The last card shown so far (the list loaded as far as it, at most RESTORED_POSTS_MAX cards). */
  until?: number | null;
  limit?: number;
}): Promise<PostPage> {
  const until = options.until ?? null;
  let limit = options.limit ?? PAGE_SIZE;
  const rows = await feed.execute({ categoryId: options.categoryId, before: options.before, limit: (until ? RESTORED_POSTS_MAX : limit) + 1 });
  // Rows are newest first, so the cards down to `until` are a prefix; never less than a page.
  if (until) limit = Math.max(limit, Math.min(RESTORED_POSTS_MAX, rows.filter((row) => row.id >= until).length));
  const page = rows.slice(0, limit);
  return {
    posts: await toViews(page, options.viewerId, CARD_IMAGES),
    nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}

export type HotPage = { posts: PostView[]; nextCursor: HotCursor | null };

/** The circle's 热门 list, PAGE_SIZE at a time. */
export async function listHotPosts(options: { viewerId: number; categoryId?: number | null; after?: HotCursor | null; limit?: number }): Promise<HotPage> {
  const limit = options.limit ?? PAGE_SIZE;
  const rows = await hotFeedQuery({ categoryId: options.categoryId, after: options.after, limit: limit + 1 }).execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    posts: await toViews(page, options.viewerId, CARD_IMAGES),
    nextCursor: rows.length > limit && last ? { score: Number(last.hot_score), id: last.id } : null,
  };
}

/** The user's own posts (anonymous and hidden ones included), newest first. */
export async function listMyPosts(options: { userId: number; before?: number | null; limit?: number }): Promise<PostPage> {
  const limit = options.limit ?? PAGE_SIZE;
  const rows = await myPostsQuery({ userId: options.userId, before: options.before, limit: limit + 1 }).execute();
  const page = rows.slice(0, limit);
  return {
    posts: await toViews(page, options.userId, CARD_IMAGES),
    nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}

// ---------------------------------------------------------------------------------------------
// 收藏: a person keeps posts; the backpack lists them, newest first.

/** The favourites cursor: when the last one of the page was kept, and its post. */
export type FavouriteCursor = { at: string; postId: number };

/** One person's favourites, newest first, after the cursor (post_favourites_list_idx); posts moderation hides from them drop out. */
export function favouritesQuery(options: { userId: number; after?: FavouriteCursor | null; limit: number }) {
  let query = postQuery()
    .innerJoin("post_favourites as fav", "fav.post_id", "posts.id")
    .select("fav.created_at as favourited_at")
    .where("fav.user_id", "=", options.userId)
    .where((eb) => eb.or([eb("posts.moderation", "=", "visible"), eb("posts.user_id", "=", options.userId)]));
  const after = options.after;
  if (after) query = query.where((eb) => eb(eb.refTuple("fav.created_at", "fav.post_id"), "<", eb.tuple(after.at, after.postId)));
  return query.orderBy("fav.created_at", "desc").orderBy("fav.post_id", "desc").limit(options.limit);
}

export type FavouritePage = { posts: PostView[]; nextCursor: FavouriteCursor | null };

export async function listFavourites(options: { userId: number; after?: FavouriteCursor | null; limit?: number }): Promise<FavouritePage> {
  const limit = options.limit ?? PAGE_SIZE;
  const rows = await favouritesQuery({ userId: options.userId, after: options.after, limit: limit + 1 }).execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    posts: await toViews(page, options.userId, CARD_IMAGES),
    nextCursor: rows.length > limit && last ? { at: last.favourited_at, postId: last.id } : null,
  };
}

const favourite = compiledOnce((postId: number, userId: number) =>
  db().selectFrom("post_favourites").select("post_id").where("user_id", "=", userId).where("post_id", "=", postId),
);

export async function isFavourite(postId: number, userId: number) {
  return Boolean(await favourite.executeTakeFirst(postId, userId));
}

/** Keeps the post, or lets it go when it was kept. Only a post the person may see. */
export async function toggleFavourite(postId: number, userId: number): Promise<{ favourited: boolean }> {
  return db()
    .transaction()
    .execute(async (trx) => {
      await lockVisiblePost(trx, postId, userId);
      const removed = await trx.deleteFrom("post_favourites").where("user_id", "=", userId).where("post_id", "=", postId).executeTakeFirst();
      if (Number(removed.numDeletedRows) > 0) return { favourited: false };
      await trx
        .insertInto("post_favourites")
        .values({ user_id: userId, post_id: postId, created_at: now() })
        .onConflict((oc) => oc.columns(["user_id", "post_id"]).doNothing())
        .execute();
      return { favourited: true };
    });
}

/** One post for its detail page; null when it does not exist or moderation hides it from this viewer. */
export async function getPost(postId: number, viewerId: number): Promise<PostView | null> {
  return (await getPostWithAuthor(postId, viewerId))?.post ?? null;
}

// The post page's own queries: compiled once (db/compiled.server.ts).
const onePost = compiledOnce((postId: number) => postQuery().where("posts.id", "=", postId));
const viewed = compiledOnce((postId: number, userId: number, day: string) =>
  db().selectFrom("post_views").select("post_id").where("post_id", "=", postId).where("user_id", "=", userId).where("day", "=", day),
);

/** getPost, with the author's id and anonymity for listComments (server-side only: never sent to the page). */
export async function getPostWithAuthor(postId: number, viewerId: number) {
  const row = await onePost.executeTakeFirst(postId);
  if (!row || (row.moderation !== "visible" && row.user_id !== viewerId)) return null;
  const [view] = await toViews([row], viewerId, Number.MAX_SAFE_INTEGER);
  return { post: view!, author: { user_id: row.user_id, is_anonymous: row.is_anonymous } };
}

/** Counts a view once per user per Shanghai day. */
export async function recordView(postId: number, userId: number, at = new Date()) {
  const day = shanghaiToday(at);
  // Opening the same post again the same day (the common case) is only a read: no write
  // transaction, no lock on the post's row.
  const seen = await viewed.executeTakeFirst(postId, userId, day);
  if (seen) return false;
  return db()
    .transaction()
    .execute(async (trx) => {
      const inserted = await trx
        .insertInto("post_views")
        .values({ post_id: postId, user_id: userId, day })
        .onConflict((oc) => oc.columns(["post_id", "user_id", "day"]).doNothing())
        .returning("post_id")
        .executeTakeFirst();
      if (!inserted) return false;
      await trx
        .updateTable("posts")
        .set((eb) => ({ view_count: eb("view_count", "+", 1) }))
        .where("id", "=", postId)
        .execute();
      return true;
    });
}

export async function isBanned(userId: number, executor: Executor = db()) {
  const ban = await executor.selectFrom("forum_bans").select("user_id").where("user_id", "=", userId).executeTakeFirst();
  return Boolean(ban);
}

// ---------------------------------------------------------------------------------------------
// Writing. Every change of likes or comments runs in one transaction that first locks the post
// (or comment) row, then changes the rows, then recounts from the rows: concurrent requests
// queue on the lock, so the counters are always exactly the number of rows. (SQLite runs one
// transaction at a time anyway; PostgreSQL takes the row lock with SELECT … FOR UPDATE.)

async function lockPost(trx: Trx, postId: number) {
  let query = trx.selectFrom("posts").select(["id", "user_id", "moderation", "is_anonymous", "status", "created_at", "hot_score"]).where("id", "=", postId);
  if (isPostgres()) query = query.forUpdate();
  return query.executeTakeFirst();
}

async function lockVisiblePost(trx: Trx, postId: number, viewerId: number) {
  const post = await lockPost(trx, postId);
  if (!post || (post.moderation !== "visible" && post.user_id !== viewerId)) throw new ForumError("post_not_found");
  return post;
}

/** like_count = the post's like rows; comment_count = its visible comments. */
export async function recountPost(executor: Executor, postId: number) {
  const row = await executor
    .updateTable("posts")
    .set((eb) => ({
      like_count: eb.selectFrom("post_likes").select((inner) => inner.fn.countAll<number>().as("n")).where("post_likes.post_id", "=", postId),
      comment_count: eb
        .selectFrom("comments")
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .where("comments.post_id", "=", postId)
        .where("comments.moderation", "=", "visible"),
    }))
    .where("id", "=", postId)
    .returning(["like_count", "comment_count"])
    .executeTakeFirst();
  return { likeCount: Number(row?.like_count ?? 0), commentCount: Number(row?.comment_count ?? 0) };
}

export async function recountComment(executor: Executor, commentId: number) {
  const row = await executor
    .updateTable("comments")
    .set((eb) => ({
      like_count: eb
        .selectFrom("comment_likes")
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .where("comment_likes.comment_id", "=", commentId),
    }))
    .where("id", "=", commentId)
    .returning("like_count")
    .executeTakeFirst();
  return Number(row?.like_count ?? 0);
}

/**
 * The post's heat from its rows (the post, its likes, its comments): after rows went (a comment
 * thread deleted, an account removed), when subtracting event by event would be a long way round.
 */
export async function rescoreHot(executor: Executor, postId: number) {
  const post = await executor.selectFrom("posts").select("created_at").where("id", "=", postId).executeTakeFirst();
  if (!post) return;
  const [likes, comments] = await Promise.all([
    executor.selectFrom("post_likes").select("created_at").where("post_id", "=", postId).execute(),
    executor.selectFrom("comments").select("created_at").where("post_id", "=", postId).execute(),
  ]);
  const events: HotEvent[] = [
    { kind: "post", at: post.created_at },
    ...likes.map((like) => ({ kind: "like" as const, at: like.created_at })),
    ...comments.map((comment) => ({ kind: "comment" as const, at: comment.created_at })),
  ];
  await executor.updateTable("posts").set({ hot_score: hotScore(events) }).where("id", "=", postId).execute();
}

/**
 * An anonymous participant's name in this thread: the one drawn before, else a random free one.
 * Runs in the transaction that locked the post, so two people never draw the same name (the
 * unique constraint would refuse it anyway).
 */
async function drawPseudonym(trx: Trx, postId: number, userId: number) {
  const rows = await trx.selectFrom("thread_pseudonyms").select(["user_id", "name_index"]).where("post_id", "=", postId).execute();
  if (rows.some((row) => row.user_id === userId)) return;
  const index = pickPseudonymIndex(new Set(rows.map((row) => row.name_index)), forumData.pseudonyms.length, (n) => randomInt(n));
  await trx.insertInto("thread_pseudonyms").values({ post_id: postId, user_id: userId, name_index: index }).execute();
}

export type CreatePostInput = {
  userId: number;
  categoryId: number;
  content: string;
  title?: string | null;
  isAnonymous?: boolean;
  status?: PostStatus | null;
  /** File URLs answered by POST /api/upload/image (uploaded by userId, not yet in a post). */
  images?: string[];
};

/**
 * Publishes a post (the publish page; the mutual-help page posts into category 3 with the course
 * name as title and status 'ongoing'). Throws ForumError "banned" for an author an operator
 * banned, "invalid_image" for an image that is not this user's unpublished upload. Callers
 * validate content and category (app/lib/schemas/forum.ts).
 */
export async function createPost(input: CreatePostInput): Promise<{ id: number }> {
  const keys = (input.images ?? []).map((url) => uploadKeyFromUrl(url));
  if (keys.some((key) => key === null) || new Set(keys).size !== keys.length) {
    throw new ForumError("invalid_image");
  }
  return db()
    .transaction()
    .execute(async (trx) => {
      if (await isBanned(input.userId, trx)) throw new ForumError("banned");
      const timestamp = now();
      const post = await trx
        .insertInto("posts")
        .values({
          user_id: input.userId,
          category_id: input.categoryId,
          title: input.title?.trim() || null,
          content: input.content,
          status: input.status ?? null,
          visibility: "public",
          is_anonymous: input.isAnonymous ? 1 : 0,
          view_count: 0,
          comment_count: 0,
          like_count: 0,
          moderation: "visible",
          reviewed_at: null,
          created_at: timestamp,
          updated_at: timestamp,
          hot_score: hotTerm({ kind: "post", at: timestamp }),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (input.isAnonymous) await drawPseudonym(trx, post.id, input.userId);
      for (const [position, key] of keys.entries()) {
        const attached = await trx
          .updateTable("uploads")
          .set({ post_id: post.id, position })
          .where("key", "=", key!)
          .where("user_id", "=", input.userId)
          .where("post_id", "is", null)
          .executeTakeFirst();
        if (Number(attached.numUpdatedRows) !== 1) throw new ForumError("invalid_image");
      }
      return { id: post.id };
    });
}

/** The author closes a mutual-help post: ongoing → completed. */
export async function markPostCompleted(postId: number, userId: number) {
  const result = await db()
    .updateTable("posts")
    .set({ status: "completed", updated_at: now() })
    .where("id", "=", postId)
    .where("user_id", "=", userId)
    .where("status", "=", "ongoing")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** True when the post exists and is this user's own. */
export async function isOwnPost(postId: number, userId: number) {
  const row = await db().selectFrom("posts").select("id").where("id", "=", postId).where("user_id", "=", userId).executeTakeFirst();
  return Boolean(row);
}

export type LikeResult = { action: "liked" | "unliked"; likeCount: number };

/** Likes the post, or takes the like back when the user already liked it. */
export async function togglePostLike(postId: number, userId: number): Promise<LikeResult> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const post = await lockVisiblePost(trx, postId, userId);
      const removed = await trx.deleteFrom("post_likes").where("post_id", "=", postId).where("user_id", "=", userId).returning("created_at").executeTakeFirst();
      let action: LikeResult["action"] = "unliked";
      let score = logSubExp(post.hot_score, hotTerm({ kind: "like", at: removed?.created_at ?? now() }), hotTerm({ kind: "post", at: post.created_at }));
      if (!removed) {
        const at = now();
        await trx
          .insertInto("post_likes")
          .values({ post_id: postId, user_id: userId, created_at: at })
          .onConflict((oc) => oc.columns(["post_id", "user_id"]).doNothing())
          .execute();
        action = "liked";
        score = logAddExp(post.hot_score, hotTerm({ kind: "like", at }));
      }
      await trx.updateTable("posts").set({ hot_score: score }).where("id", "=", postId).execute();
      const { likeCount } = await recountPost(trx, postId);
      return { action, likeCount };
    });
}

export async function toggleCommentLike(postId: number, commentId: number, userId: number): Promise<LikeResult> {
  return db()
    .transaction()
    .execute(async (trx) => {
      await lockVisiblePost(trx, postId, userId);
      let query = trx.selectFrom("comments").select(["id", "user_id", "moderation"]).where("id", "=", commentId).where("post_id", "=", postId);
      if (isPostgres()) query = query.forUpdate();
      const comment = await query.executeTakeFirst();
      if (!comment || (comment.moderation !== "visible" && comment.user_id !== userId)) throw new ForumError("not_found");
      const removed = await trx.deleteFrom("comment_likes").where("comment_id", "=", commentId).where("user_id", "=", userId).executeTakeFirst();
      let action: LikeResult["action"] = "unliked";
      if (Number(removed.numDeletedRows) === 0) {
        await trx
          .insertInto("comment_likes")
          .values({ comment_id: commentId, user_id: userId, created_at: now() })
          .onConflict((oc) => oc.columns(["comment_id", "user_id"]).doNothing())
          .execute();
        action = "liked";
      }
      return { action, likeCount: await recountComment(trx, commentId) };
    });
}

export type CommentInput = { postId: number; userId: number; content: string; parentId?: number | null; isAnonymous?: boolean };

export async function addComment(input: CommentInput): Promise<{ id: number; commentCount: number; rootId: number | null; threadFrom: number | null }> {
  return db()
    .transaction()
    .execute(async (trx) => {
      if (await isBanned(input.userId, trx)) throw new ForumError("banned");
      const post = await lockVisiblePost(trx, input.postId, input.userId);
      let rootId: number | null = null;
      if (input.parentId) {
        const parent = await trx
          .selectFrom("comments")
          .select(["id", "user_id", "moderation", "root_id"])
          .where("id", "=", input.parentId)
          .where("post_id", "=", input.postId)
          .executeTakeFirst();
        if (!parent || (parent.moderation !== "visible" && parent.user_id !== input.userId)) throw new ForumError("not_found");
        // Two levels: a reply to a reply joins the top-level comment's thread (parent_id keeps whom it answers).
        rootId = parent.root_id ?? parent.id;
      }
      const at = now();
      const comment = await trx
        .insertInto("comments")
        .values({
          post_id: input.postId,
          user_id: input.userId,
          parent_id: input.parentId ?? null,
          root_id: rootId,
          content: input.content,
          is_anonymous: input.isAnonymous ? 1 : 0,
          like_count: 0,
          moderation: "visible",
          reviewed_at: null,
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (input.isAnonymous) await drawPseudonym(trx, input.postId, input.userId);
      await trx
        .updateTable("posts")
        .set({ hot_score: logAddExp(post.hot_score, hotTerm({ kind: "comment", at })) })
        .where("id", "=", input.postId)
        .execute();
      const { commentCount } = await recountPost(trx, input.postId);
      return { id: comment.id, commentCount, rootId, threadFrom: rootId === null ? null : await replyPageStart(trx, rootId, comment.id) };
    });
}

/**
 * The reply cursor of the page of a thread that ends with this reply: the replies before it stay
 * in view (null: the thread's first page holds it). Every reply counts, whoever may see it, so the
 * page never ends before the reply (comments_root_idx).
 */
async function replyPageStart(executor: Executor, rootId: number, replyId: number) {
  const row = await executor
    .selectFrom("comments")
    .select("id")
    .where("root_id", "=", rootId)
    .where("id", "<", replyId)
    .orderBy("id", "desc")
    .limit(1)
    .offset(REPLY_PAGE_SIZE - 1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A comment and every reply below it (ids), from the comments of its thread. */
async function subtreeOf(executor: Executor, postId: number, commentId: number) {
  const comment = await executor.selectFrom("comments").select(["id", "root_id"]).where("id", "=", commentId).where("post_id", "=", postId).executeTakeFirst();
  if (!comment) return [commentId];
  const root = comment.root_id ?? comment.id;
  const rows = await executor.selectFrom("comments").select(["id", "parent_id"]).where("root_id", "=", root).execute();
  const children = new Map<number, number[]>();
  for (const row of rows) {
    if (row.parent_id !== null) children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row.id]);
  }
  const ids: number[] = [];
  const stack = [commentId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    ids.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return ids;
}

type CommentDeleter = Executor;

/**
 * Deletes comments by id. Their links to each other are cut first: the database would otherwise
 * follow parent_id's ON DELETE CASCADE one level at a time, and SQLite refuses a chain deeper
 * than its trigger depth (1,000), which a user can build.
 */
async function deleteComments(executor: CommentDeleter, where: { ids: number[] } | { postIds: number[] }) {
  const chunks = "ids" in where ? chunk(where.ids) : chunk(where.postIds);
  const column = "ids" in where ? ("id" as const) : ("post_id" as const);
  // Every link first, then the rows: a row of a later part must not cascade from an earlier one.
  for (const part of chunks) await executor.updateTable("comments").set({ parent_id: null, root_id: null }).where(column, "in", part).execute();
  for (const part of chunks) await executor.deleteFrom("comments").where(column, "in", part).execute();
}

/** Ids 500 at a time (under both databases' limits on bound parameters). */
function chunk(ids: number[]) {
  const parts: number[][] = [];
  for (let i = 0; i < ids.length; i += 500) parts.push(ids.slice(i, i + 500));
  return parts;
}

/** Deletes a comment with its replies (their likes and reports go too) and recounts the post. */
export async function removeComment(trx: Trx, postId: number, commentId: number) {
  await lockPost(trx, postId);
  const ids = await subtreeOf(trx, postId, commentId);
  await trx.deleteFrom("reports").where("target_type", "=", "comment").where("target_id", "in", ids).execute();
  await deleteComments(trx, { ids });
  await rescoreHot(trx, postId);
  return recountPost(trx, postId);
}

/** The author deletes their own comment. */
export async function deleteOwnComment(commentId: number, userId: number) {
  return db()
    .transaction()
    .execute(async (trx) => {
      const comment = await trx.selectFrom("comments").select(["id", "post_id"]).where("id", "=", commentId).where("user_id", "=", userId).executeTakeFirst();
      if (!comment) throw new ForumError("not_found");
      return removeComment(trx, comment.post_id, comment.id);
    });
}

/** Deletes a post with its images, comments, likes, views and reports. `userId` limits it to the author's own. */
export async function deletePost(postId: number, options: { userId: number } | { operator: true }) {
  const keys = await db()
    .transaction()
    .execute(async (trx) => {
      let query = trx.selectFrom("posts").select(["id"]).where("id", "=", postId);
      if ("userId" in options) query = query.where("user_id", "=", options.userId);
      if (!(await query.executeTakeFirst())) return null;
      const uploads = await trx.deleteFrom("uploads").where("post_id", "=", postId).returning("key").execute();
      await trx.deleteFrom("reports").where("post_id", "=", postId).execute();
      await deleteComments(trx, { postIds: [postId] });
      await trx.deleteFrom("posts").where("id", "=", postId).execute();
      return uploads.map((upload) => upload.key);
    });
  if (keys === null) return false;
  await removeImageFiles(keys);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Comments for the detail page: a page of top-level comments, each with its first replies (or,
// for the thread the reader expanded, a page of its replies). Every query is bounded and served
// by an index (comments_top_idx, comments_root_idx); nothing follows reply chains.

export type CommentPage = {
  threads: Thread<CommentView>[];
  /** The cursor of the next page of top-level comments, or null on the last page. */
  nextAfter: number | null;
  /** The comment a sheet (reply, report, delete) was opened for, when it is not on this page. */
  focus: CommentView | null;
};

export type CommentPageRequest = { after?: number | null; thread?: number | null; from?: number | null; focus?: number | null };

function commentColumns() {
  return db()
    .selectFrom("comments")
    .innerJoin("users", "users.id", "comments.user_id")
    .leftJoin("comments as answered", (join) => join.onRef("answered.id", "=", "comments.parent_id").onRef("answered.id", "!=", "comments.root_id"))
    .leftJoin("users as answered_user", "answered_user.id", "answered.user_id")
    // The names anonymous participants drew in this thread: the comment's author's and the answered one's.
    .leftJoin("thread_pseudonyms as pseudo", (join) => join.onRef("pseudo.post_id", "=", "comments.post_id").onRef("pseudo.user_id", "=", "comments.user_id"))
    .leftJoin("thread_pseudonyms as answered_pseudo", (join) =>
      join.onRef("answered_pseudo.post_id", "=", "comments.post_id").onRef("answered_pseudo.user_id", "=", "answered.user_id"),
    )
    .select([
      "pseudo.name_index as pseudonym",
      "answered_pseudo.name_index as answered_pseudonym",
      "comments.id",
      "comments.parent_id",
      "comments.root_id",
      "comments.user_id",
      "comments.content",
      "comments.is_anonymous",
      "comments.like_count",
      "comments.moderation",
      "comments.created_at",
      "users.nickname",
      "users.wechat_nickname",
      "users.avatar_url",
      "users.wechat_avatar",
      "answered.user_id as answered_user_id",
      "answered.is_anonymous as answered_is_anonymous",
      "answered_user.nickname as answered_nickname",
      "answered_user.wechat_nickname as answered_wechat_nickname",
    ]);
}

/** A page of a post's top-level comments, oldest first: the visible ones and the viewer's own (comments_top_idx). */
export function topCommentsQuery(postId: number, viewerId: number, after: number | null, limit = COMMENT_PAGE_SIZE + 1) {
  let query = commentColumns()
    .where("comments.post_id", "=", postId)
    .where("comments.root_id", "is", null)
    .where((eb) => eb.or([eb("comments.moderation", "=", "visible"), eb("comments.user_id", "=", viewerId)]));
  if (after) query = query.where("comments.id", ">", after);
  return query.orderBy("comments.id").limit(limit);
}

/** A page of one thread's replies after a cursor (comments_root_idx). */
export function threadRepliesQuery(rootId: number, viewerId: number, from: number | null, limit = REPLY_PAGE_SIZE + 1) {
  let query = commentColumns()
    .where("comments.root_id", "=", rootId)
    .where((eb) => eb.or([eb("comments.moderation", "=", "visible"), eb("comments.user_id", "=", viewerId)]));
  if (from) query = query.where("comments.id", ">", from);
  return query.orderBy("comments.id").limit(limit);
}

/** How many replies each of these threads has that the viewer may see (comments_root_idx). */
export function replyCountsQuery(rootIds: number[], viewerId: number) {
  return db()
    .selectFrom("comments")
    .select(["root_id", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("root_id", "in", rootIds)
    .where((eb) => eb.or([eb("moderation", "=", "visible"), eb("user_id", "=", viewerId)]))
    .groupBy("root_id");
}

/** Which of these comments the viewer liked (the comment_likes primary key). */
export function likedCommentsQuery(viewerId: number, commentIds: number[]) {
  return db().selectFrom("comment_likes").select("comment_id").where("user_id", "=", viewerId).where("comment_id", "in", commentIds);
}

// Every post page runs these: compiled once per shape (db/compiled.server.ts).
const topComments = compiledOnce(topCommentsQuery);
const replyCounts = compiledOnce(replyCountsQuery);
const likedComments = compiledOnce(likedCommentsQuery);

type CommentRow = Awaited<ReturnType<ReturnType<typeof topCommentsQuery>["execute"]>>[number];

/**
 * A post's comments for the page. Others' comments under moderation are left out (a hidden
 * top-level comment with its thread); the viewer's own show "under review". The post author's
 * badge shows only where it reveals nothing: on a named post's named comments and an anonymous
 * post's anonymous ones.
 */
export async function listComments(
  postId: number,
  viewerId: number,
  /** The post's author and anonymity when the caller has read the post already (saves a query). */
  known?: { user_id: number; is_anonymous: number },
  page: CommentPageRequest = {},
): Promise<CommentPage> {
  const postRow = known ?? (await db().selectFrom("posts").select(["user_id", "is_anonymous"]).where("id", "=", postId).executeTakeFirst());
  if (!postRow) return { threads: [], nextAfter: null, focus: null };
  const rootRows = await topComments.execute(postId, viewerId, page.after ?? null);
  const hasNextPage = rootRows.length > COMMENT_PAGE_SIZE;
  const roots = rootRows.slice(0, COMMENT_PAGE_SIZE);
  if (page.thread && !roots.some((row) => row.id === page.thread)) {
    // The thread asked for (a reply just sent, a link) starts the page when it is not on it.
    const threadRoot = await commentColumns()
      .where("comments.id", "=", page.thread)
      .where("comments.post_id", "=", postId)
      .where("comments.root_id", "is", null)
      .where((eb) => eb.or([eb("comments.moderation", "=", "visible"), eb("comments.user_id", "=", viewerId)]))
      .executeTakeFirst();
    if (threadRoot) roots.unshift(threadRoot);
  }
  const rootIds = roots.map((row) => row.id);

  const replies: CommentRow[] = [];
  let expanded: { rootId: number; hasMore: boolean } | null = null;
  const counts = new Map<number, number>();
  if (rootIds.length > 0) {
    for (const row of await replyCounts.execute(rootIds, viewerId)) counts.set(row.root_id!, Number(row.n));
    // One bounded query per thread with replies: at most a page of threads, REPLY_PREVIEW each.
    const previews = await Promise.all(
      roots.map((root) => {
        if (!counts.get(root.id)) return Promise.resolve([] as CommentRow[]);
        if (page.thread === root.id) return threadRepliesQuery(root.id, viewerId, page.from ?? null).execute();
        return threadRepliesQuery(root.id, viewerId, null, REPLY_PREVIEW).execute();
      }),
    );
    roots.forEach((root, index) => {
      let rows = previews[index]!;
      if (page.thread === root.id) {
        expanded = { rootId: root.id, hasMore: rows.length > REPLY_PAGE_SIZE };
        rows = rows.slice(0, REPLY_PAGE_SIZE);
      }
      replies.push(...rows);
    });
  }

  let focusRow: CommentRow | undefined;
  const onPage = (id: number) => rootIds.includes(id) || replies.some((row) => row.id === id);
  if (page.focus && !onPage(page.focus)) {
    focusRow = await commentColumns()
      .where("comments.id", "=", page.focus)
      .where("comments.post_id", "=", postId)
      .where((eb) => eb.or([eb("comments.moderation", "=", "visible"), eb("comments.user_id", "=", viewerId)]))
      .executeTakeFirst();
  }

  const ids = [...rootIds, ...replies.map((row) => row.id), ...(focusRow ? [focusRow.id] : [])];
  const liked = new Set(ids.length === 0 ? [] : (await likedComments.execute(viewerId, ids)).map((like) => like.comment_id));
  const current = new Date();
  const view = (row: CommentRow): CommentView => ({
    id: row.id,
    parentId: row.parent_id,
    rootId: row.root_id,
    content: row.content,
    author: {
      ...toAuthor(row, viewerId),
      isPostAuthor: row.user_id === postRow.user_id && row.is_anonymous === postRow.is_anonymous,
    },
    replyTo:
      row.answered_user_id === null || row.answered_user_id === undefined
        ? null
        : row.answered_is_anonymous
          ? anonymousName(row.answered_pseudonym)
          : publicName({ nickname: row.answered_nickname ?? null, wechat_nickname: row.answered_wechat_nickname ?? null }),
    createdAt: row.created_at,
    time: commentTime(row.created_at, current),
    likeCount: row.like_count,
    isLiked: liked.has(row.id),
    underReview: row.moderation !== "visible",
  });
  return {
    threads: groupThreads(roots.map(view), replies.map(view), counts, expanded),
    nextAfter: hasNextPage ? roots.at(-1)!.id : null,
    focus: focusRow ? view(focusRow) : null,
  };
}

/** The comments, or none with `failed` when they cannot be read (the post still shows, with the product rules' notice). */
export async function loadComments(
  postId: number,
  viewerId: number,
  known?: { user_id: number; is_anonymous: number },
  page: CommentPageRequest = {},
): Promise<{ comments: CommentPage; failed: boolean }> {
  try {
    return { comments: await listComments(postId, viewerId, known, page), failed: false };
  } catch (error) {
    log("error", "post-comments", { error: String(error) });
    return { comments: { threads: [], nextAfter: null, focus: null }, failed: true };
  }
}

// ---------------------------------------------------------------------------------------------
// Reports.

export type ReportResult = { status: "reported" | "already"; hidden: boolean };

/**
 * A user reports a post (or one of its comments) once, with a reason. When the open reports of
 * the target reach the configured threshold it is hidden ("pending") until an operator reviews it.
 */
export async function report(input: { userId: number; postId: number; commentId?: number | null; reason: ReportReason }): Promise<ReportResult> {
  const threshold = config().forumReportThreshold;
  return db()
    .transaction()
    .execute(async (trx) => {
      const post = await lockVisiblePost(trx, input.postId, input.userId);
      const target = input.commentId ? ("comment" as const) : ("post" as const);
      let targetId = input.postId;
      if (target === "comment") {
        const comment = await trx
          .selectFrom("comments")
          .select(["id", "user_id", "moderation"])
          .where("id", "=", input.commentId!)
          .where("post_id", "=", input.postId)
          .executeTakeFirst();
        if (!comment || comment.moderation !== "visible") throw new ForumError("not_found");
        if (comment.user_id === input.userId) throw new ForumError("forbidden");
        targetId = comment.id;
      } else if (post.user_id === input.userId) {
        throw new ForumError("forbidden");
      }
      const inserted = await trx
        .insertInto("reports")
        .values({ target_type: target, target_id: targetId, post_id: input.postId, user_id: input.userId, reason: input.reason, created_at: now(), resolved_at: null })
        .onConflict((oc) => oc.columns(["target_type", "target_id", "user_id"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!inserted) return { status: "already", hidden: false };
      const open = await trx
        .selectFrom("reports")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("target_type", "=", target)
        .where("target_id", "=", targetId)
        .where("resolved_at", "is", null)
        .executeTakeFirst();
      if (Number(open?.n ?? 0) < threshold) return { status: "reported", hidden: false };
      const table = target === "post" ? "posts" : "comments";
      const hidden = await trx.updateTable(table).set({ moderation: "pending" }).where("id", "=", targetId).where("moderation", "=", "visible").executeTakeFirst();
      if (target === "comment") await recountPost(trx, input.postId);
      return { status: "reported", hidden: Number(hidden.numUpdatedRows) === 1 };
    });
}

// ---------------------------------------------------------------------------------------------
// Personal data: account deletion and the merge of two user rows.


/**
 * Removes everything of one person from the circle: their posts (with everyone's comments,
 * likes and views on them), their comments (with the replies below them), likes, views, reports,
 * ban and uploaded images; the counters of other people's posts and comments are recounted.
 * Runs inside the deletion job's transaction.
 */
export async function deleteForumData(executor: Executor, userId: number) {
  const uploads = await executor.selectFrom("uploads").select("key").where("user_id", "=", userId).execute();
  const posts = await executor.selectFrom("posts").select("id").where("user_id", "=", userId).execute();
  const postIds = posts.map((post) => post.id);
  if (postIds.length > 0) {
    const postUploads = await executor.selectFrom("uploads").select("key").where("post_id", "in", postIds).execute();
    uploads.push(...postUploads);
    await executor.deleteFrom("uploads").where("post_id", "in", postIds).execute();
    await executor.deleteFrom("reports").where("post_id", "in", postIds).execute();
    await deleteComments(executor, { postIds });
    await executor.deleteFrom("posts").where("id", "in", postIds).execute();
  }
  await executor.deleteFrom("uploads").where("user_id", "=", userId).execute();

  // Their comments on other people's posts, each with the replies below it.
  const comments = await executor.selectFrom("comments").select(["id", "post_id"]).where("user_id", "=", userId).execute();
  const touchedPosts = new Set<number>(comments.map((comment) => comment.post_id));
  const commentIds = new Set<number>();
  for (const comment of comments) {
    if (commentIds.has(comment.id)) continue;
    for (const id of await subtreeOf(executor, comment.post_id, comment.id)) commentIds.add(id);
  }
  if (commentIds.size > 0) {
    await executor.deleteFrom("reports").where("target_type", "=", "comment").where("target_id", "in", [...commentIds]).execute();
    await deleteComments(executor, { ids: [...commentIds] });
  }

  const postLikes = await executor.selectFrom("post_likes").select("post_id").where("user_id", "=", userId).execute();
  for (const like of postLikes) touchedPosts.add(like.post_id);
  await executor.deleteFrom("post_likes").where("user_id", "=", userId).execute();
  const commentLikes = await executor.selectFrom("comment_likes").select("comment_id").where("user_id", "=", userId).execute();
  await executor.deleteFrom("comment_likes").where("user_id", "=", userId).execute();

  await executor.deleteFrom("post_views").where("user_id", "=", userId).execute();
  await executor.deleteFrom("reports").where("user_id", "=", userId).execute();
  await executor.deleteFrom("forum_bans").where("user_id", "=", userId).execute();
  await executor.deleteFrom("thread_pseudonyms").where("user_id", "=", userId).execute();
  await executor.deleteFrom("post_favourites").where("user_id", "=", userId).execute();

  for (const postId of touchedPosts) {
    await recountPost(executor, postId);
    await rescoreHot(executor, postId);
  }
  for (const { comment_id } of commentLikes) await recountComment(executor, comment_id);
  await removeImageFiles(uploads.map((upload) => upload.key));
}

/**
 * Two user rows of one person merge (a student login takes over a messenger-only row): the
 * circle's rows move to the surviving user; a like, view or report both rows made stays once.
 */
export async function moveForumData(trx: Trx, fromUserId: number, toUserId: number) {
  await trx.updateTable("posts").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();
  await trx.updateTable("comments").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();
  await trx.updateTable("uploads").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();

  const touchedPosts = (await trx.selectFrom("post_likes").select("post_id").where("user_id", "=", fromUserId).execute()).map((row) => row.post_id);
  await trx
    .deleteFrom("post_likes")
    .where("user_id", "=", fromUserId)
    .where("post_id", "in", (eb) => eb.selectFrom("post_likes as mine").select("mine.post_id").where("mine.user_id", "=", toUserId))
    .execute();
  await trx.updateTable("post_likes").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();

  const touchedComments = (await trx.selectFrom("comment_likes").select("comment_id").where("user_id", "=", fromUserId).execute()).map((row) => row.comment_id);
  await trx
    .deleteFrom("comment_likes")
    .where("user_id", "=", fromUserId)
    .where("comment_id", "in", (eb) => eb.selectFrom("comment_likes as mine").select("mine.comment_id").where("mine.user_id", "=", toUserId))
    .execute();
  await trx.updateTable("comment_likes").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();

  const views = await trx.selectFrom("post_views").select(["post_id", "day"]).where("user_id", "=", fromUserId).execute();
  for (const view of views) {
    const both = await trx.selectFrom("post_views").select("post_id").where("user_id", "=", toUserId).where("post_id", "=", view.post_id).where("day", "=", view.day).executeTakeFirst();
    const query = trx.deleteFrom("post_views").where("user_id", "=", fromUserId).where("post_id", "=", view.post_id).where("day", "=", view.day);
    if (both) await query.execute();
  }
  await trx.updateTable("post_views").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();

  const reports = await trx.selectFrom("reports").select(["id", "target_type", "target_id"]).where("user_id", "=", fromUserId).execute();
  for (const row of reports) {
    const both = await trx
      .selectFrom("reports")
      .select("id")
      .where("user_id", "=", toUserId)
      .where("target_type", "=", row.target_type)
      .where("target_id", "=", row.target_id)
      .executeTakeFirst();
    if (both) await trx.deleteFrom("reports").where("id", "=", row.id).execute();
  }
  await trx.updateTable("reports").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();

  const ban = await trx.selectFrom("forum_bans").selectAll().where("user_id", "=", fromUserId).executeTakeFirst();
  if (ban) {
    await trx.deleteFrom("forum_bans").where("user_id", "=", fromUserId).execute();
    if (!(await isBanned(toUserId, trx))) await trx.insertInto("forum_bans").values({ ...ban, user_id: toUserId }).execute();
  }

  // Their names in threads: where both rows drew one, the surviving row's name stays.
  await trx
    .deleteFrom("thread_pseudonyms")
    .where("user_id", "=", fromUserId)
    .where("post_id", "in", (eb) => eb.selectFrom("thread_pseudonyms as mine").select("mine.post_id").where("mine.user_id", "=", toUserId))
    .execute();
  await trx.updateTable("thread_pseudonyms").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();
  await trx
    .deleteFrom("post_favourites")
    .where("user_id", "=", fromUserId)
    .where("post_id", "in", (eb) => eb.selectFrom("post_favourites as mine").select("mine.post_id").where("mine.user_id", "=", toUserId))
    .execute();
  await trx.updateTable("post_favourites").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();

  for (const postId of new Set(touchedPosts)) {
    await recountPost(trx, postId);
    await rescoreHot(trx, postId);
  }
  for (const commentId of new Set(touchedComments)) await recountComment(trx, commentId);
}
