// Texts the server puts into the circle's data (author names, the categories warning); no page imports them.
export const forumData = {
  anonymousName: "匿名同学",
  defaultAuthorName: "校园帮同学",
  categoriesFallback: "获取分类列表失败，使用默认分类",
} as const;
