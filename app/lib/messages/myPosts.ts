// /backpack/posts: the user's own posts.
export const myPosts = {
  myPostsEmpty: "你还没有发过帖子",
  anonymousMark: "匿名发布",
  underReviewLong: "审核中：被多位同学举报，管理员处理前其他人看不到",
  hiddenLong: "已被管理员隐藏，其他人看不到",
  delete: "删除",
  deleteConfirm: "确定删除这条帖子吗？删除后无法恢复。",
} as const;
