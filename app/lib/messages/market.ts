// The market page's labels: what its components render in the browser. Server answers (errors,
// notices) are in ./market-answers.ts so they stay out of the page's JavaScript.
import { Common } from "./common";

export const market = {
  tabs: { express: Common.expressService, online: "超市代买", errand: "万能跑腿" },
  express: {
    smsLabel: "取件短信",
    smsPlaceholder: "把取件短信粘贴到这里，多条短信之间请空一行",
    smsHint: "不同短信之间请用空行分隔；输入停止 1.5 秒后自动识别",
    recognize: "粘贴取件短信，一键识别",
    recognizing: "识别中…",
    uploadImage: "截图识别",
    manualAdd: "手动添加",
    images: "取件截图",
    imagesHint: "最多 3 张，每张不超过 8MB",
    imageRecognize: "识别截图",
    imageSteps: "截图识别进度",
    imageLabel: "第 {n} 张",
    imageRemove: "移除截图",
  },
  recognize: {
    emptyText: "请先输入取件短信内容再进行识别",
    manualHint: "没识别出来？点这里手动添加",
  },
} as const;
