// Reference data the app starts with. The database holds the live copy (operators may change
// it); these rows seed an empty database and are the fallback the product rules ask for when loading fails.
import { Common } from "./messages/common";

export const PACKAGE_TYPE_KEYS = ["pocket", "small", "medium", "large"] as const;
export type PackageTypeKey = (typeof PACKAGE_TYPE_KEYS)[number];

export const DEFAULT_PACKAGE_TYPES: { type: PackageTypeKey; name: string; description: string; priceFen: number }[] = [
  { type: "pocket", name: "口袋件", description: "半个鞋盒大小", priceFen: 120 },
  { type: "small", name: "小件", description: "一个40码鞋盒大小", priceFen: 200 },
  { type: "medium", name: "中件", description: "两个鞋盒大小", priceFen: 300 },
  { type: "large", name: "大件", description: "三个鞋盒大小", priceFen: 400 },
];

export const CAMPUS_STATUS_ACTIVE = "activate";
/** "Coming soon": listed in the selector, not orderable. */
export const CAMPUS_STATUS_COMING = "preparing";
export const CAMPUS_STATUSES = [CAMPUS_STATUS_ACTIVE, CAMPUS_STATUS_COMING] as const;

export const DEFAULT_CAMPUSES: { code: string; name: string; status: string; buildings: string[] }[] = [
  {
    code: "jinpenling",
    name: "金盆岭校区",
    status: CAMPUS_STATUS_ACTIVE,
    buildings: ["西苑1栋", "西苑2栋", "西苑3栋", "西苑4栋", "西苑5栋"],
  },
  {
    code: "yuntang",
    name: "云塘校区",
    status: CAMPUS_STATUS_ACTIVE,
    buildings: ["1栋", "2栋", "3栋", "4栋", "5栋", "6栋"],
  },
  { code: "tianxin", name: "天心校区", status: CAMPUS_STATUS_COMING, buildings: [] },
];

export const DEFAULT_FORUM_CATEGORIES = [
  { id: 1, name: "吃瓜闲聊", description: "校园日常，随便聊聊", icon: "chat", sortOrder: 1 },
  { id: 2, name: "学习交流", description: "课程、考试与学习方法", icon: "book", sortOrder: 2 },
  { id: 3, name: "互助代签", description: "有偿互助签到", icon: "hand", sortOrder: 3 },
  { id: 4, name: "找人交友", description: "找搭子、寻物寻人、交朋友", icon: "users", sortOrder: 4 },
  { id: 5, name: "二手闲置", description: "闲置转让，物尽其用", icon: "tag", sortOrder: 5 },
  { id: 6, name: "避雷吐槽", description: "踩过的坑，提醒大家", icon: "alert", sortOrder: 6 },
] as const;

// The academic-system adapters a school can run on: one list, app/lib/school-systems.ts.
export { SCHOOL_SYSTEM_KINDS as SCHOOL_SYSTEMS, type SchoolSystemKind } from "./school-systems";

export const DEFAULT_SCHOOLS = [{ code: "demo", name: "演示大学（体验账号）", system: "demo", baseUrl: null }] as const;

export function campusStatusLabel(status: string) {
  return status === CAMPUS_STATUS_ACTIVE ? Common.campusActive : Common.campusSoon;
}

