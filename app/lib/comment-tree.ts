// Comments arrive as flat rows (oldest first); the page shows them as a tree: top-level comments
// with their replies. Pure, so the rules are tested without a database.

export type CommentNode<T> = T & { replies: CommentNode<T>[] };

/**
 * Nests rows by parentId, keeping the rows' order at every level. A row whose parent is not among
 * the rows (hidden by moderation, or deleted) is left out together with its own replies.
 */
export function buildCommentTree<T extends { id: number; parentId: number | null }>(rows: T[]): CommentNode<T>[] {
  const nodes = new Map<number, CommentNode<T>>();
  for (const row of rows) nodes.set(row.id, { ...row, replies: [] });
  const roots: CommentNode<T>[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    if (row.parentId === null) {
      roots.push(node);
    } else {
      nodes.get(row.parentId)?.replies.push(node);
    }
  }
  return roots;
}

/**
 * A top-level comment's whole thread, flattened for display (the way messenger apps show it):
 * every reply at any depth, in time order, with the name it answers when that is not the
 * top-level comment itself.
 */
export function threadOf<T extends { id: number; createdAt: string }>(
  root: CommentNode<T>,
  nameOf: (node: CommentNode<T>) => string,
): { node: CommentNode<T>; replyTo: string | null }[] {
  const out: { node: CommentNode<T>; replyTo: string | null }[] = [];
  const walk = (parent: CommentNode<T>) => {
    for (const child of parent.replies) {
      out.push({ node: child, replyTo: parent === root ? null : nameOf(parent) });
      walk(child);
    }
  };
  walk(root);
  return out.sort((a, b) => (a.node.createdAt === b.node.createdAt ? a.node.id - b.node.id : a.node.createdAt < b.node.createdAt ? -1 : 1));
}

/** Counts every node of a forest. */
export function countComments<T>(nodes: CommentNode<T>[]): number {
  return nodes.reduce((total, node) => total + 1 + countComments(node.replies), 0);
}

/** The node with this id anywhere in the forest, or null. */
export function findInTree<T extends { id: number }>(nodes: CommentNode<T>[], id: number): CommentNode<T> | null {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findInTree(node.replies, id);
    if (found) return found;
  }
  return null;
}
