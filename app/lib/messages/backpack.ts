import { Common } from "./common";

export const backpack = {
  defaultNickname: "默认昵称",
  studentIdNotSet: "未设置",
  studentId: Common.studentId,
  grades: Common.gradeQuery,
  exams: Common.exams,
  gpa: Common.gpaRanking,
  orders: Common.myOrders,
  posts: "我的帖子",
  inbox: Common.inbox,
  about: Common.aboutUs,
  switchCampus: Common.switchCampus,
  customerService: Common.contactService,
  settings: Common.settings,
} as const;
