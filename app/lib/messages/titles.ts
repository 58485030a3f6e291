import { APP_NAME } from "./app-info";
import { Common } from "./common";

export const titles = {
  schedule: Common.schedule,
  mutualHelp: "互助代签",
  circle: Common.circle,
  post: "帖子详情",
  publishPost: "发布帖子",
  treasure: "百宝箱",
  market: APP_NAME,
  promo: "邀请有礼",
  backpack: Common.backpack,
  profile: Common.profile,
  settings: Common.settings,
  about: Common.aboutUs,
  blog: "Python 学习笔记",
  article: "文章",
  orders: Common.myOrders,
  orderDetail: "订单详情",
  adminOrders: Common.orderManagement,
  adminLogin: "运营登录",
  adminSettings: "运营账号设置",
  customerService: "客服中心",
  login: Common.login,
  wxCallback: "微信授权",
  points: "成绩与绩点",
} as const;
