// Texts the server puts into the circle's data (author names, the categories warning); no page imports them.
export const forumData = {
  anonymousName: "匿名同学",
  defaultAuthorName: "校园帮同学",
  categoriesFallback: "获取分类列表失败，使用默认分类",
  /** An anonymous participant's name inside one thread: {name} is one of the pseudonyms below. */
  pseudonymTemplate: "匿名·{name}",
  pseudonyms: [
    "青柠", "柚子", "荔枝", "山竹", "杨梅", "枇杷", "芒果", "樱桃",
    "蓝莓", "草莓", "葡萄", "橘子", "柠檬", "椰子", "菠萝", "西瓜",
    "蜜桃", "石榴", "桑葚", "金桔", "柿子", "香梨", "苹果", "雪梨",
    "龙眼", "杏子", "李子", "甘蔗", "蜜瓜", "红枣", "核桃", "栗子",
    "松果", "银杏", "桂花", "茉莉", "海棠", "玉兰", "芍药", "薄荷",
    "竹笋", "芦苇", "蒲公英", "向日葵", "四叶草", "猕猴桃", "火龙果", "哈密瓜",
  ],
} as const;
