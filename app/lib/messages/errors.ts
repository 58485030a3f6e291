import { Common } from "./common";

// What the error screens show: the root boundary reaches every page's JavaScript, so the
// refusals' own texts, which only the server writes, live in ./refusals.
export const errors = {
  notFoundTitle: "页面走丢了",
  notFoundBody: "你访问的页面不存在，可能已被删除或地址有误。",
  serverErrorTitle: "出了点问题",
  serverErrorBody: "服务器开小差了，请稍后重试。如果问题一直存在，请联系客服。",
  // Titles of the error screen for a refused request (its body is the refusal's own text, ./refusals).
  requestRefusedTitle: "请求未被处理",
  overloadedTitle: "人有点多",
  retry: Common.retry,
  rateLimitedTitle: "操作太频繁",
} as const;
