// Paying through the messenger's pay API. The product rules' Chinese messages are verbatim.
import { Common } from "./common";

export const pay = {
  /** The pay params lack one of the six keys; {missing} is the list of their names. */
  incompleteParams: "支付参数不完整，缺少: {missing}",
  createFailed: "创建支付订单失败",
  failed: "支付失败，请重试",
  cancelled: "支付已取消，订单已创建，您可以稍后继续支付",
  permissionDenied: "微信支付权限验证失败，请检查支付配置",
  bridgeUnavailable: "微信支付接口不可用，请确保在微信客户端中打开",
  openInMessenger: "请在微信中打开",
  notConfigured: "微信支付暂未开放，请稍后再试",
  busy: "微信支付繁忙，请稍后再试",
  alreadyPaid: "订单已支付，请勿重复支付",
  closed: "支付已关闭，请重新下单",
  /** A post to the pay page that is not its pay button's form. */
  badRequest: Common.badRequest,
  simulatedNotice: "开发环境未配置微信支付商户号，支付为模拟：1.5 秒后自动成功",
} as const;
