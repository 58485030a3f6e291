export const tabs = {
  schedule: "课表",
  circle: "圈子",
  market: "校园帮",
  backpack: "书包",
} as const;
