// The parcel dialog's labels (/market/parcel/:id).
// Its own module, so each panel route loads only its labels (market-sheets.ts puts them together).
import { Common } from "./common";

export const parcelSheet = {
  addTitle: "手动添加快递",
  companyLabel: Common.courierCompany,
  companyPlaceholder: "如：中通快递",
  credentialLabel: "取件凭证",
  credentialPlaceholder: "取件码或快递单号",
  editTitle: "修改取件信息",
  saveEntry: Common.save,
  stationLabel: Common.station,
  stationPlaceholder: "选择或输入取件地点",
  shareOriginal: "把这条短信提供给运营改进识别（手机号和姓名会先隐去，保存 90 天，只问这一次）",
} as const;

export const entrySheet = {
  saveRule: "保存条件：（快递单号+取件地址）或（取件码+快递公司）或（取件地址+取件凭证）",
} as const;
