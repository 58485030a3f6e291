// The market's server answers (validation messages, notices, campus errors). Imported by loaders,
// actions and schemas only, so these strings never reach the page's JavaScript.
import { market } from "./market";
import { marketPage } from "./market-page";
import { marketSheets } from "./market-sheets";
import { marketUpload } from "./market-upload";
import { Common } from "./common";

export const marketAnswers = {
  recognize: {
    found: Common.parcelsFound,
    duplicate: Common.duplicateParcel,
    ocrUnavailable: "截图识别暂不可用，请粘贴短信文字",
    busy: "现在识别截图的人有点多，请 {seconds} 秒后再试，也可以直接粘贴短信文字",
    userBusy: "你的截图正在依次识别，请等这几张识别完再传",
    readFailed: "这张截图没能识别出来，请重试或粘贴短信文字",
    readTimeout: "这张截图识别太久了，请重试或粘贴短信文字",
    /** The textarea was emptied: its parcels go, the ones added by hand or from screenshots stay. */
    clearedKept: "已清除短信识别的快递，手动添加和截图识别的 {count} 个快递仍保留",
  },
  entry: {
    duplicate: "该取件码信息已存在，请勿重复添加",
    oneCode: Common.oneCodePerEntry,
    saved: Common.saved,
    notFound: "该快递不存在或已删除",
    tooLong: Common.tooLong,
  },
  checkout: {
    emptyList: "请先识别快递信息",
    checkFirst: "有快递的识别结果需要核对：请点开标着“请核对”的快递，确认无误后保存，再下单",
    zero: "{name}数量已为0",
    limit: "包裹数量不能超过快递数量（{count} 件）",
    remarkTooLong: "备注最多 200 字",
    needAddress: Common.needAddress,
    emptyParcels: Common.emptyParcelList,
    close: Common.close,
    stale: Common.stale,
  },
  address: {
    nameRequired: Common.recipientRequired,
    phoneRequired: Common.phoneRequired,
    phoneInvalid: Common.phoneInvalid,
    campusRequired: Common.chooseCampus,
    buildingRequired: Common.buildingRequired,
    roomRequired: "请输入宿舍号",
    tooLong: Common.tooLong,
    notFound: "地址不存在或已删除",
    saved: "地址已保存",
    deleted: "地址已删除",
    limit: "最多保存 20 个地址",
  },
  express: {
    deleted: "已删除",
  },
  campus: {
    configBroken: "该校区服务配置异常，请重新选择校区",
    notOpened: Common.campusNotOpen,
    configFallback: "加载快递配置失败，将使用默认配置",
    current: Common.currentCampus,
  },
  needAuth: Common.wechatAuthRequired,
  // The supermarket and errand tabs (rendered on the server).
  feature: {
    want: "我需要这个功能",
    thanks: "感谢您的反馈！我们会尽快开发这个功能",
    failed: "提交失败，请稍后再试",
    supermarketClosed: "超市代买功能暂未开放，敬请期待！",
    submitOrder: "提交代买需求",
    comingSoon: "功能开发中",
    phone: Common.phone,
    /** Product rules: the supermarket order would need a delivery address and a contact phone. */
    address: "收货地址（校区 楼栋 宿舍号）",
  },
  // The panels the server renders as static HTML (size guide, notice, tips, the pay placeholder).
  sizeGuide: {
    title: "包裹规格说明",
    examples: "例如",
    price: "{price} 元/件",
  },
  notice: {
    title: Common.serviceNotice,
  },
  panels: {
    placeholderTitle: "下单功能即将上线",
    placeholderBody: "在线下单与支付正在接入中，敬请期待。你的快递清单、地址和包裹规格已保存，上线后可直接支付。",
    tipTitle: Common.orderTips,
  },
} as const;

/** Labels and answers together, for server code that reads both. */
export const marketMessages = {
  ...market,
  recognize: { ...market.recognize, ...marketUpload, ...marketAnswers.recognize },
  entry: { ...marketSheets.entry, ...marketAnswers.entry },
  checkout: { ...marketSheets.checkout, ...marketAnswers.checkout },
  address: { ...marketSheets.address, ...marketAnswers.address },
  express: { ...market.express, ...marketPage.express, ...marketSheets.parcel, ...marketAnswers.express },
  authNeeded: marketPage.authNeeded,
  authAction: marketPage.authAction,
  campus: marketAnswers.campus,
  needAuth: marketAnswers.needAuth,
  feature: marketAnswers.feature,
  sizeGuide: marketAnswers.sizeGuide,
  notice: marketAnswers.notice,
  panels: marketAnswers.panels,
};
