// The market's reference data: the size guide and each campus's pickup places. The database
// holds the live copy (seeded from here); the size guide here is also the fallback the product rules ask
// for when loading the campus config fails. Safe in the browser: plain data.

import type { PackageTypeKey } from "./catalog";

export type SizeStandard = { title: string; desc: string; examples: string[] };

export const DEFAULT_SIZE_GUIDE: Record<PackageTypeKey, SizeStandard[]> = {
  pocket: [
    { title: "半个鞋盒以内", desc: "最长边不超过 20 厘米，重量 1 公斤以内", examples: ["手机壳", "袜子", "文具", "化妆品小样", "数据线"] },
  ],
  small: [
    { title: "一个 40 码鞋盒以内", desc: "最长边不超过 35 厘米，重量 3 公斤以内", examples: ["一双鞋", "几件衣服", "一本书", "小家电配件"] },
  ],
  medium: [
    { title: "两个鞋盒大小", desc: "最长边不超过 50 厘米，重量 8 公斤以内", examples: ["羽绒服", "电饭煲", "几本教材", "小型收纳箱"] },
  ],
  large: [
    { title: "三个鞋盒大小", desc: "最长边不超过 70 厘米，重量 15 公斤以内", examples: ["被子", "整箱饮料", "行李箱", "显示器"] },
  ],
};

export const DEFAULT_PICKUP_PLACES: Record<string, string[]> = {
  jinpenling: ["金盆岭菜鸟驿站（西苑食堂旁）", "西苑丰巢快递柜（西苑3栋楼下）", "京东快递站（北门）", "中国邮政校园邮政所（图书馆东侧）"],
  yuntang: ["云塘菜鸟驿站（二食堂一楼）", "兔喜快递超市（学生活动中心旁）", "丰巢快递柜（6栋楼下）", "顺丰速运校园营业点（南门）"],
  tianxin: ["天心菜鸟驿站（综合楼负一楼）", "妈妈驿站（东门）", "丰巢快递柜（研究生公寓楼下）", "中通快递超市（西门）"],
};

/** Four generic places for a campus the defaults do not name. */
export function defaultPickupPlaces(campusCode: string): string[] {
  return DEFAULT_PICKUP_PLACES[campusCode] ?? ["菜鸟驿站", "丰巢快递柜", "京东快递站", "邮政所"];
}
