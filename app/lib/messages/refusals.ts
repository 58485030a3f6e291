// What the server answers when it refuses a request before or instead of the route's work: bounded
// bodies and URLs, the cross-site and Host checks, proof of work, the fair share and rate limits.
// Only server code writes these (the error screen shows the text it is sent), so they stay out of
// the pages' JavaScript, unlike ./errors.
export const refusals = {
  bodyTooLarge: "提交的内容太大，请精简后重试",
  tooManyParts: "提交的内容项太多，请减少后重试",
  badBody: "请求内容格式不对，请刷新页面后重试",
  badUrl: "网址格式不对，请检查后重试",
  urlTooLong: "网址太长，请检查后重试",
  badHost: "请求的主机名不对",
  crossSite: "跨站请求已被拒绝",
  proofInvalid: "安全校验未通过，请刷新页面后重试",
  tooManyInFlight: "同时发出的请求太多，请稍后再试",
  overloaded: "服务器正忙，请稍后再试",
  rateLimited: "操作太频繁，请{wait}后再试",
} as const;
