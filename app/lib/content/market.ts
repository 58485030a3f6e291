// The market page's content that is data rather than labels: the order tips and the intros of the
// tabs that are not open yet. The loader sends only what the current view shows.

export const MARKET_TIPS = [
  "请确认取件码、快递公司和取件地点无误，信息错误可能导致无法取件。",
  "大件、贵重物品、生鲜请在备注中说明。",
  "下单后骑手会按配送时段送达宿舍楼下，请留意电话。",
];

export const FEATURE_INTROS = {
  online: {
    title: "超市代买",
    intro: "学习太忙没空去超市？告诉我们要买什么，跑腿同学帮你买好送到宿舍。",
    points: ["零食饮料、日用百货都能买", "小票实价，只收跑腿费", "送到宿舍楼下"],
  },
  errand: {
    title: "万能跑腿",
    intro: "取文件、送东西、代排队……校园里的小事，都可以找跑腿同学帮忙。",
    points: ["校内 30 分钟响应", "按距离和时长计费", "全程联系跑腿同学"],
  },
} as const;
