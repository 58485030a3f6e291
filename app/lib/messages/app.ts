import { APP_NAME, APP_VERSION } from "./app-info";
import { Common } from "./common";

export const app = {
  name: APP_NAME,
  version: `v${APP_VERSION}`,
  underConstruction: "此功能正在建设中",
  underConstructionHint: "我们正在加紧开发，敬请期待。",
  inDevelopment: "该功能正在开发中，敬请期待",
  comingSoon: "即将上线，敬请期待",
  back: Common.back,
  home: "回到首页",
  confirm: "确定",
  cancel: Common.cancel,
  loading: Common.loading,
  save: Common.save,
  close: Common.close,
  tagline: "让校园生活更简单一点",
  contents: "本页目录",
} as const;
