// The market page's labels that the server renders into HTML (the hero, the parcel list, the
// links under it): server-only, so they stay out of the page's JavaScript.
import { Common } from "./common";

export const marketPage = {
  express: {
    heroTitle: Common.expressService,
    heroHint: "粘贴取件短信，一键识别，送货上门",
    priceFrom: "每件 {price} 元起",
    listTitle: Common.recognitionResult,
    listEmpty: "还没有识别到快递，粘贴短信或上传截图试试",
    statusTip: "已识别 {count} 个快递，点击条目可修改",
    statusTipEmpty: "识别后的快递会显示在这里",
    confirm: "确认下单",
    tipButton: Common.orderTips,
    edit: Common.edit,
    delete: Common.remove,
    codeLabel: Common.pickupCode,
    trackingLabel: "快递单号",
    sourceImage: "截图",
    sourceManual: "手动",
    deadline: "{deadline}领取",
    checkLowConfidence: "截图看不清，请核对取件码",
    checkShortCode: "取件码可能不完整，请核对",
    checkLongNumber: "取件码处是一串单号，请核对取件码",
    serviceNotice: Common.serviceNotice,
    contactService: Common.contactService,
    estimate: Common.estimated,
    today: Common.today,
    tomorrow: Common.tomorrow,
  },
  authNeeded: Common.wechatLoginRequired,
  authAction: Common.goAuthorize,
} as const;
