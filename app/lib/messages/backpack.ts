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
  favourites: "我的收藏",
  favouritesEmpty: "还没有收藏的帖子，在帖子下方点「收藏」就会出现在这里",
  inbox: Common.inbox,
  about: Common.aboutUs,
  switchCampus: Common.switchCampus,
  customerService: Common.contactService,
  settings: Common.settings,
} as const;
