// What the forum's routes answer when app/server/forum refuses a step (a ForumError): the
// status and the catalogue's message for each reason, once for the post page, its sheets and
// the publish page.
import { postDetail } from "~/lib/messages/postDetail";
import { postSheets } from "~/lib/messages/postSheets";
import { publish } from "~/lib/messages/publish";
import type { ForumError, ForumRefusal } from "~/server/forum/posts.server";
import type { RefusalTable } from "./refusal-table";

const FORUM_REFUSALS: RefusalTable<ForumRefusal> = {
  banned: { status: 403, message: publish.noPermission },
  post_not_found: { status: 404, message: postDetail.postNotFound },
  not_found: { status: 404, message: postDetail.actionFailed },
  forbidden: { status: 403, message: postSheets.ownContent },
  invalid_image: { status: 400, message: publish.imageNotYours },
};

export function forumRefusal(error: ForumError) {
  return FORUM_REFUSALS[error.code];
}
