import type { ForumError } from "~/server/forum/posts.server";

// The guard of /post/:id and its sheets: the id in the URL, or the 404 that app/server/ never answers itself.

/** "/post/12" → 12; anything else is a 404. */
export function requirePostId(value: string | undefined) {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw new Response("Not Found", { status: 404 });
  return Number(value);
}

/** The HTTP status of a refused forum action (the page's and its sheets'). */
export function forumStatus(error: ForumError) {
  return error.code === "banned" || error.code === "forbidden" ? 403 : error.code === "not_found" ? 404 : 400;
}
