// The post page's sheets (comment, report, delete, image preview) and the answers of its actions.
import { Common } from "./common";

export const postSheets = {
  deletePostConfirm: Common.deletePostConfirm,
  deleteCommentConfirm: "确定删除这条评论吗？它的回复也会一并删除。",
  commentRequired: "请输入评论内容",
  commentTooLong: "评论不能超过500字",
  loginExpired: Common.loginExpired,
  pleaseLogin: Common.loginRequired,
  loadCommentsFailed: "加载评论失败",
  reportReason: Common.reportReasonRequired,
  reportReasonRequired: Common.reportReasonRequired,
  reportSubmit: "提交举报",
  ownContent: "不能举报自己发布的内容",
  imagePreview: "图片预览",
  previous: "上一张",
  next: "下一张",
  // Put into the page's data by the loader (only when they apply):
  underReview: "帖子正在审核中，审核通过前仅你自己可见",
  hiddenByOperator: "帖子已被管理员隐藏，仅你自己可见",
  reported: Common.reported,
  alreadyReported: "你已经举报过了，我们会尽快处理",
  commentDeleted: "评论已删除",
  markedCompleted: "已标记为已完成",
} as const;
