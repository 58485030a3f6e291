// The market page's labels that the server renders into HTML (the hero, the parcel list, the
// links under it): server-only, so they stay out of the page's JavaScript.
export const marketPage = {
  express: {
    heroTitle: "快递代拿",
    heroHint: "粘贴取件短信，一键识别，送货上门",
    priceFrom: "每件 {price} 元起",
    listTitle: "识别结果",
    listEmpty: "还没有识别到快递，粘贴短信或上传截图试试",
    statusTip: "已识别 {count} 个快递，点击条目可修改",
    statusTipEmpty: "识别后的快递会显示在这里",
    confirm: "确认下单",
    tipButton: "下单须知",
    edit: "编辑",
    delete: "删除",
    codeLabel: "取件码",
    trackingLabel: "快递单号",
    sourceImage: "截图",
    sourceManual: "手动",
    serviceNotice: "服务须知",
    contactService: "联系客服",
    estimate: "预计送达",
    today: "今天",
    tomorrow: "明天",
  },
  authNeeded: "请先进行微信授权登录",
  authAction: "去授权",
} as const;
