import { Common } from "./common";

// What every operator page shows: the navigation, the bar with the account and logout, and the
// empty order list. Kept apart from ./admin (login and settings) for the pages' JavaScript.
export const adminNav = {
  logout: Common.logout,
  signedInAs: "当前运营账号",
  settings: "账号设置",
  orders: Common.orderManagement,
  nav: "管理导航",
  navRefunds: Common.refundRequests,
  navAudit: Common.auditLog,
  navReconciliation: Common.reconciliation,
  navModeration: Common.moderation,
  navReference: "基础数据",
  navRiders: "骑手管理",
  navPickList: "取件清单",
  noOrders: "暂无订单",
  noOrdersHint: "新订单会显示在这里。",
} as const;
