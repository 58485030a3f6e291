// The comment sheet of a post (its own group: the sheet loads on its own and ships only these).
import { Common } from "./common";

export const commentSheet = {
  replyTo: Common.reply,
  cancelReply: "取消回复",
  sendComment: "发送",
  commentAnonymous: "匿名评论",
  commentAnonymousAsAuthor: "以匿名楼主身份评论",
  draftRestored: Common.draftRestored,
} as const;
