// The customer's order pages: the list, the detail, the pay page — the texts their
// components render. The detail's dialogs are ./order-dialogs (loaded with the dialog's route);
// status labels and answers come from the server (./orders).
import { Common } from "./common";

export const orderPage = {
  actions: {
    pay: Common.payNow,
    cancel: Common.cancelOrder,
    refund: Common.applyRefund,
    review: Common.reviewOrder,
    contact: Common.contactService,
  },
  list: {
    empty: "还没有订单",
    emptyHint: "去快递代拿下一单吧",
    goOrder: "去下单",
    parcels: Common.parcelCount,
    more: Common.loadMore,
    createdAt: Common.createdAt,
    end: Common.noMoreOrders,
  },
  detail: {
    // The handover code (decision 038): the rider asks for it at the door.
    handoverCode: "送达交接码",
    handoverCodeHint: "骑手送达时请告诉骑手这 4 位数字，不要提前透露给他人。",
    // The delivery photo (decision 047): the rider's proof when the code could not be given.
    deliveryPhoto: Common.deliveryPhoto,
    deliveryPhotoHint: "骑手拍下的包裹放置位置，仅你和运营人员可见。",
    progress: "订单进度",
    info: "订单信息",
    number: "订单编号",
    createdAt: Common.createdAt,
    paidAt: Common.paidAt,
    amount: Common.amountPaid,
    amountDue: "应付金额",
    amountTotal: "订单金额",
    /** The breakdown the student can check the charge with (decision 030). */
    breakdown: "费用明细",
    breakdownLine: "{name} ×{count}",
    breakdownUnit: "{price}/件",
    couponLine: "优惠券抵扣",
    deliveryFee: "配送费",
    refundLine: "退款 {amount}",
    original: Common.originalPrice,
    discount: "优惠",
    payment: Common.paymentStatus,
    recipient: Common.recipient,
    address: Common.deliveryAddress,
    estimated: Common.estimated,
    remark: Common.remark,
    service: "服务类型",
    serviceName: Common.expressService,
    parcels: "包裹数量",
    pickupCodes: Common.pickupInfo,
    pickupCode: Common.pickupCode,
    tracking: Common.trackingNumber,
    station: Common.station,
    noCodes: "暂无取件信息",
    /** The station's deadline as the SMS wrote it (当日7点前), then its day and time. */
    deadline: Common.stationDeadline,
    copy: "复制",
    refundReason: Common.refundReason,
    refundRejection: "未通过原因",
    // Past the promised time and still to be delivered (the server sends it with the order).
    lateApology: "已超时：非常抱歉，订单已超过预计送达时间，我们正在加紧配送，请留意电话。",
    yourReview: "我的评价",
    reloadSoon: "支付完成后页面将自动刷新",
    payInMessenger: "请在微信中打开后完成支付",
  },
  pay: {
    paying: "正在支付…",
    checking: "正在确认支付结果…",
    networkError: Common.network,
  },
  // A size found wrong at pickup (decision 047).
  supplement: {
    title: Common.supplementTitle,
    found: Common.supplementFound,
    accept: "补差价 {amount}",
    decline: "不补，包裹留在驿站并退款",
    declineHint: "不补差价时，这件包裹不配送，按下单价格退还这件的费用。",
    paying: "正在确认补差价支付…",
    paid: "已补差价 {amount}，骑手会继续配送",
    declined: "这件包裹留在驿站，费用已原路退回",
    // A paid supplement given back on its own trade (its parcel not delivered, or the order refunded).
    refund: "补差价 {amount} {state}",
    refunded: Common.supplementRefunded,
    refunding: "退回中",
    gone: "这笔补差价已处理或订单已变化，请刷新页面",
  },
} as const;
