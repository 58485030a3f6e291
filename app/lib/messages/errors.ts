export const errors = {
  notFoundTitle: "页面走丢了",
  notFoundBody: "你访问的页面不存在，可能已被删除或地址有误。",
  serverErrorTitle: "出了点问题",
  serverErrorBody: "服务器开小差了，请稍后重试。如果问题一直存在，请联系客服。",
  forbidden: "没有权限访问",
  network: "网络错误，请检查网络连接后重试",
  articleNotFound: "文章不存在",
} as const;
