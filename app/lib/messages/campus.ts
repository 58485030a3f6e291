import { Common } from "./common";

export const campus = {
  selectTitle: "选择你的校区",
  selectHint: "我们会根据校区为你提供对应的服务",
  missingFooter: "没有找到你的校区？请联系客服开通",
  active: Common.campusActive,
  soon: Common.campusSoon,
  current: Common.currentCampus,
  switch: Common.switchCampus,
  none: "暂无可用校区，请稍后再试",
  loadFailed: "加载校区列表失败，请刷新页面重试",
  // The product rules' words (docs/product-rules.md, "Market messages"); choosing it resets the campus.
  notActive: Common.campusNotOpen,
  chosen: "已切换校区",
  required: Common.chooseCampus,
  unknown: "该校区不存在，请重新选择",
  comingHint: "标着「即将开通」的校区还不能下单代拿，开通后就能在这里选择。现在可以先用课表和校园圈。",
  goSchedule: "看课表",
  goCircle: "逛校园圈",
} as const;
