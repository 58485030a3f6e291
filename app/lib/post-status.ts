// A post's status badge (docs/product-rules.md, "States"), in a module of its own: the post cards need only this.
import { Common } from "./messages/common";

export type PostStatus = "ongoing" | "completed";

/** A post's status badge: 'in progress' for ongoing, 'completed' for any other status, none without one. */
export function postStatusLabel(status: string | null | undefined): { label: string; ongoing: boolean } | null {
  if (!status) return null;
  return status === "ongoing" ? { label: Common.inProgress, ongoing: true } : { label: Common.finished, ongoing: false };
}
