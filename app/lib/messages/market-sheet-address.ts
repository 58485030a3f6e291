// The address picker's and form's labels (/market/address, /market/address/:id).
// Its own module, so each panel route loads only its labels (market-sheets.ts puts them together).
import { Common } from "./common";

export const addressSheet = {
  title: "选择收货地址",
  add: Common.newAddress,
  editTitle: "编辑地址",
  newTitle: Common.newAddress,
  empty: "还没有收货地址，先添加一个吧",
  default: "默认",
  selected: "已选",
  setDefault: "设为默认地址",
  name: Common.recipient,
  namePlaceholder: Common.recipientRequired,
  phone: Common.phone,
  phonePlaceholder: Common.phoneRequired,
  campus: Common.campus,
  campusPlaceholder: Common.chooseCampus,
  building: "宿舍楼栋",
  buildingPlaceholder: Common.buildingRequired,
  room: "宿舍号",
  roomPlaceholder: "如：302",
  save: "保存地址",
  delete: Common.remove,
  edit: Common.edit,
  confirm: "确认",
  deleteConfirm: "确定删除这个地址吗？",
} as const;
