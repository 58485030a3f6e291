import { describe, expect, it } from "vitest";
import { commentLinkHref, commentOnPage, commentsHref, cursorParam, findComment, groupThreads, hasMoreReplies } from "./comment-tree";

type Row = { id: number; rootId: number | null };
const row = (id: number, rootId: number | null = null): Row => ({ id, rootId });

describe("groupThreads", () => {
  it("puts replies under their top-level comment in row order", () => {
    const threads = groupThreads([row(1), row(3)], [row(2, 1), row(4, 1), row(5, 3)], new Map([[1, 2], [3, 1]]));
    expect(threads.map((t) => [t.root.id, t.replies.map((r) => r.id), t.replyCount, hasMoreReplies(t)])).toEqual([
      [1, [2, 4], 2, false],
      [3, [5], 1, false],
    ]);
  });

  it("offers 展开更多 when a thread has more replies than its preview", () => {
    const [thread] = groupThreads([row(1)], [row(2, 1), row(3, 1), row(4, 1)], new Map([[1, 3000]]));
    expect(thread!.replyCount).toBe(3000);
    expect(hasMoreReplies(thread!)).toBe(true);
    expect(thread!.expanded).toBe(false);
  });

  it("an expanded thread continues after its last shown reply, and stops on its last page", () => {
    const [more] = groupThreads([row(1)], [row(7, 1), row(9, 1)], new Map([[1, 40]]), { rootId: 1, hasMore: true });
    expect([more!.expanded, more!.moreFrom, hasMoreReplies(more!)]).toEqual([true, 9, true]);
    const [last] = groupThreads([row(1)], [row(7, 1)], new Map([[1, 40]]), { rootId: 1, hasMore: false });
    expect([last!.moreFrom, hasMoreReplies(last!)]).toEqual([null, false]);
  });

  it("leaves out replies of a top-level comment that is not on the page", () => {
    const threads = groupThreads([row(1)], [row(2, 1), row(5, 4)], new Map());
    expect(threads.flatMap((t) => t.replies.map((r) => r.id))).toEqual([2]);
  });

  it("handles no comments", () => {
    expect(groupThreads([], [], new Map())).toEqual([]);
  });
});

describe("finding a comment for a sheet", () => {
  const threads = groupThreads([row(1)], [row(2, 1)], new Map());
  it.each([
    [1, 1],
    [2, 2],
    [9, 9],
    [8, null],
  ])("comment %i → %s", (id, expected) => {
    expect(commentOnPage({ threads, focus: row(9, 1) }, id)?.id ?? null).toBe(expected);
  });
  it("findComment searches roots and shown replies only", () => {
    expect(findComment(threads, 2)?.id).toBe(2);
    expect(findComment(threads, 9)).toBeNull();
  });
});

describe("comment page addresses", () => {
  it.each([
    [{}, "/post/1#comments"],
    [{ after: 20 }, "/post/1?after=20#comments"],
    [{ thread: 5 }, "/post/1?thread=5#comment-5"],
    [{ after: 20, thread: 25, from: 70 }, "/post/1?after=20&thread=25&from=70#comment-25"],
    [{ from: 70 }, "/post/1#comments"],
  ])("%j → %s", (options, expected) => {
    expect(commentsHref("/post/1", options)).toBe(expected);
  });

  it.each([
    [[7, null, null], "/post/1#comment-7"],
    [[9, 5, null], "/post/1?thread=5#comment-9"],
    [[90, 5, 40], "/post/1?thread=5&from=40#comment-90"],
  ] as const)("a comment's link %j → %s", ([id, thread, from], expected) => {
    expect(commentLinkHref("/post/1", id, thread, from)).toBe(expected);
  });

  it.each([
    ["12", 12],
    ["0", null],
    ["-1", null],
    ["1e3", null],
    ["99999999999", null],
    [null, null],
  ])("cursor %j → %s", (value, expected) => {
    expect(cursorParam(value)).toBe(expected);
  });
});
