// The mutual-help form's choice of date (only coming meetings, once per class and date) and its
// kept text: a group of its own, so the 我来帮忙 sheet does not carry it.
export const helpDates = {
  dateLabel: "代签哪一次课",
  chooseDate: "请选择要代签的上课时间",
  movedToNext: "这周的这节课已经开始或结束了，已为你选好下一次上课的时间",
  noUpcoming: "这门课本学期已经没有之后的课了，不能再发起互助。",
  pastDate: "这次课已经开始或结束了，请选择之后的上课时间",
  duplicateDate: "你已经为这次课发布过互助了，请选择其他时间",
  viewExisting: "查看已发布的互助",
  alreadyAsked: "已发布",
  draftRestored: "已恢复上次填写的内容",
  classBegun: "这节课已经开始或结束了，不能再报名了",
} as const;
