// The operators' order page, the strings its JavaScript renders: the search form, the
// 'more actions' panel and the load failures. What the server renders alone (the summary, the
// cards, the notices, the CSV) is in ./adminOrderData; the refund queue and the audit log in
// ./adminRefunds. Status labels and tab names come from the orders group through the one status
// table (app/lib/order-status.ts). The product rules' English failures ('failed to load orders', 'network
// error', 'customer did not provide phone') are natural Chinese; its Chinese network message verbatim.
import { Common } from "./common";

export const adminOrders = {
  title: Common.orderManagement,
  campus: Common.campus,
  allCampuses: "全部校区",
  search: Common.search,
  searchLabel: "搜索订单",
  searchPlaceholder: "订单号 / 收件人 / 手机号或尾号 / 取件码 / 驿站",
  clearSearch: "清除",
  resultsFor: "“{q}”的搜索结果",
  // The 'more actions' dialog.
  actions: {
    title: "订单操作",
    complete: Common.completeOrder,
    cancel: Common.cancelOrder,
    cancelRefund: Common.cancelAndRefund,
    delete: Common.deleteOrder,
    call: "拨打客户电话",
    noPhone: "客户未提供电话",
    courier: "配送进度",
    assigned: Common.acceptOrder,
    picking: Common.startPicking,
    delivering: Common.startDelivery,
    none: "该订单当前没有可执行的操作",
    cancelTitle: "确认取消订单",
    cancelUnpaidHint: "订单尚未支付，取消后将直接关闭。",
    cancelPaidHint: "订单已支付，取消后将通过微信支付原路退款，退款成功后订单状态为“退款成功”。",
    reason: "原因（选填，客户可见）",
    reasonPlaceholder: "例如：驿站暂停营业",
    confirmCancel: Common.confirmCancel,
    deleteTitle: "确认删除订单",
    deleteHint: "删除后订单不再出现在订单管理中，但记录会保留用于审计和对账，不会退款。",
    confirmDelete: "确认删除",
    back: Common.back,
    log: "操作记录",
    fail: Common.deliveryFailed,
    failTitle: "登记配送失败",
    failHint: "未送达的快递将通过微信支付原路退款；全部未送达则整单退款，部分未送达则其余快递算作已完成。",
    failReason: "原因（必填，客户可见）",
    failReasonPlaceholder: "补充说明（选“其他原因”时必填）",
    missing: "未送达件数",
    confirmFail: "确认并退款",
  },
  failures: {
    load: "加载订单失败，请刷新重试",
    network: Common.network,
    retry: Common.retry,
  },
} as const;
