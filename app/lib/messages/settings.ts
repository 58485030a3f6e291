import { Common } from "./common";

export const settings = {
  theme: "主题颜色",
  themeSaved: "主题已更新",
  themeInvalid: "请选择一个主题颜色",
  appearance: "外观",
  appearanceInvalid: "请选择外观：跟随系统、浅色或深色",
  saveTheme: "保存主题",
  logoutHint: "退出后需要重新使用学号登录",
  deleteAccount: "注销账号",
  deleteTitle: "确定要注销账号吗？",
  deleteBody: "注销后你的课表、帖子、评论、点赞、地址、优惠券等个人数据将在 24 小时内被物理删除，且无法恢复。订单仅保留匿名的对账记录。",
  deletePassword: "请输入教务系统密码以确认",
  deletePasswordRequired: "请输入密码以确认注销",
  deletePasswordWrong: "密码不正确，请重新输入",
  deleteConfirm: "确认注销",
  currentTheme: "当前主题",
  logout: Common.logout,
  logoutConfirm: "确定要退出登录吗？",
  version: "版本",
  account: "账号",
} as const;
