import { APP_NAME } from "./app-info";
import * as common from "./common";

export const titles = {
  schedule: common.schedule,
  mutualHelp: "互助代签",
  circle: common.circle,
  post: "帖子详情",
  publishPost: "发布帖子",
  treasure: "百宝箱",
  market: APP_NAME,
  promo: "邀请有礼",
  backpack: common.backpack,
  profile: common.profile,
  settings: common.settings,
  about: common.aboutUs,
  blog: "Python 学习笔记",
  article: "文章",
  orders: common.myOrders,
  orderDetail: "订单详情",
  adminOrders: common.orderManagement,
  adminLogin: "运营登录",
  adminSettings: "运营账号设置",
  customerService: "客服中心",
  login: common.login,
  wxCallback: "微信授权",
  points: "成绩与绩点",
} as const;
