import { describe, expect, it } from "vitest";
import { buildCommentTree, countComments, threadOf } from "./comment-tree";

type Row = { id: number; parentId: number | null; name: string; createdAt: string };
const at = (minute: number) => `2026-11-22T04:${String(minute).padStart(2, "0")}:00.000Z`;
const row = (id: number, parentId: number | null, name = `u${id}`, minute = id): Row => ({ id, parentId, name, createdAt: at(minute) });

describe("comment tree", () => {
  it("nests replies under their parents in row order", () => {
    const tree = buildCommentTree([row(1, null), row(2, 1), row(3, null), row(4, 2), row(5, 1)]);
    expect(tree.map((node) => node.id)).toEqual([1, 3]);
    expect(tree[0]!.replies.map((node) => node.id)).toEqual([2, 5]);
    expect(tree[0]!.replies[0]!.replies.map((node) => node.id)).toEqual([4]);
    expect(tree[1]!.replies).toEqual([]);
    expect(countComments(tree)).toBe(5);
  });

  it("leaves out a reply whose parent is missing, with its own replies", () => {
    const tree = buildCommentTree([row(1, null), row(3, 2), row(4, 3), row(5, 1)]);
    expect(countComments(tree)).toBe(2);
    expect(tree[0]!.replies.map((node) => node.id)).toEqual([5]);
  });

  it("handles no comments", () => {
    expect(buildCommentTree([])).toEqual([]);
  });

  it("flattens a thread in time order, naming whom a deeper reply answers", () => {
    const tree = buildCommentTree([row(1, null, "甲"), row(2, 1, "乙"), row(3, 2, "丙"), row(4, 1, "丁"), row(5, 3, "甲")]);
    const thread = threadOf(tree[0]!, (node) => node.name);
    expect(thread.map(({ node, replyTo }) => [node.id, replyTo])).toEqual([
      [2, null],
      [3, "乙"],
      [4, null],
      [5, "丙"],
    ]);
  });
});
