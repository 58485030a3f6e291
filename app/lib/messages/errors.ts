import { Common } from "./common";

export const errors = {
  notFoundTitle: "页面走丢了",
  notFoundBody: "你访问的页面不存在，可能已被删除或地址有误。",
  serverErrorTitle: "出了点问题",
  serverErrorBody: "服务器开小差了，请稍后重试。如果问题一直存在，请联系客服。",
  forbidden: "没有权限访问",
  network: Common.network,
  articleNotFound: "文章不存在",
  // Bounded requests and rate limits.
  requestRefusedTitle: "请求未被处理",
  bodyTooLarge: "提交的内容太大，请精简后重试",
  tooManyParts: "提交的内容项太多，请减少后重试",
  badBody: "请求内容格式不对，请刷新页面后重试",
  badUrl: "网址格式不对，请检查后重试",
  urlTooLong: "网址太长，请检查后重试",
  badHost: "请求的主机名不对",
  crossSite: "跨站请求已被拒绝",
  // A forged, expired or reused proof of work (a browser sends a fresh one, or none without JavaScript).
  proofInvalid: "安全校验未通过，请刷新页面后重试",
  // Fair service: one client's requests in flight over its share, and load shedding.
  tooManyInFlight: "同时发出的请求太多，请稍后再试",
  overloaded: "服务器正忙，请稍后再试",
  overloadedTitle: "人有点多",
  retry: Common.retry,
  rateLimitedTitle: "操作太频繁",
  rateLimited: "操作太频繁，请{wait}后再试",
} as const;
