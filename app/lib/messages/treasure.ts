export const treasure = {
  rooms: "资源室",
  notices: "公告栏",
  picks: "每日推荐",
  more: "更多",
  heroTitle: "学习资源，一站找齐",
  heroHint: "书籍、音乐、软件、课程和资料，同学们一起来分享",
  detail: "查看详情",
  enter: "进入",
} as const;
