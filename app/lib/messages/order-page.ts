// The customer's order pages (issue 8): the list, the detail, the pay page — the texts their
// components render. The detail's dialogs are ./order-dialogs (loaded with the dialog's route);
// status labels and answers come from the server (./orders).
import * as common from "./common";

export const orderPage = {
  actions: {
    pay: common.payNow,
    cancel: common.cancelOrder,
    refund: common.applyRefund,
    review: common.reviewOrder,
    contact: common.contactService,
  },
  list: {
    empty: "还没有订单",
    emptyHint: "去快递代拿下一单吧",
    goOrder: "去下单",
    parcels: common.parcelCount,
    more: common.loadMore,
    createdAt: common.createdAt,
    end: common.noMoreOrders,
  },
  detail: {
    progress: "订单进度",
    info: "订单信息",
    number: "订单编号",
    createdAt: common.createdAt,
    paidAt: common.paidAt,
    amount: common.amountPaid,
    amountDue: "应付金额",
    amountTotal: "订单金额",
    original: common.originalPrice,
    discount: "优惠",
    payment: common.paymentStatus,
    recipient: common.recipient,
    address: common.deliveryAddress,
    estimated: common.estimated,
    remark: common.remark,
    service: "服务类型",
    serviceName: common.expressService,
    parcels: "包裹数量",
    pickupCodes: common.pickupInfo,
    pickupCode: common.pickupCode,
    tracking: "运单号",
    station: common.station,
    noCodes: "暂无取件信息",
    copy: "复制",
    refundReason: common.refundReason,
    refundRejection: "未通过原因",
    yourReview: "我的评价",
    reloadSoon: "支付完成后页面将自动刷新",
    payInMessenger: "请在微信中打开后完成支付",
  },
  pay: {
    paying: "正在支付…",
    checking: "正在确认支付结果…",
    networkError: common.network,
  },
} as const;
