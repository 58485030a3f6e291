// /market/pay/:orderId — paying right after the checkout: the page's own texts. The
// pay button's progress texts are ./order-page (shared with the order page).
import { Common } from "./common";

export const payPage = {
  title: "支付订单",
  amount: "待支付金额",
  payNow: Common.payNow,
  successTitle: Common.paySuccess,
  successHint: "骑手接单后会通知你，预计 {time} 送达",
  viewOrder: "查看订单",
  backToMarket: "继续下单",
  pendingHint: "支付结果确认中，请稍后在订单详情查看",
  failedTitle: "支付未完成",
  failedHint: "订单已创建，使用学号登录后可在「我的订单」中继续支付。",
  login: Common.goLogin,
  close: Common.close,
  simulated: "开发环境：模拟支付，1.5 秒后自动成功",
  /** The unpaid order can be cancelled here too (its parcels are released). */
  cancel: Common.cancelOrder,
  cancelled: "订单已取消，快递可重新下单",
  /** The banner on /market while an order waits for payment. */
  unpaidBanner: "你有一个待支付订单 {orderNumber}",
  unpaidAction: "去支付",
} as const;
