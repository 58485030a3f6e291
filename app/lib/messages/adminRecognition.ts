// /admin/recognition: the kept corrections of recognition, grouped by sender tag.
import { Common } from "./common";

export const adminRecognition = {
  title: "识别纠错",
  hint: "学生修改识别结果（或识别不到、手动添加）时，经本人同意保留的原短信（手机号和姓名已隐去），按短信签名分组，保留 90 天。用来改进识别规则。",
  empty: "暂无纠错记录",
  noTag: "（无签名）",
  screenshot: "（截图识别，原文未保存）",
  count: Common.countItems,
  original: "原短信",
  recognized: Common.recognitionResult,
  entered: "学生填写",
  nothing: "未识别到",
  code: Common.pickupCode,
  company: Common.courierCompany,
  station: Common.station,
} as const;
