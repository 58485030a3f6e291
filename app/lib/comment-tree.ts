// Comments are two levels deep (as Chinese apps show them): top-level comments, each
// with one flat thread of replies in time order. A reply to a reply joins the same thread and
// names whom it answers (the @mention). Depth is never followed: a reply carries its top-level
// comment (rootId) and the page only groups rows, so no user-made chain can make it recurse.
// Pure, so the rules are tested without a database.

/** Top-level comments per page, replies shown under each at first, replies per 展开更多 page. */
export const COMMENT_PAGE_SIZE = 20;
export const REPLY_PREVIEW = 3;
export const REPLY_PAGE_SIZE = 50;

export type ThreadRow = { id: number; rootId: number | null };

export type Thread<T> = {
  root: T;
  replies: T[];
  /** Visible replies in the whole thread (the shown ones included). */
  replyCount: number;
  /** The reply cursor of the next 展开更多 page, or null when every reply after the shown ones is shown. */
  moreFrom: number | null;
  /** Whether the thread shows a 展开更多 page (not the first replies only). */
  expanded: boolean;
};

/**
 * Puts replies under their top-level comments, keeping the order of each list. Replies of a
 * top-level comment that is not among the roots are left out.
 */
export function groupThreads<T extends ThreadRow>(
  roots: T[],
  replies: T[],
  replyCounts: ReadonlyMap<number, number>,
  expanded: { rootId: number; hasMore: boolean } | null = null,
): Thread<T>[] {
  const byRoot = new Map<number, T[]>();
  for (const reply of replies) {
    if (reply.rootId === null) continue;
    const list = byRoot.get(reply.rootId);
    if (list) list.push(reply);
    else byRoot.set(reply.rootId, [reply]);
  }
  return roots.map((root) => {
    const shown = byRoot.get(root.id) ?? [];
    const replyCount = replyCounts.get(root.id) ?? shown.length;
    const isExpanded = expanded?.rootId === root.id;
    const last = shown.at(-1)?.id ?? null;
    const hasMore = isExpanded ? expanded!.hasMore : shown.length < replyCount;
    return { root, replies: shown, replyCount, moreFrom: hasMore ? (isExpanded ? last : null) : null, expanded: isExpanded };
  });
}

/** Whether a thread has replies beyond those shown (the 展开更多 link). */
export function hasMoreReplies<T>(thread: Thread<T>) {
  return thread.expanded ? thread.moreFrom !== null : thread.replies.length < thread.replyCount;
}

/** The comment with this id among the threads (roots and shown replies), or null. */
export function findComment<T extends { id: number }>(threads: Thread<T>[], id: number): T | null {
  for (const thread of threads) {
    if (thread.root.id === id) return thread.root;
    const reply = thread.replies.find((item) => item.id === id);
    if (reply) return reply;
  }
  return null;
}

/** A positive id from a query parameter (a cursor or a thread), else null. */
export function cursorParam(value: string | null): number | null {
  return value && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}

/** The post page's address for a comments page, an expanded thread and its reply cursor. */
export function commentsHref(base: string, options: { after?: number | null; thread?: number | null; from?: number | null }) {
  const params = new URLSearchParams();
  if (options.after) params.set("after", String(options.after));
  if (options.thread) params.set("thread", String(options.thread));
  if (options.thread && options.from) params.set("from", String(options.from));
  const query = params.toString();
  return `${base}${query ? `?${query}` : ""}#${options.thread ? `comment-${options.thread}` : "comments"}`;
}

/**
 * Where a comment shows: a top-level one on the post, a reply in its opened thread. `threadFrom`
 * is the reply cursor of the page that ends with this reply (null: the thread's first page), so
 * the replies before it stay in view.
 */
export function commentLinkHref(base: string, id: number, thread: number | null | undefined, threadFrom: number | null | undefined) {
  if (!thread) return `${base}#comment-${id}`;
  return `${base}?thread=${thread}${threadFrom ? `&from=${threadFrom}` : ""}#comment-${id}`;
}

/** The comment a sheet was opened for: on the page, or the one the loader brought along. */
export function commentOnPage<T extends { id: number }>(comments: { threads: Thread<T>[]; focus: T | null }, id: number): T | null {
  if (comments.focus?.id === id) return comments.focus;
  return findComment(comments.threads, id);
}
