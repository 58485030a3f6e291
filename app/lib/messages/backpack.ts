import * as common from "./common";

export const backpack = {
  defaultNickname: "默认昵称",
  studentIdNotSet: "未设置",
  studentId: common.studentId,
  grades: common.gradeQuery,
  exams: common.exams,
  gpa: common.gpaRanking,
  orders: common.myOrders,
  posts: "我的帖子",
  inbox: common.inbox,
  about: common.aboutUs,
  switchCampus: common.switchCampus,
  customerService: common.contactService,
  settings: common.settings,
} as const;
