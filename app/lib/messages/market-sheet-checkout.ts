// The order-confirm sheet's labels (/market/checkout).
// Its own module, so each panel route loads only its labels (market-sheets.ts puts them together).
import { Common } from "./common";

export const checkoutSheet = {
  title: "确认订单",
  viewLiveOrder: "查看该订单",
  addressRow: Common.deliveryAddress,
  addressChoose: "请选择收货地址",
  packages: "包裹规格",
  sizeGuide: "规格说明",
  increase: "增加{name}",
  decrease: "减少{name}",
  coupon: "优惠券",
  couponNone: Common.noCoupon,
  remark: Common.remark,
  remarkAdd: "添加备注",
  remarkPlaceholder: "如：大件、易碎品、放宿管阿姨处…",
  remarkSave: "保存备注",
  parcels: "共 {count} 件",
  paid: "实付",
  original: Common.originalPrice,
  pay: Common.payNow,
  paying: "提交中…",
  estimate: Common.estimated,
  today: Common.today,
  tomorrow: Common.tomorrow,
} as const;
