// The operator's day (decision 039), strings only the server uses: 配送失败's causes, the slot
// filter's choices, 已超时 on a card, who hears of new orders, the CSV's pick-list columns. Kept
// apart from ./adminOrderData, which /admin/orders' JavaScript carries.
import { Common } from "./common";
import { orders } from "./orders";

export const adminOps = {
  // 配送失败's causes (the student reads the label, and the operator's note after it).
  failReasons: {
    station_closed: "驿站已关门",
    parcel_not_found: "找不到包裹",
    recipient_unreachable: "联系不上收件人",
    parcel_missing: "包裹少了一件",
    other: "其他原因",
  },
  // The slot filter: the upcoming deliveries with their places taken.
  slots: {
    label: Common.deliverySlots,
    all: "全部时段",
    option: "{day} {time}",
    load: "{option}（{taken}/{capacity}）",
    today: Common.today,
    tomorrow: Common.tomorrow,
  },
  // Who hears of new orders on /admin/settings (the server words it with the count).
  reach: {
    nobody: "目前没有任何运营人员绑定微信：新订单不会通过微信通知任何人，请至少一人绑定。",
    some: "新订单会通过微信通知已绑定的 {count} 位运营人员。",
  },
  late: Common.late,
  // A size found wrong at pickup, beside the order's amount on its card (decision 052).
  supplement: {
    card: "{amount} · 补差价 {supplement}（{declared}→{real}，{state}）",
    offered: "待学生支付",
    paid: orders.paymentStatus.paid,
    refunded: Common.supplementRefunded,
    declined: "学生未补，包裹留站",
    // 配送失败's parcels: of the missing ones of its declared size, the supplemented one.
    missingParcel: "其中补差价的那件（{declared}→{real}）",
  },
  // The CSV's pick-list columns.
  csv: {
    promise: Common.estimated,
    station: "驿站",
    company: Common.courierCompany,
    codes: Common.pickupCode,
    tracking: Common.trackingNumber,
  },
} as const;
