// /treasure（百宝箱）页面的静态示例数据。纯数据模块：不依赖 React，不做任何 I/O。

export type ResourceRoomKey = "book" | "music" | "software" | "course" | "material";

export type ResourceRoom = {
  key: ResourceRoomKey;
  name: string;
  description: string;
  /** 图标名称（非 emoji），由页面映射到具体的 SVG 图标 */
  icon: string;
};

export const resourceRooms: ResourceRoom[] = [
  {
    key: "book",
    name: "书籍室",
    description: "电子书、教材与课外读物",
    icon: "book",
  },
  {
    key: "music",
    name: "音乐室",
    description: "自习歌单与校园原创音乐",
    icon: "music",
  },
  {
    key: "software",
    name: "软件室",
    description: "常用学习软件与正版授权指南",
    icon: "software",
  },
  {
    key: "course",
    name: "课程室",
    description: "公开课与学长学姐推荐的网课",
    icon: "course",
  },
  {
    key: "material",
    name: "资料室",
    description: "课程笔记、复习提纲与考试资料",
    icon: "material",
  },
];

export type NoticeType = "important" | "notice" | "maintenance";

export type Notice = {
  id: number;
  type: NoticeType;
  title: string;
  summary: string;
  /** YYYY-MM-DD */
  date: string;
};

export const noticeTypeLabels: Record<NoticeType, string> = {
  important: "重要",
  notice: "通知",
  maintenance: "维护",
};

export const notices: Notice[] = [
  {
    id: 1,
    type: "important",
    title: "期末资料专区已开放",
    summary: "各学院的复习提纲和往年资料正在陆续整理上架，欢迎同学们投稿分享自己的笔记。",
    date: "2025-12-01",
  },
  {
    id: 2,
    type: "notice",
    title: "百宝箱资源投稿规范",
    summary: "投稿资源请注明来源并确保不侵犯版权，审核通过后会在对应资源室展示。",
    date: "2025-11-20",
  },
  {
    id: 3,
    type: "maintenance",
    title: "本周六凌晨系统维护",
    summary: "周六 02:00–04:00 将进行服务器升级，期间百宝箱可能暂时无法访问，敬请谅解。",
    date: "2025-11-15",
  },
];

export type PickType = "book" | "music" | "course" | "material";

export type DailyPick = {
  id: number;
  type: PickType;
  title: string;
  subtitle: string;
};

export const pickTypeLabels: Record<PickType, string> = {
  book: "书籍",
  music: "音乐",
  course: "课程",
  material: "资料",
};

export const dailyPicks: DailyPick[] = [
  {
    id: 1,
    type: "book",
    title: "《如何阅读一本书》",
    subtitle: "莫提默·J. 艾德勒 著｜学会主动阅读的经典入门",
  },
  {
    id: 2,
    type: "music",
    title: "图书馆自习白噪音",
    subtitle: "雨声与翻书声，适合专注学习的 60 分钟",
  },
  {
    id: 3,
    type: "course",
    title: "Python 零基础入门",
    subtitle: "从环境搭建到文件处理，六节课带你上手编程",
  },
  {
    id: 4,
    type: "material",
    title: "高等数学期末复习提纲",
    subtitle: "极限、导数、积分重点题型汇总",
  },
];
