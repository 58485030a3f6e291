// Orders: status labels and groups, refund and payment states, and the answers of
// creating an order and of the order actions — the server's texts (loaders send the labels the
// pages show). The pages' own texts (buttons, dialogs, the list) are ./order-page. Where the product rules
// gives Chinese it is verbatim; its English paraphrases are written as natural Chinese. Payment
// messages of the pay call itself live in ./pay.
import { Common } from "./common";

export const orders = {
  /** The messenger's share card of an order: what the order is and where it stands, never its pickup codes, phone or address. */
  share: {
    title: "我在校园帮下的快递代拿订单",
    desc: "{service} · {parcels} · {status}",
  },
  /** The customer label of each canonical status (docs/product-rules.md, "Customer order statuses"). */
  status: {
    created: "订单已创建",
    paid: "等待骑手接单",
    assigned: Common.riderAccepted,
    picking: "正在取件",
    delivering: "配送中",
    completed: Common.orderCompleted,
    cancelled: Common.orderCancelled,
    refunded: Common.refundSucceeded,
  },
  /** The product rules' Chinese forms: the groups an order is listed under (customer and admin). */
  groups: {
    pending_payment: Common.pendingPayment,
    in_progress: Common.inProgress,
    completed: Common.finished,
    cancelled: "已取消",
    refunded: Common.refundSucceeded,
  },
  /** While a refund is on its way the order keeps its status and shows this. */
  refundState: {
    requested: "退款审核中",
    processing: "退款处理中",
    refunded: Common.refundedShort,
    rejected: "退款申请未通过",
    failed: "退款未成功，请联系客服",
  },
  paymentStatus: {
    pending: Common.pendingPayment,
    paid: "已支付",
    refunded: Common.refundedShort,
    closed: "已关闭",
  },
  /** Creating an order (the market's pay button and POST /api/express/order_create). */
  create: {
    needMessenger: "未获取到微信用户信息，请重新授权登录",
    needAddress: Common.needAddress,
    /** The address's dorm building was turned off by an operator (or is on another campus). */
    addressNotServed: "该地址的宿舍楼暂不配送，请选择或新增其他收货地址",
    emptyList: Common.emptyParcelList,
    failed: "订单创建失败，请重试",
    stale: Common.stale,
    campusClosed: Common.campusNotOpen,
    /** The package counts do not add up to the parcels listed (docs/architecture.md "Parcels"). */
    countsMismatch: "各类型件数之和必须等于快递数量，请重新确认",
    tooManyParcels: "一次最多下单 30 件快递",
    duplicateParcel: Common.duplicateParcel,
    /** Several codes typed into one entry (decision 030: an entry is one parcel). */
    oneCode: Common.oneCodePerEntry,
    /** A parcel is already in a live order of the same user; the page links to {orderNumber}. */
    parcelInLiveOrder: "该快递已在订单 {orderNumber} 中，请勿重复下单",
    /** I2: a price, coupon or count changed while the sheet was open: nothing was charged. */
    priceChanged: "价格已变化，新的实付金额为 {amount}，请确认后再支付",
    addressCampus: "收货地址不在当前服务校区，请选择或新增该校区的地址",
    /** What the payer sees in the messenger's pay sheet (≤ 42 characters). */
    payDescription: "校园帮-快递代拿",
  },
  /** The product rules' failure messages of the order page. */
  failures: {
    invalidId: "无效的订单ID",
    detail: "获取订单详情失败",
    notFound: "订单不存在",
    cancel: "取消失败",
    refund: "退款申请失败",
    review: "评价失败",
    pay: "支付失败",
    notAllowed: Common.notAllowed,
    expired: "订单已超时关闭，请重新下单",
    alreadyReviewed: "该订单已评价",
  },
  done: {
    cancelled: Common.orderCancelled,
    cancelRefund: Common.cancelledRefunding,
    cancelRefunded: "订单已取消，已退款",
    refundRequested: "退款申请已提交，客服审核后原路退回",
    reviewed: "感谢您的评价！",
    paid: Common.paySuccess,
  },
  today: Common.today,
  tomorrow: Common.tomorrow,
  dayMonth: "{month}月{day}日",
  reasonMax: Common.max200Chars,
  commentMax: "最多 500 字",
  /** Messages of order events (the audit trail). */
  closedAuto: "超时未支付，订单已自动关闭",
  autoRefund: "订单已关闭后收到付款，自动退款",
  supplementDescription: "校园帮-快递代拿补差价",
} as const;
