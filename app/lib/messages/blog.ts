import { Common } from "./common";

export const blog = {
  openInBrowser: "当前在微信中浏览，点击右上角「…」选择「在浏览器打开」，阅读体验更佳。",
  welcome: "欢迎来到校园帮博客！这里记录我们的故事和校园生活小贴士。",
  readMore: "阅读全文",
  close: Common.close,
  readTime: "阅读时长",
  backToList: "返回文章列表",
  intro: "六篇入门教程，用校园生活里的小例子，带你从零学会 Python。",
  seriesLabel: "入门系列",
  author: "作者",
  tags: "标签",
  publishedOn: "发布于",
  articleNotFound: "文章不存在",
  notFoundHint: "这篇文章可能已被删除，或链接地址有误。",
  codeLabel: "代码示例",
} as const;
