// The circle's list and its cards (the detail page adds postDetail, publishing adds publish, /backpack/posts myPosts).
import { Common } from "./common";

export const circle = {
  category: "分类",
  searchPlaceholder: "搜索帖子",
  searchInDevelopment: "搜索功能正在开发中，敬请期待",
  allCategories: Common.all,
  shortcuts: {
    countdown: "倒数日",
    treasure: "百宝屋",
    experience: "经验贴",
    tutoring: "家教兼职",
    certificate: "考证信息",
  },
  loadPostsFailed: "加载帖子失败: ",
  loadMore: Common.loadMore,
  loadingMore: Common.loading,
  noMore: "没有更多了",
  empty: "这里还没有帖子，来发第一条吧",
  backToNewest: "回到最新",
  publish: "发帖",
  published: "发布成功",
  deleted: "帖子已删除",
  reported: Common.reported,
  network: Common.networkShort,
  mine: Common.me,
  views: Common.views,
  comments: Common.comment,
  likes: Common.like,
  // Publishing from another page (mutual help): createPost refuses a banned author.
  noPermission: Common.noPostPermission,
  publishFailedDefault: "发布失败",
} as const;
