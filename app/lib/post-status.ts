// A post's status badge (spec section 4), in a module of its own: the post cards need only this.
import { finished, inProgress } from "./messages/common";

export type PostStatus = "ongoing" | "completed";

/** A post's status badge: 'in progress' for ongoing, 'completed' for any other status, none without one. */
export function postStatusLabel(status: string | null | undefined): { label: string; ongoing: boolean } | null {
  if (!status) return null;
  return status === "ongoing" ? { label: inProgress, ongoing: true } : { label: finished, ongoing: false };
}
