// /admin/recognition: the kept corrections of recognition, grouped by sender tag.
export const adminRecognition = {
  title: "识别纠错",
  hint: "学生修改识别结果（或识别不到、手动添加）时，经本人同意保留的原短信（手机号和姓名已隐去），按短信签名分组，保留 90 天。用来改进识别规则。",
  empty: "暂无纠错记录",
  noTag: "（无签名）",
  screenshot: "（截图识别，原文未保存）",
  count: "{count} 条",
  original: "原短信",
  recognized: "识别结果",
  entered: "学生填写",
  nothing: "未识别到",
  code: "取件码",
  company: "快递公司",
  station: "取件地点",
} as const;
