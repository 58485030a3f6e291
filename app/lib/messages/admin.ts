import { Common } from "./common";

// The operators' login and account settings. What every operator page shows (the nav, the bar
// with the account and logout) is ./adminNav, so those pages do not carry these strings.
export const admin = {
  username: "用户名",
  password: Common.password,
  login: Common.login,
  loggingIn: Common.loggingIn,
  loginHint: "仅限校园帮运营人员使用，账号由管理员在服务器上创建。",
  usernameRequired: "请输入用户名",
  passwordRequired: Common.passwordRequired,
  invalidCredentials: "用户名或密码错误",
  tooManyAttempts: "尝试次数过多，请 {wait}后再试",
  captcha: Common.captcha,
  captchaRequired: Common.captchaRequired,
  captchaWrong: Common.captchaWrong,
  displayName: "显示名称",
  messenger: "微信通知",
  messengerHint: "绑定微信后，新订单会通过微信消息通知你。",
  messengerLinked: "已绑定微信",
  messengerNotLinked: "未绑定微信",
  linkMessenger: "绑定我的微信",
  relinkMessenger: "更换绑定的微信",
  unlinkMessenger: "解除绑定",
  linkDone: "微信绑定成功",
  linkTaken: "该微信已绑定其他运营账号",
  linkFailed: "微信绑定失败，请重试",
  unlinkDone: "已解除微信绑定",
} as const;
