// /backpack/posts: the user's own posts.
import * as common from "./common";

export const myPosts = {
  myPostsEmpty: "你还没有发过帖子",
  anonymousMark: common.anonymousPosted,
  underReviewLong: "审核中：被多位同学举报，管理员处理前其他人看不到",
  hiddenLong: "已被管理员隐藏，其他人看不到",
  delete: common.remove,
  deleteConfirm: common.deletePostConfirm,
} as const;
