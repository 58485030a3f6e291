// /backpack/posts: the user's own posts.
import { Common } from "./common";

export const myPosts = {
  myPostsEmpty: "你还没有发过帖子",
  anonymousMark: Common.anonymousPosted,
  underReviewLong: "审核中：被多位同学举报，管理员处理前其他人看不到",
  hiddenLong: "已被管理员隐藏，其他人看不到",
  delete: Common.remove,
  deleteConfirm: Common.deletePostConfirm,
} as const;
