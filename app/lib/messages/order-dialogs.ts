// The order page's dialogs: cancel, refund request, review, contact service. Each
// dialog is a child route of /express/orders/:orderId, so these texts load with it.
import { Common } from "./common";

export const orderDialogs = {
  cancelDialog: {
    title: Common.cancelOrder,
    paidHint: "订单已支付，取消后将原路退款。",
    unpaidHint: "确定要取消这个订单吗？",
    reason: "取消原因（选填）",
    reasonPlaceholder: "告诉我们取消的原因",
    confirm: Common.confirmCancel,
    keep: "再想想",
  },
  refundDialog: {
    title: Common.applyRefund,
    hint: "请说明退款原因，客服审核通过后原路退回。也可以直接联系客服处理。",
    reason: Common.refundReason,
    reasonPlaceholder: Common.refundReasonRequired,
    reasonRequired: Common.refundReasonRequired,
    submit: "提交申请",
    contact: Common.contactService,
  },
  reviewDialog: {
    title: Common.reviewOrder,
    rating: "服务评分",
    stars: ["非常不满意", "不满意", "一般", "满意", "非常满意"],
    star: "{count} 星",
    comment: "评价内容（选填）",
    commentPlaceholder: "说说这次代拿服务的体验吧",
    submit: "提交评价",
  },
  contactDialog: {
    title: Common.contactService,
    hours: "客服时间：{hours}",
    phone: Common.servicePhone,
    call: "拨打电话",
    more: "更多帮助",
  },
} as const;
